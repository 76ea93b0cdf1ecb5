import { SCHEDULED_CHARGE_NOT_FOUND } from '#shared/domain/scheduled-charges/not-found';
import {
  scheduledChargeDetailResponse,
  scheduledChargeListResponse,
  scheduledChargeResponse,
} from '#shared/domain/scheduled-charges/responses';
import {
  cancelSchema,
  createScheduledChargeSchema,
  listScheduledChargesQuerySchema,
  markPaidSchema,
  postponeSchema,
  scheduledChargePathSchema,
  updateScheduledChargeSchema,
} from '#shared/domain/scheduled-charges/schemas';
import { type AuthScheme, defineRoutes } from '#shared/http/types';
import { reminderRoutes } from './reminder-routes';
import { emptyActionBody } from './shapes';

const auth: AuthScheme[] = ['apiKey', 'jwt'];
const base = '/api/v1/scheduled-charges';
const charge = `${base}/{id}`;
/** A charge by its `sch_…` id; another seller's or environment's answers like a missing one. */
const byCharge = {
  auth,
  notFound: SCHEDULED_CHARGE_NOT_FOUND,
  request: { path: scheduledChargePathSchema },
} as const;
const STATE_RULE =
  '409 `Scheduled charge cannot be <action> in status <status>` when its status refuses the action (docs/decisions.md, "Scheduled charges (issue 13)").';
const noBody = emptyActionBody;

const postponeRoute = {
  ...byCharge,
  method: 'POST',
  summary: "Move the earliest open cycle's due date (today or later, Sao Paulo)",
  description:
    'Allowed from scheduled, due_today, overdue and paused. The cycle is `scheduled` (or `due_today` when ' +
    'newDueDate is today), leaves the overdue count, its reminders start again and its pix and boleto are ' +
    'issued again for the new date. Timeline `postponed` {from, to, reason}; webhook scheduled_charge.postponed. ' +
    `400 \`newDueDate must be today or later (America/Sao_Paulo)\`. ${STATE_RULE}`,
  request: {
    path: scheduledChargePathSchema,
    body: postponeSchema,
  },
  errors: [409],
  responses: { 200: scheduledChargeResponse },
} as const;

