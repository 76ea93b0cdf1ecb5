import { saoPauloDate } from '#shared/dates';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, ValidationError } from '#shared/errors';
import { centavosToReais } from '#shared/money';
import type { Attempt, ChargeStatus, Cycle, ScheduledCharge } from './charge';
import { toScheduledChargeView } from './charge';
import type { ScheduledChargeDeps } from './deps';
import { cancelIssued } from './issue';
import { findCharge, toChargeDetail } from './queries';
import type { MarkPaidInput, PostponeInput, UpdateScheduledChargeInput } from './schemas';
import { applyCyclePaid, type Draft, draftOf, finish, isOpen, putCycle, saveCharge } from './state';

/**
 * The seller's actions on a charge (docs/state-machines.md, "Transitions"). Each is one conditional
 * save of the charge with its timeline, webhooks and the customer's overdue count; a state that
 * refuses the action is a 409 naming it.
 */

export type ActionDeps = Pick<
  ScheduledChargeDeps,
  'scheduledCharges' | 'transactions' | 'payments' | 'scheduler' | 'clock' | 'ids' | 'reporter'
>;

/** `Scheduled charge cannot be <action> in status <status>` (409). */
export const refused = (action: string, status: ChargeStatus) =>
  new ConflictError(`Scheduled charge cannot be ${action} in status ${status}`, 'invalid_transition');

const CANCELLED: readonly ChargeStatus[] = ['canceled', 'recurrence_canceled'];

/** Builds the change on the charge as read, saves it on its version, answers the view. */
async function act(
  deps: ActionDeps,
  tenant: Tenant,
  id: string,
  build: (charge: ScheduledCharge, draft: Draft) => void | Promise<void>,
  after?: (saved: ScheduledCharge, previous: ScheduledCharge) => Promise<void>,
) {
  const charge = await findCharge(deps, tenant, id);
  const draft = draftOf(charge);
  await build(charge, draft);
  // Setting what is already set (a flag, the same amount) writes nothing.
  if (draft.charge === charge && draft.timeline.length === 0) return toScheduledChargeView(charge);
  const { next, changes } = finish(deps, charge, draft);
  const saved = await saveCharge(deps, next, charge, changes);
  await after?.(saved, charge);
  return toScheduledChargeView(saved);
}

/** The open cycles of a charge, earliest due first. */
const openCycles = (c: ScheduledCharge) =>
  c.cycles.filter(isOpen).sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.number - b.number);

/**
 * POST /{id}/mark-paid: a payment made outside the service. One-time from `due_today`/`overdue`
 * (no cycleNumber); a recurring cycle from `due_today`/`overdue`/`failed` (cycleNumber required).
 * No transaction is created; an attempt `manual_mark_paid` is logged; the cycle's issued pix and
 * boleto stop being payable. Answers the detail: the parent charge with the cycle it paid and its
 * payments (spec: "no Transaction created, so the transactions array stays empty").
 */
export async function markPaid(
  deps: ActionDeps & Pick<ScheduledChargeDeps, 'publicBaseUrl'>,
  tenant: Tenant,
  id: string,
  input: MarkPaidInput,
) {
  const now = deps.clock.now();
  if (input.paymentDate > saoPauloDate(now))
    throw new ValidationError(['paymentDate must be today or earlier (America/Sao_Paulo)']);
  const charge = await findCharge(deps, tenant, id);
  let cycleNumber: number;
  if (charge.type === 'one_time') {
    if (input.cycleNumber !== undefined)
      throw new ValidationError(['cycleNumber is not allowed for a one_time charge']);
    if (charge.status !== 'due_today' && charge.status !== 'overdue')
      throw refused('marked paid', charge.status);
    cycleNumber = 1;
  } else {
    if (input.cycleNumber === undefined)
      throw new ValidationError(['cycleNumber is required for a recurring charge']);
    cycleNumber = input.cycleNumber;
  }
  const at = now.toISOString();
  const { next, changes } = applyCyclePaid(deps, charge, cycleNumber, {
    by: 'manual',
    paymentDate: input.paymentDate,
    externalReference: input.externalReference ?? null,
    at,
  });
  const cycle = charge.cycles.find((c) => c.number === cycleNumber) as Cycle;
  const attempt: Attempt = {
    id: await deps.scheduledCharges.nextAttemptId(),
    chargeId: charge.id,
    cycleNumber,
    attemptNumber: cycle.attemptCount + 1,
    attemptedAt: at,
    source: 'manual_mark_paid',
    paymentMethod: 'manual',
    paymentMethodId: null,
    cardLast4: null,
    cardBrand: null,
    status: 'succeeded',
    failureCode: null,
    failureReason: null,
    gatewayFailureCode: null,
    gatewayChargeId: null,
    transactionId: null,
  };
  const saved = await saveCharge(deps, next, charge, { ...changes, attempts: [attempt] });
  await cancelIssued(deps, saved, [cycle]);
  return toChargeDetail(deps, saved);
}

/**
 * POST /{id}/postpone: the earliest open cycle is due on `newDueDate` (today or later): `scheduled`
 * when later than today, `due_today` when today; an overdue cycle leaves the customer's overdue
 * count; the reminders start again; its issued pix and boleto are cancelled and issued again for
 * the new date. Allowed from scheduled, due_today, overdue and paused.
 */
