import * as z from 'zod';
import { addDays, saoPauloDate } from '#shared/dates';
import type { Deps } from '#shared/domain/deps';
import type { ReminderContext, SmsChannelSettings, WhatsappChannelSettings } from '#shared/domain/ports';
import { SCHEDULED_CHARGE_NOT_FOUND } from '#shared/domain/scheduled-charges/not-found';
import { cycleReminderCharge, recipientFor } from '#shared/domain/scheduled-charges/reminders';
import { isOpen } from '#shared/domain/scheduled-charges/state';
import type { Tenant } from '#shared/domain/tenant';
import { NotFoundError } from '#shared/errors';
import { centavosToReais } from '#shared/money';
import { parseInput } from '#shared/validation';
import {
  amountDueFor,
  channelKeyContext,
  mobileE164,
  OPT_OUT_PATH,
  type ReminderRecipient,
  reminderValues,
} from './deliver';
import { type ReminderValues, renderEmail, renderSms, renderText, whatsappParameters } from './render';
import {
  DEFAULT_SCHEDULE,
  type ReminderSchedule,
  type ReminderStep,
  reminderScheduleSchema,
  resolveSchedule,
  SCHEDULE_LIMITS,
} from './schedule';

/**
 * The reminder settings the seller edits through the API: its schedule, a customer's override,
 * the WhatsApp and SMS channels (the token only encrypted, never answered), and the preview of a
 * step for one of its charges.
 */

export type SettingsDeps = Pick<
  Deps,
  | 'reminderSettings'
  | 'customers'
  | 'scheduledCharges'
  | 'transactions'
  | 'cipher'
  | 'clock'
  | 'publicBaseUrl'
>;

export const CUSTOMER_NOT_FOUND = 'Customer not found';

const scheduleView = (schedule: ReminderSchedule, source: 'default' | 'seller' | 'customer') => ({
  source,
  steps: schedule.steps,
  limits: SCHEDULE_LIMITS,
});

/** GET /api/reminder-schedule: the seller's schedule, or the default one. */
export async function getReminderSchedule(deps: SettingsDeps, tenant: Tenant) {
  const { seller } = await deps.reminderSettings.read(tenant);
  return seller?.schedule
    ? scheduleView(seller.schedule, 'seller')
    : scheduleView(DEFAULT_SCHEDULE, 'default');
}

/** PUT /api/reminder-schedule: replaces the seller's schedule (an empty list sends no reminder). */
export async function putReminderSchedule(deps: SettingsDeps, tenant: Tenant, input: unknown) {
  const schedule = parseInput(reminderScheduleSchema, input);
  await deps.reminderSettings.putSellerSchedule(tenant, schedule, deps.clock.now().toISOString());
  return scheduleView(schedule, 'seller');
}

async function profileOf(deps: SettingsDeps, tenant: Tenant, uuid: string) {
  const profile = await deps.customers.findProfile(tenant, uuid);
  if (!profile) throw new NotFoundError(CUSTOMER_NOT_FOUND);
  return profile;
}

/** GET /api/v1/customers/{uuid}/reminder-schedule: the schedule the customer's charges follow, and whence. */
export async function getCustomerReminderSchedule(deps: SettingsDeps, tenant: Tenant, uuid: string) {
  const profile = await profileOf(deps, tenant, uuid);
  const { seller, customer } = await deps.reminderSettings.read(tenant, profile.id);
  if (customer?.schedule)
    return { ...scheduleView(customer.schedule, 'customer'), optedOut: customer.optedOut };
  const view = seller?.schedule
    ? scheduleView(seller.schedule, 'seller')
    : scheduleView(DEFAULT_SCHEDULE, 'default');
  return { ...view, optedOut: customer?.optedOut ?? [] };
}