export const scheduledChargeRoutes = defineRoutes('scheduled-charges', [
  {
    operationId: 'createScheduledCharge',
    method: 'POST',
    path: base,
    auth,
    idempotent: true,
    summary: 'Schedule a one-time charge or a recurring series for a customer',
    description:
      '`customerId` (numeric), `amount` in Reais (at least 5.00), `dueDate` today or later (Sao Paulo), ' +
      '`methods` (pix, boleto, card), `type` one_time or recurring with `recurrence` {interval week/month/year, ' +
      'intervalCount 1..12, endAfterCycles 2..360 or endDate}, optional `productId` (uuid), `description`, ' +
      '`trialDays` (recurring, methods [card]). A pix or boleto due within 5 days is issued at once. ' +
      'Webhook scheduled_charge.created (+ customer.trial_started). 404 `Customer not found`, ' +
      '`Product not found`. Supports X-Idempotency-Key.',
    request: { body: createScheduledChargeSchema },
    errors: [404],
    responses: { 201: scheduledChargeResponse },
  },
  {
    operationId: 'listScheduledCharges',
    method: 'GET',
    path: base,
    auth,
    summary: 'List scheduled charges, newest first',
    description:
      '`status` repeatable, `customerId`, `type`, `dueDateFrom` and `dueDateTo` (inclusive, YYYY-MM-DD), ' +
      '`search` (customer name prefix, e-mail or document), `page`, `limit` (1..100, default 20).',
    request: { query: listScheduledChargesQuerySchema },
    responses: { 200: scheduledChargeListResponse },
  },
  {
    ...byCharge,
    operationId: 'getScheduledCharge',
    method: 'GET',
    path: charge,
    summary: 'Retrieve a scheduled charge with its cycles, transactions and timeline',
    responses: { 200: scheduledChargeDetailResponse },
  },
  {
    ...byCharge,
    operationId: 'markScheduledChargePaid',
    method: 'POST',
    path: `${charge}/mark-paid`,
    summary: 'Register a payment made outside the service',
    description:
      '`paymentDate` today or earlier (Sao Paulo), `externalReference` up to 255 characters, `cycleNumber` ' +
      'required for a recurring charge and refused for a one_time one. One-time from due_today or overdue; ' +
      'a recurring cycle from due_today, overdue or failed (409 `Cycle <n> cannot be marked paid in status ' +
      "<status>`; 404 `Cycle not found`). No transaction is created: the answer is the charge's detail, whose " +
      "`transactions` (its payments) gain nothing; the cycle's issued pix and boleto are cancelled (under " +
      '`cycles[].issued`). Timeline `manually_marked_paid`; webhook ' +
      `scheduled_charge.paid with seriesId and cycleNumber. ${STATE_RULE}`,
    request: {
      path: scheduledChargePathSchema,
      body: markPaidSchema,
    },
    errors: [409],
    responses: { 200: scheduledChargeDetailResponse },
  },
  { ...postponeRoute, operationId: 'postponeScheduledCharge', path: `${charge}/postpone` },
  {
    ...postponeRoute,
    operationId: 'postponeScheduledChargeUnversioned',
    path: '/api/scheduled-charges/{id}/postpone',
    summary: 'Postpone a scheduled charge (unversioned path, same as /api/v1)',
  },
  {
    ...byCharge,
    operationId: 'cancelScheduledCharge',
    method: 'POST',
    path: `${charge}/cancel`,
    summary: 'Cancel a one-time charge, or a recurrence',
    description:
      'One-time: `canceled`; recurring: `recurrence_canceled`. Open cycles are canceled and their pix and ' +
      `boleto made unpayable. Webhook scheduled_charge.canceled or .recurrence_canceled. ${STATE_RULE}`,
    request: {
      path: scheduledChargePathSchema,
      body: cancelSchema,
      optionalBody: true,
    },
    errors: [409],
    responses: { 200: scheduledChargeResponse },
  },
  {
    ...byCharge,
    operationId: 'setScheduledChargeCancelAtPeriodEnd',
    method: 'POST',
    path: `${charge}/cancel-at-period-end`,
    summary: 'End a series after its current cycle',
    description:
      'No cycle after the current one is created; once no cycle is open the charge is `recurrence_canceled`. ' +
      `Recurring only. Webhook scheduled_charge.cancel_at_period_end_set. ${STATE_RULE}`,
    request: { path: scheduledChargePathSchema, body: noBody, optionalBody: true },
    errors: [409],
    responses: { 200: scheduledChargeResponse },
  },
  {
    ...byCharge,
    operationId: 'clearScheduledChargeCancelAtPeriodEnd',
    method: 'DELETE',
    path: `${charge}/cancel-at-period-end`,
    summary: 'Keep a series going after its current cycle',
    description: `Webhook scheduled_charge.cancel_at_period_end_cleared. ${STATE_RULE}`,
    errors: [409],
    responses: { 200: scheduledChargeResponse },
  },
  {
    ...byCharge,
    operationId: 'pauseScheduledCharge',
    method: 'POST',
    path: `${charge}/pause`,
    summary: 'Pause collection: no status change, card charge or reminder until resumed',
    description: `Webhook scheduled_charge.updated. ${STATE_RULE}`,
    request: { path: scheduledChargePathSchema, body: noBody, optionalBody: true },
    errors: [409],
    responses: { 200: scheduledChargeResponse },
  },
  {
    ...byCharge,
    operationId: 'resumeScheduledCharge',
    method: 'POST',
    path: `${charge}/resume`,
    summary: 'Resume collection: what fell due meanwhile runs within a minute',
    description: `Webhook scheduled_charge.updated. ${STATE_RULE}`,
    request: { path: scheduledChargePathSchema, body: noBody, optionalBody: true },
    errors: [409],
    responses: { 200: scheduledChargeResponse },
  },
  {
    ...byCharge,
    operationId: 'updateScheduledCharge',
    method: 'PATCH',
    path: charge,
    summary: 'Change the amount or description of future cycles',
    description: `Open cycles keep their amount. Webhook scheduled_charge.updated. ${STATE_RULE}`,
    request: {
      path: scheduledChargePathSchema,
      body: updateScheduledChargeSchema,
    },
    errors: [409],
    responses: { 200: scheduledChargeResponse },
  },
  ...reminderRoutes,
]);
