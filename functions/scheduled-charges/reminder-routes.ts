import * as z from 'zod';
import { uuidParam } from '#shared/domain/params';
import {
  INSTALLMENT_NOT_FOUND,
  installmentPreviewSchema,
  NOT_ISSUED,
} from '#shared/domain/reminders/installment-preview';
import {
  customerReminderScheduleResponse,
  installmentReminderPreviewResponse,
  reminderChannelsResponse,
  reminderPreviewResponse,
  reminderScheduleResponse,
} from '#shared/domain/reminders/responses';
import { reminderScheduleSchema, SCHEDULE_LIMITS } from '#shared/domain/reminders/schedule';
import {
  CUSTOMER_NOT_FOUND,
  previewSchema,
  smsChannelSchema,
  whatsappChannelSchema,
} from '#shared/domain/reminders/settings';
import type { AuthScheme } from '#shared/http/types';

const auth: AuthScheme[] = ['apiKey', 'jwt'];
const LIMITS =
  `Steps: offsetDays ${SCHEDULE_LIMITS.minOffsetDays}..${SCHEDULE_LIMITS.maxOffsetDays}, unique, at most ` +
  `${SCHEDULE_LIMITS.maxSteps}; channels email, whatsapp, sms; subject up to ${SCHEDULE_LIMITS.subjectLength} and body ` +
  `up to ${SCHEDULE_LIMITS.bodyLength} characters, placeholders {{empresa}}, {{cliente}}, {{referente}}, {{valor}}, ` +
  '{{vencimento}}, {{link}}, {{linha_digitavel}}, {{pix_copia_e_cola}}, {{descadastro}}; a whatsapp step names ' +
  'its approved template and carries {{descadastro}}. 400 naming the field.';
const customer = '/api/v1/customers/{uuid}/reminder-schedule';
const byCustomer = { auth, notFound: CUSTOMER_NOT_FOUND } as const;
const channelParam = z.object({ channel: z.enum(['whatsapp', 'sms']) });

/** The reminder schedule ("régua de cobrança"), its channels and its preview: served by the scheduled-charges group. */
export const reminderRoutes = [
  {
    operationId: 'getReminderSchedule',
    method: 'GET',
    path: '/api/reminder-schedule',
    auth,
    summary: "The seller's reminder schedule (the default one until set)",
    responses: { 200: reminderScheduleResponse },
  },
  {
    operationId: 'putReminderSchedule',
    method: 'PUT',
    path: '/api/reminder-schedule',
    auth,
    summary: "Replace the seller's reminder schedule",
    description: `Charges follow it from their next due run. ${LIMITS}`,
    request: { body: reminderScheduleSchema },
    responses: { 200: reminderScheduleResponse },
  },
  {
    operationId: 'previewReminder',
    method: 'POST',
    path: '/api/reminder-schedule/preview',
    auth,
    summary: "Render a step of the customer's schedule for a scheduled charge, on the day it would go out",
    description:
      'Nothing is sent. 404 `Scheduled charge not found`, `Reminder step not found` (no step at that offsetDays).',
    request: { body: previewSchema },
    errors: [404],
    responses: { 200: reminderPreviewResponse },
  },
  {
    operationId: 'previewInstallmentReminder',
    method: 'POST',
    path: '/api/reminder-schedule/installment-preview',
    auth,
    summary: "Render a step of the customer's schedule for a carnê installment, on the day it would go out",
    description:
      'Nothing is sent. The installment named, else the earliest open one with a boleto. 404 `Installment plan not ' +
      `found\`, \`${INSTALLMENT_NOT_FOUND}\`, \`Reminder step not found\`; 409 \`${NOT_ISSUED}\`.`,
    request: { body: installmentPreviewSchema },
    errors: [404, 409],
    responses: { 200: installmentReminderPreviewResponse },
  },
  {
    ...byCustomer,
    operationId: 'getCustomerReminderSchedule',
    method: 'GET',
    path: customer,
    summary:
      "The schedule the customer's charges follow (its override, the seller's, or the default) and its opt-outs",
    request: { path: uuidParam },
    responses: { 200: customerReminderScheduleResponse },
  },
  {
    ...byCustomer,
    operationId: 'putCustomerReminderSchedule',
    method: 'PUT',
    path: customer,
    summary: "Set the customer's own reminder schedule",
    description: LIMITS,
    request: { path: uuidParam, body: reminderScheduleSchema },
    responses: { 200: customerReminderScheduleResponse },
  },
  {
    ...byCustomer,
    operationId: 'deleteCustomerReminderSchedule',
    method: 'DELETE',
    path: customer,
    summary: "Remove the customer's override: its charges follow the seller's schedule (opt-outs stay)",
    request: { path: uuidParam },
    responses: { 200: customerReminderScheduleResponse },
  },
  {
    operationId: 'getReminderChannels',
    method: 'GET',
    path: '/api/reminder-channels',
    auth,
    summary: 'Which reminder channels are on (never the WhatsApp token)',
    responses: { 200: reminderChannelsResponse },
  },
  {
    operationId: 'putWhatsappChannel',
    method: 'PUT',
    path: '/api/reminder-channels/whatsapp',
    auth,
    summary:
      'Send reminders by WhatsApp (Cloud API): the phone number id and an access token, stored encrypted',
    request: { body: whatsappChannelSchema },
    responses: { 200: reminderChannelsResponse },
  },
  {
    operationId: 'putSmsChannel',
    method: 'PUT',
    path: '/api/reminder-channels/sms',
    auth,
    summary: 'Send reminders by SMS (AWS End User Messaging) from an origination identity',
    request: { body: smsChannelSchema },
    responses: { 200: reminderChannelsResponse },
  },
  {
    operationId: 'deleteReminderChannel',
    method: 'DELETE',
    path: '/api/reminder-channels/{channel}',
    auth,
    summary: 'Turn a channel off and forget its credentials',
    notFound: 'Channel not found',
    request: { path: channelParam },
    responses: { 200: reminderChannelsResponse },
  },
  {
    operationId: 'getReminderOptOutPage',
    method: 'GET',
    path: '/descadastro/{token}',
    auth: [],
    summary: 'The opt-out link of a reminder: a page (pt-BR) asking to stop that channel',
    request: { path: z.object({ token: z.string() }) },
    responses: {
      200: { contentType: 'text/html', description: 'The question, with the button that stops the channel.' },
      404: { contentType: 'text/html', description: 'The same page for any token that names nothing.' },
    },
  },
  {
    operationId: 'postReminderOptOut',
    method: 'POST',
    path: '/descadastro/{token}',
    auth: [],
    summary: "Stop the link's channel for the customer (the page's button)",
    request: { path: z.object({ token: z.string() }) },
    responses: {
      200: { contentType: 'text/html', description: 'Done (also when it was already stopped).' },
      404: { contentType: 'text/html', description: 'The same page for any token that names nothing.' },
    },
  },
] as const;