/** PUT /api/v1/customers/{uuid}/reminder-schedule: the customer's override. */
export async function putCustomerReminderSchedule(
  deps: SettingsDeps,
  tenant: Tenant,
  uuid: string,
  input: unknown,
) {
  const schedule = parseInput(reminderScheduleSchema, input);
  const profile = await profileOf(deps, tenant, uuid);
  await deps.reminderSettings.putCustomerSchedule(
    tenant,
    profile.id,
    schedule,
    deps.clock.now().toISOString(),
  );
  return getCustomerReminderSchedule(deps, tenant, uuid);
}

/** DELETE /api/v1/customers/{uuid}/reminder-schedule: back to the seller's schedule (opt-outs stay). */
export async function deleteCustomerReminderSchedule(deps: SettingsDeps, tenant: Tenant, uuid: string) {
  const profile = await profileOf(deps, tenant, uuid);
  await deps.reminderSettings.putCustomerSchedule(tenant, profile.id, null, deps.clock.now().toISOString());
  return getCustomerReminderSchedule(deps, tenant, uuid);
}

export const whatsappChannelSchema = z.strictObject({
  enabled: z.boolean({ error: 'enabled must be true or false' }),
  phoneNumberId: z
    .string({ error: 'phoneNumberId must be a string' })
    .regex(/^[0-9]{5,30}$/, 'phoneNumberId must be the WhatsApp Business phone number id (digits)')
    .describe('The WhatsApp Business phone number id messages are sent from'),
  accessToken: z
    .string({ error: 'accessToken must be a string' })
    .trim()
    .regex(/^[A-Za-z0-9_-]{20,1000}$/, 'accessToken must be a WhatsApp Cloud API access token')
    .describe(
      'A system user access token of the WhatsApp Business account; stored encrypted, never shown again',
    ),
  language: z
    .string()
    .regex(/^[a-z]{2}(_[A-Z]{2})?$/, 'language must be a template language code such as pt_BR')
    .default('pt_BR')
    .describe("The approved templates' language"),
});

export const smsChannelSchema = z.strictObject({
  enabled: z.boolean({ error: 'enabled must be true or false' }),
  originationIdentity: z
    .string({ error: 'originationIdentity must be a string' })
    .trim()
    .regex(
      /^(\+[1-9][0-9]{7,14}|[A-Za-z0-9_:/.-]{3,256})$/,
      'originationIdentity must be a phone number in E.164, a sender id, a pool id or its ARN',
    )
    .describe('The End User Messaging SMS origination identity (phone number, sender id, pool or ARN)'),
});

const channelsView = (context: ReminderContext) => ({
  email: { enabled: true },
  whatsapp: context.seller?.whatsapp
    ? {
        enabled: context.seller.whatsapp.enabled,
        phoneNumberId: context.seller.whatsapp.phoneNumberId,
        accessTokenLast4: context.seller.whatsapp.accessTokenLast4,
        language: context.seller.whatsapp.language,
      }
    : { enabled: false },
  sms: context.seller?.sms
    ? { enabled: context.seller.sms.enabled, originationIdentity: context.seller.sms.originationIdentity }
    : { enabled: false },
});

/** GET /api/reminder-channels: which channels are on, never the WhatsApp token. */
export async function getReminderChannels(deps: SettingsDeps, tenant: Tenant) {
  return channelsView(await deps.reminderSettings.read(tenant));
}

/** PUT /api/reminder-channels/whatsapp: the sender and its token, sealed with the provider keys' cipher. */
export async function putWhatsappChannel(deps: SettingsDeps, tenant: Tenant, input: unknown) {
  const body = parseInput(whatsappChannelSchema, input);
  const settings: WhatsappChannelSettings = {
    enabled: body.enabled,
    phoneNumberId: body.phoneNumberId,
    encryptedAccessToken: await deps.cipher.encrypt(
      body.accessToken,
      channelKeyContext(tenant.sellerId, 'whatsapp'),
    ),
    accessTokenLast4: body.accessToken.slice(-4),
    language: body.language,
  };
  await deps.reminderSettings.putChannel(tenant, 'whatsapp', settings, deps.clock.now().toISOString());
  return getReminderChannels(deps, tenant);
}

