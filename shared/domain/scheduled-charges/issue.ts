import { saoPauloDate } from '#shared/dates';
import { registerAhead } from '#shared/domain/attempts/registration';
import type { DomainEvent } from '#shared/domain/events/events';
import { jobId } from '#shared/domain/job-id';
import { PROVIDER_NOT_CONFIGURED } from '#shared/domain/payments/gateway';
import { providerReady } from '#shared/domain/payments/provider-ready';
import { EXPIRY_JOB, eventsOf, statusOf } from '#shared/domain/transactions/create';
import { canApply } from '#shared/domain/transactions/state-machine';
import { sellerNet, type Transaction } from '#shared/domain/transactions/transaction';
import { transition } from '#shared/domain/transactions/transitions';
import { isConflict, NotFoundError, ServiceUnavailableError } from '#shared/errors';
import { type Cycle, cycleItemName, cycleTerms, type NewTimelineEntry, type ScheduledCharge } from './charge';
import type { ScheduledChargeDeps } from './deps';
import { CYCLE_NOT_FOUND, draftOf, finish, issuedMethods, pixExpiryOf, putCycle, saveCharge } from './state';

/**
 * Issuance of a cycle's pix and boleto (docs/decisions.md, "Scheduled charges (issue 13)"):
 * made through the provider like a checkout sale's, stored as transactions that name the cycle
 * (`scheduledCharge`), written with the charge's save. Card is never issued ahead.
 */

export type IssueDeps = Pick<
  ScheduledChargeDeps,
  | 'scheduledCharges'
  | 'transactions'
  | 'attempts'
  | 'payments'
  | 'scheduler'
  | 'clock'
  | 'clockScope'
  | 'ids'
  | 'reporter'
>;

/**
 * New transactions one save carries: the transactions repository keeps per-tenant counters that
 * each new transaction updates, and one atomic write may not change a counter twice. A cycle
 * with pix and boleto is issued in two saves (the due job runs again at once while work is due).
 */
export const ISSUED_PER_SAVE = 1;

/** What issuing one cycle adds to a save. */
export interface Issued {
  cycle: Cycle;
  transactions: { record: Transaction; events: DomainEvent[] }[];
  timeline: NewTimelineEntry[];
}

/** The item a cycle's transaction sells: the charge's product, else an item named as `cycleItemName` says. */
function itemOf(charge: ScheduledCharge, cycle: Cycle): Transaction['product'] {
  if (charge.product) return { ...charge.product, value: cycle.amount };
  return { id: 0, uuid: '', name: cycleItemName(charge, cycle), value: cycle.amount };
}

/**
 * Issues the pix and boleto (as `methods` allow) a cycle does not have yet. Provider calls happen
 * here; nothing is stored until the caller saves. A boleto is due on the cycle's due date (today
 * when that has passed).
 */
export async function issueCycle(
  deps: IssueDeps,
  charge: ScheduledCharge,
  cycle: Cycle,
  limit = ISSUED_PER_SAVE,
): Promise<Issued> {
  const provider = deps.payments.forEnvironment(charge.tenant.environment);
  if (!(await providerReady(provider, charge.tenant)))
    throw new ServiceUnavailableError(PROVIDER_NOT_CONFIGURED, 'provider_not_configured');
  const now = deps.clock.now();
  const at = now.toISOString();
  const today = saoPauloDate(now);
  const item = itemOf(charge, cycle);
  let next = cycle;
  const transactions: Issued['transactions'] = [];
  const timeline: NewTimelineEntry[] = [];
  for (const method of issuedMethods(charge)) {
    if (next.issued[method] !== null) continue;
    if (transactions.length >= limit) break;
    const id = await deps.transactions.nextId();
    const dueDate = method === 'boleto' ? (cycle.dueDate < today ? today : cycle.dueDate) : undefined;
    const expiresAt = method === 'pix' ? pixExpiryOf(cycle.dueDate) : undefined;
    // Written ahead: a crash before the caller's save leaves an attempt whose reconciler cancels
    // the registration nobody wrote.
    const gatewayPayId = await registerAhead(deps, provider, charge.tenant, {
      transactionId: id,
      method,
      of: 'scheduledCharge',
      amountCentavos: cycle.amount,
    });
    const lateCharges = dueDate ? cycleTerms(charge, dueDate) : null;
    const result = await provider.createCharge({
      tenant: charge.tenant,
      transactionId: id,
      gatewayPayId,
      method,
      amountCentavos: cycle.amount,
      installments: 1,
      description: item.name,
      customer: {
        name: charge.customer.name,
        document: charge.customer.document,
        email: charge.customer.email,
      },
      dueDate,
      expiresAt,
      lateCharges,
    });
    const status = statusOf(result, method);
    const t: Transaction = {
      id,
      uuid: deps.ids.uuid(),
      tenant: charge.tenant,
      provider: provider.provider,
      gatewayPayId: result.gatewayPayId,
      status,
      paymentMethod: method,
      value: cycle.amount,
      valueSeller: sellerNet(method, cycle.amount, 1),
      installments: 1,
      // The charge keeps no phone: the transaction shows none rather than a stale one.
      customer: { ...charge.customer, phone: '' },
      product: item,
      pix: result.outcome === 'pending' ? (result.pix ?? null) : null,
      boleto: result.outcome === 'pending' ? (result.boleto ?? null) : null,
      card: null,
      failureCode: result.outcome === 'declined' || result.outcome === 'error' ? result.failureCode : null,
      failureReason:
        result.outcome === 'declined' || result.outcome === 'error' ? result.failureReason : null,
      refunds: [],
      refundedAmount: 0,
      paidAt: null,
      canceledAt: null,
      deadline: expiresAt ?? dueDate ?? null,
      metadata: {},
      checkoutSessionId: null,
      clientReferenceId: null,
      affiliate: null,
      recurring: null,
      scheduledCharge: { chargeId: charge.id, cycleNumber: cycle.number },
      ...(lateCharges ? { lateCharges } : {}),
      ...(charge.testClockId ? { testClockId: charge.testClockId } : {}),
      createdAt: at,
      updatedAt: at,
      version: 1,
    };
    transactions.push({ record: t, events: eventsOf(deps, t) });
    next = {
      ...next,
      issued: { ...next.issued, [method]: id },
      transactionIds: [...next.transactionIds, id],
      updatedAt: at,
    };
    timeline.push({ kind: 'issued', cycleNumber: cycle.number, data: { method, transactionId: id } });
  }
  return { cycle: next, transactions, timeline };
}