export function postpone(deps: ActionDeps, tenant: Tenant, id: string, input: PostponeInput) {
  const today = saoPauloDate(deps.clock.now());
  if (input.newDueDate < today)
    throw new ValidationError(['newDueDate must be today or later (America/Sao_Paulo)']);
  let moved: Cycle | null = null;
  return act(
    deps,
    tenant,
    id,
    (charge, draft) => {
      if (!['scheduled', 'due_today', 'overdue', 'paused'].includes(charge.status))
        throw refused('postponed', charge.status);
      const cycle = openCycles(charge)[0];
      if (!cycle) throw refused('postponed', charge.status);
      moved = cycle;
      const at = deps.clock.now().toISOString();
      putCycle(draft, {
        ...cycle,
        dueDate: input.newDueDate,
        status: input.newDueDate > today ? 'scheduled' : 'due_today',
        remindersSent: [],
        issued: { pix: null, boleto: null },
        updatedAt: at,
      });
      if (cycle.status === 'overdue') draft.customerOverdueDelta -= 1;
      const data = { from: cycle.dueDate, to: input.newDueDate, reason: input.reason ?? null };
      draft.timeline.push({ kind: 'postponed', cycleNumber: cycle.number, data });
      draft.webhooks.push({ name: 'scheduled_charge.postponed', extra: { cycleNumber: cycle.number } });
    },
    async (saved) => {
      if (moved) await cancelIssued(deps, saved, [moved]);
    },
  );
}

/**
 * POST /{id}/cancel: a one-time charge `canceled`, a series `recurrence_canceled`; its open cycles
 * `canceled` (overdue ones leave the customer's count), their issued pix and boleto cancelled.
 */
export function cancelCharge(deps: ActionDeps, tenant: Tenant, id: string, input: { reason?: string }) {
  let closed: Cycle[] = [];
  return act(
    deps,
    tenant,
    id,
    (charge, draft) => {
      if (CANCELLED.includes(charge.status) || charge.status === 'paid')
        throw refused('canceled', charge.status);
      const at = deps.clock.now().toISOString();
      closed = charge.cycles.filter(isOpen);
      for (const cycle of closed) {
        putCycle(draft, { ...cycle, status: 'canceled', nextRetryAt: null, claim: null, updatedAt: at });
        if (cycle.status === 'overdue') draft.customerOverdueDelta -= 1;
      }
      draft.charge = { ...draft.charge, canceledAt: at, pausedAt: null, cancelAtPeriodEnd: false };
      const kind = charge.type === 'one_time' ? 'canceled' : 'recurrence_canceled';
      draft.timeline.push({ kind, cycleNumber: null, data: { reason: input.reason ?? null } });
      draft.webhooks.push({ name: `scheduled_charge.${kind}` });
    },
    (saved) => cancelIssued(deps, saved, closed),
  );
}

/** POST/DELETE /{id}/cancel-at-period-end: a series only; setting or clearing it again changes nothing. */
export function setCancelAtPeriodEnd(deps: ActionDeps, tenant: Tenant, id: string, on: boolean) {
  return act(deps, tenant, id, (charge, draft) => {
    const action = on ? 'canceled at period end' : 'kept after period end';
    if (charge.type !== 'recurring' || CANCELLED.includes(charge.status) || charge.status === 'paid')
      throw refused(action, charge.status);
    if (charge.cancelAtPeriodEnd === on) return;
    draft.charge = { ...draft.charge, cancelAtPeriodEnd: on };
    const kind = on ? 'cancel_at_period_end_set' : 'cancel_at_period_end_cleared';
    draft.timeline.push({ kind, cycleNumber: null, data: {} });
    draft.webhooks.push({ name: `scheduled_charge.${kind}` });
  });
}

/** POST /{id}/pause: no job changes a cycle, no card is charged, no reminder goes out until resumed. */
export function pauseCharge(deps: ActionDeps, tenant: Tenant, id: string) {
  return act(deps, tenant, id, (charge, draft) => {
    if (CANCELLED.includes(charge.status) || charge.status === 'paid' || charge.status === 'paused')
      throw refused('paused', charge.status);
    const at = deps.clock.now().toISOString();
    draft.charge = { ...draft.charge, pausedAt: at };
    draft.timeline.push({ kind: 'paused', cycleNumber: null, data: { pausedAt: at } });
    draft.webhooks.push({ name: 'scheduled_charge.updated' });
  });
}

/** POST /{id}/resume: status derived again; what fell due meanwhile runs at the next job run (a minute on). */
export function resumeCharge(deps: ActionDeps, tenant: Tenant, id: string) {
  return act(deps, tenant, id, (charge, draft) => {
    if (charge.status !== 'paused') throw refused('resumed', charge.status);
    draft.charge = { ...draft.charge, pausedAt: null };
    draft.timeline.push({ kind: 'resumed', cycleNumber: null, data: { pausedAt: charge.pausedAt } });
    draft.webhooks.push({ name: 'scheduled_charge.updated' });
  });
}

/** PATCH /{id}: cycles created from now on use the new amount; open cycles keep theirs. */
export function updateCharge(
  deps: ActionDeps,
  tenant: Tenant,
  id: string,
  input: UpdateScheduledChargeInput,
) {
  return act(deps, tenant, id, (charge, draft) => {
    if (CANCELLED.includes(charge.status)) throw refused('updated', charge.status);
    const changed: Record<string, unknown> = {};
    const patch: Partial<ScheduledCharge> = {};
    if (input.amount !== undefined && input.amount !== charge.amount) {
      patch.amount = input.amount;
      changed.amount = { from: centavosToReais(charge.amount), to: centavosToReais(input.amount) };
    }
    if (input.description !== undefined && input.description !== charge.description) {
      patch.description = input.description;
      changed.description = { from: charge.description, to: input.description };
    }
    if (Object.keys(patch).length === 0) return;
    draft.charge = { ...draft.charge, ...patch };
    draft.timeline.push({ kind: 'updated', cycleNumber: null, data: changed });
    draft.webhooks.push({ name: 'scheduled_charge.updated' });
  });
}