/** PUT /api/reminder-channels/sms. */
export async function putSmsChannel(deps: SettingsDeps, tenant: Tenant, input: unknown) {
  const body = parseInput(smsChannelSchema, input);
  const settings: SmsChannelSettings = {
    enabled: body.enabled,
    originationIdentity: body.originationIdentity,
  };
  await deps.reminderSettings.putChannel(tenant, 'sms', settings, deps.clock.now().toISOString());
  return getReminderChannels(deps, tenant);
}

/** DELETE /api/reminder-channels/{channel}: the channel off, its credentials gone. */
export async function deleteChannel(deps: SettingsDeps, tenant: Tenant, channel: 'whatsapp' | 'sms') {
  await deps.reminderSettings.putChannel(tenant, channel, null, deps.clock.now().toISOString());
  return getReminderChannels(deps, tenant);
}

export const previewSchema = z.strictObject({
  step: z
    .number({ error: 'step must be the offsetDays of a step of the schedule' })
    .int('step must be the offsetDays of a step of the schedule')
    .describe("The offsetDays of a step of the schedule the charge's customer follows"),
  scheduledChargeId: z
    .string({ error: 'scheduledChargeId must be a string' })
    .max(80)
    .describe('The charge (sch_…) whose earliest open cycle the preview renders'),
});

/**
 * POST /api/reminder-schedule/preview: the step of the customer's schedule rendered for the
 * charge's earliest open cycle (else its last), on the day the step would go out, on each of the
 * step's channels. Nothing is sent and no opt-out token is made (the link shows an example).
 */
export async function previewReminder(deps: SettingsDeps, tenant: Tenant, input: unknown) {
  const body = parseInput(previewSchema, input);
  const charge = await deps.scheduledCharges.get(tenant, body.scheduledChargeId);
  if (!charge) throw new NotFoundError(SCHEDULED_CHARGE_NOT_FOUND);
  const context = await deps.reminderSettings.read(tenant, charge.customer.id);
  const schedule = resolveSchedule(context.seller?.schedule ?? null, context.customer?.schedule ?? null);
  const step = schedule.steps.find((s) => s.offsetDays === body.step);
  if (!step) throw new NotFoundError('Reminder step not found');
  const cycle = charge.cycles.find(isOpen) ?? charge.cycles[charge.cycles.length - 1];
  const [recipient, reminderCharge] = await Promise.all([
    recipientFor(deps, charge),
    cycleReminderCharge(deps, charge, cycle),
  ]);
  const day = previewDay(cycle.dueDate, step.offsetDays, deps.clock.now());
  const values = reminderValues(
    tenant,
    context,
    recipient,
    reminderCharge,
    day,
    `${deps.publicBaseUrl}${OPT_OUT_PATH}/exemplo`,
  );
  return {
    step,
    cycleNumber: cycle.number,
    sendDate: day,
    amountDue: centavosToReais(amountDueFor(reminderCharge, day).amountDue),
    ...renderedStep(step, values, recipient),
  };
}

/** A step rendered on each of its channels, as a preview shows it (nothing sent). */
export function renderedStep(
  step: ReminderStep,
  values: ReminderValues,
  recipient: Pick<ReminderRecipient, 'email' | 'phone'>,
) {
  const phone = mobileE164(recipient.phone);
  return {
    email: step.channels.includes('email') ? { to: recipient.email, ...renderEmail(step, values) } : null,
    whatsapp: step.channels.includes('whatsapp')
      ? {
          to: phone,
          template: step.whatsappTemplate,
          parameters: whatsappParameters(step, values),
          text: renderText(step, values),
        }
      : null,
    sms: step.channels.includes('sms') ? { to: phone, text: renderSms(step, values) } : null,
  };
}

/** The day a step of a charge due on `dueDate` goes out: its offset from the due date, today at the earliest. */
export function previewDay(dueDate: string, offsetDays: number, now: Date): string {
  const sendDay = addDays(dueDate, offsetDays);
  const today = saoPauloDate(now);
  return sendDay < today ? today : sendDay;
}
