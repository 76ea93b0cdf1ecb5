import { PAID, type Transaction } from '#shared/domain/transactions/transaction';
import { isConflict } from '#shared/errors';
import type { ScheduledChargeDeps } from './deps';
import { cancelIssued } from './issue';
import { applyCyclePaid, draftOf, finish, isOpen, saveCharge } from './state';

export type PaidNotificationDeps = Pick<
  ScheduledChargeDeps,
  'scheduledCharges' | 'transactions' | 'payments' | 'scheduler' | 'clock' | 'ids' | 'reporter'
>;

/** A concurrent change (a mark-paid, the due job) moved the charge: read it again, a few times. */
const MAX_TRIES = 3;

export type CyclePaidOutcome =
  | 'not_a_cycle'
  | 'paid'
  /** This transaction already paid the cycle (a repeated notification). */
  | 'already_paid'
  /** The cycle was closed before (paid another way, or cancelled): the money is kept and flagged. */
  | 'flagged'
  | 'already_flagged';

/**
 * What follows a paid transaction that collects a scheduled-charge cycle (a provider notification,
 * the sandbox's pay helper): the cycle is paid (`applyCyclePaid`), and its other issued pix or
 * boleto stops being payable. A repeat finds the cycle paid by this transaction and changes nothing;
 * a race with mark-paid loses or wins the charge's version, so one of them pays the cycle.
 *
 * A cycle already closed (marked paid by the seller, paid by its other method, or cancelled) keeps
 * its status: the payment stands (the money is the seller's to refund through the transactions API)
 * and the timeline gets one `paid` entry flagged `unmatched` with the cycle's status, without a webhook
 * (docs/decisions.md, "Scheduled charges (issue 13)").
 */
export async function payCycleOfTransaction(
  deps: PaidNotificationDeps,
  t: Transaction,
): Promise<CyclePaidOutcome> {
  const link = t.scheduledCharge;
  if (!link || !PAID.includes(t.status)) return 'not_a_cycle';
  for (let attempt = 1; ; attempt += 1) {
    const charge = await deps.scheduledCharges.get(t.tenant, link.chargeId);
    const cycle = charge?.cycles.find((c) => c.number === link.cycleNumber);
    if (!charge || !cycle) return 'not_a_cycle';
    if (cycle.paidTransactionId === t.id) return 'already_paid';
    try {
      if (isOpen(cycle) || cycle.status === 'failed') {
        const { next, changes } = applyCyclePaid(deps, charge, cycle.number, {
          by: 'transaction',
          transactionId: t.id,
          at: t.paidAt ?? deps.clock.now().toISOString(),
        });
        const saved = await saveCharge(deps, next, charge, changes);
        await cancelIssued(deps, saved, [saved.cycles.find((c) => c.number === cycle.number) ?? cycle]);
        return 'paid';
      }
      const timeline = await deps.scheduledCharges.timeline(charge.tenant, charge.id);
      if (timeline.some((e) => e.kind === 'paid' && e.data.transactionId === t.id && e.data.unmatched))
        return 'already_flagged';
      const draft = draftOf(charge);
      if (!cycle.transactionIds.includes(t.id)) {
        const updated = { ...cycle, transactionIds: [...cycle.transactionIds, t.id] };
        draft.charge = {
          ...charge,
          cycles: charge.cycles.map((c) => (c.number === cycle.number ? updated : c)),
        };
      }
      draft.timeline.push({
        kind: 'paid',
        cycleNumber: cycle.number,
        data: { transactionId: t.id, unmatched: true, cycleStatus: cycle.status, paidBy: cycle.paidBy },
      });
      const { next, changes } = finish(deps, charge, draft);
      await saveCharge(deps, next, charge, changes);
      return 'flagged';
    } catch (error) {
      if (!isConflict(error, 'changed') || attempt >= MAX_TRIES) throw error;
    }
  }
}