/**
 * After the save: each issued pix gets its expiry job (as a sale's pix); a failure is left to the
 * sweep. One on a test clock gets none: its charge's due job expires it (`expireIssuedPix`).
 */
export async function scheduleIssuedExpiries(
  deps: Pick<IssueDeps, 'scheduler' | 'reporter'>,
  issued: Transaction[],
): Promise<void> {
  for (const t of issued) {
    if (t.status !== 'pendingPix' || !t.deadline || t.testClockId) continue;
    await deps.scheduler
      .scheduleAt(`txn-expiry-${t.tenant.environment}-${t.id}`, new Date(t.deadline), {
        job: EXPIRY_JOB,
        id: jobId(t.tenant, t.id),
      })
      .catch((error) => deps.reporter.error('could not schedule a pix expiry', error, { id: t.id }));
  }
}

/** A lost save: the provider charges it made are made unpayable (nothing references them). */
export async function undoIssued(deps: Pick<IssueDeps, 'payments'>, issued: Transaction[]): Promise<void> {
  for (const t of issued) {
    await deps.payments
      .forEnvironment(t.tenant.environment)
      .cancel(t.gatewayPayId)
      .catch(() => undefined);
  }
}

/**
 * Makes the still-pending pix and boleto of cycles unpayable (a cancelled charge, a cycle paid by
 * another means): cancelled at the provider, then the transaction `cancel`. Best effort after the
 * charge's save; a failure is reported.
 */
export async function cancelIssued(
  deps: Pick<IssueDeps, 'transactions' | 'payments' | 'clock' | 'ids' | 'reporter'>,
  charge: ScheduledCharge,
  cycles: Cycle[],
): Promise<void> {
  const ids = cycles.flatMap((cycle) =>
    [cycle.issued.pix, cycle.issued.boleto].filter(
      (id): id is number => id !== null && id !== cycle.paidTransactionId,
    ),
  );
  // Read together, then cancelled one by one.
  const read = await Promise.allSettled(ids.map((id) => deps.transactions.get(charge.tenant, id)));
  for (const outcome of read) {
    try {
      if (outcome.status === 'rejected') throw outcome.reason;
      const t = outcome.value;
      if (!t || !canApply('cancel', t.status)) continue;
      await deps.payments.forEnvironment(t.tenant.environment).cancel(t.gatewayPayId);
      await transition(deps, t, 'cancel');
    } catch (error) {
      if (!isConflict(error))
        deps.reporter.error('could not cancel an issued pix or boleto', error, { id: charge.id });
    }
  }
}

/**
 * A charge on a test clock: the still-pending pix of `cycles`, whose expiry the clock passed, expire
 * (cancelled at the provider, then the transaction `expire`), as a pix's own expiry job does in real
 * time. A pix the provider no longer cancels is left to its notification. Best effort after the save.
 */
export async function expireIssuedPix(
  deps: Pick<IssueDeps, 'transactions' | 'payments' | 'clock' | 'ids' | 'reporter'>,
  charge: ScheduledCharge,
  cycles: Cycle[],
): Promise<void> {
  for (const cycle of cycles) {
    if (cycle.issued.pix === null) continue;
    try {
      const t = await deps.transactions.get(charge.tenant, cycle.issued.pix);
      if (!t || !canApply('expire', t.status)) continue;
      await deps.payments.forEnvironment(t.tenant.environment).cancel(t.gatewayPayId);
      await transition(deps, t, 'expire');
    } catch (error) {
      if (!isConflict(error)) deps.reporter.error('could not expire an issued pix', error, { id: charge.id });
    }
  }
}

/**
 * Issues cycle `cycleNumber`'s missing pix and boleto now (the pay link asks for them before the
 * issuance date): one save of the charge with the transactions. Answers the charge as written
 * (unchanged when nothing was missing or the cycle is not open).
 */
export async function issueNow(
  deps: IssueDeps,
  charge: ScheduledCharge,
  cycleNumber: number,
): Promise<ScheduledCharge> {
  let current = charge;
  for (;;) {
    const cycle = current.cycles.find((c) => c.number === cycleNumber);
    if (!cycle) throw new NotFoundError(CYCLE_NOT_FOUND);
    if (!['scheduled', 'due_today', 'overdue'].includes(cycle.status)) return current;
    const issued = await issueCycle(deps, current, cycle);
    if (issued.transactions.length === 0) return current;
    const draft = draftOf(current);
    putCycle(draft, issued.cycle);
    draft.timeline.push(...issued.timeline);
    const { next, changes } = finish(deps, current, draft, { transactions: issued.transactions });
    const records = issued.transactions.map((t) => t.record);
    try {
      current = await saveCharge(deps, next, current, changes);
    } catch (error) {
      await undoIssued(deps, records);
      throw error;
    }
    await scheduleIssuedExpiries(deps, records);
  }
}
