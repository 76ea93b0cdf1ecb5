import { saoPauloDate } from '#shared/dates';
import {
  cardOf,
  chargeSavedCard,
  nextRetryAt,
  type SavedCardCharge,
  savedCardIdempotencyKey,
} from '#shared/domain/payments/saved-card';
import type { ScheduledChargeChanges } from '#shared/domain/ports';
import { isConflict } from '#shared/errors';
import {
  answerOf,
  attemptRecord,
  type CardAnswer,
  cardTransaction,
  notChargedAnswer,
  transactionChange,
} from './attempts';
import {
  type AttemptSource,
  type Cycle,
  type CycleClaim,
  cycleItemName,
  type ScheduledCharge,
} from './charge';
import type { ScheduledChargeDeps } from './deps';
import {
  applyCyclePaid,
  chargeEvent,
  draftOf,
  finish,
  inTrial,
  isOpen,
  nextDueAt,
  putCycle,
  saveCharge,
} from './state';
import { lapse, trialEnd, trialOutcome } from './trial';

/**
 * Card collection of a charge's cycles (the due job calls it after applying the lifecycle): the
 * silent charge of the saved card at a cycle's due date, its retries on the saved-card module's
 * schedule, and the charge that converts a trial. Each charge is claimed first (a conditional
 * write of the cycle's `claim`), then the provider is called with the claim's idempotency key,
 * then the outcome is written in one save; a rerun that finds the claim repeats the same call.
 */

type Why = { source: AttemptSource; trial: boolean };

/** Why cycle `c` has a card charge due now, or null. */
function dueCharge(charge: ScheduledCharge, c: Cycle, now: Date): Why | null {
  const trial = trialEnd(charge, c, now);
  if (c.claim) return c.claim.source === 'cycle1_interactive' ? null : { source: c.claim.source, trial };
  if (!isOpen(c)) return null;
  if (c.nextRetryAt !== null)
    return Date.parse(c.nextRetryAt) <= now.getTime() ? { source: 'card_retry', trial } : null;
  if (c.attemptCount > 0 || charge.paymentMethod === null || inTrial(charge, now)) return null;
  return trial || c.dueDate <= saoPauloDate(now) ? { source: 'silent_charge', trial } : null;
}

/**
 * Charges every open card cycle whose silent charge or retry is due, and ends a trial (converted
 * by the charge, or lapsed when there is no card to charge). Returns the charge as last written.
 */
export async function collectDueCards(
  deps: ScheduledChargeDeps,
  charge: ScheduledCharge,
): Promise<ScheduledCharge> {
  if (charge.canceledAt !== null || charge.pausedAt !== null || !charge.methods.includes('card'))
    return charge;
  let current = charge;
  for (const { number } of charge.cycles) {
    const now = deps.clock.now();
    const c = current.cycles.find((x) => x.number === number);
    if (!c) continue;
    const why = dueCharge(current, c, now);
    if (why) current = await collectCycle(deps, current, number, why);
    else current = await trialOutcome(deps, current, c, now);
  }
  return current;
}

/** The claim of the next attempt, written before the provider is called. */
async function claim(
  deps: ScheduledChargeDeps,
  charge: ScheduledCharge,
  number: number,
  source: AttemptSource,
) {
  const cycle = charge.cycles.find((c) => c.number === number) as Cycle;
  if (cycle.claim) return charge;
  const now = deps.clock.now();
  const transactionId = await deps.transactions.nextId();
  const attemptNumber = cycle.attemptCount + 1;
  const fresh: CycleClaim = {
    attemptNumber,
    transactionId,
    idempotencyKey: savedCardIdempotencyKey(charge.id, number, attemptNumber, transactionId),
    source,
    claimedAt: now.toISOString(),
  };
  const next: ScheduledCharge = {
    ...charge,
    cycles: charge.cycles.map((c) => (c.number === number ? { ...c, claim: fresh } : c)),
    updatedAt: now.toISOString(),
    version: charge.version + 1,
  };
  // The claim is due work: the heartbeat's sweep finds a run that stopped between claim and finish.
  next.dueAt = nextDueAt(next, now);
  await deps.scheduledCharges.save(next, charge, { events: [], timeline: [] });
  return next;
}

/** The saved-card module's answer as the attempt's, with its transaction. */
function answered(
  deps: ScheduledChargeDeps,
  charge: ScheduledCharge,
  cycle: Cycle,
  charged: SavedCardCharge,
): CardAnswer {
  const pmId = charged.paymentMethod?.id ?? charge.paymentMethod?.id ?? null;
  if (!charged.charged) {
    const card =
      cardOf(charged) ??
      (charge.paymentMethod
        ? { brand: charge.paymentMethod.cardBrand, last4: charge.paymentMethod.cardLast4 }
        : null);
    return notChargedAnswer(charged.outcome, charged.failureCode, charged.failureReason, card, pmId);
  }
  const claimed = cycle.claim as CycleClaim;
  const at = deps.clock.now().toISOString();
  const t = cardTransaction(
    deps,
    charge,
    cycle,
    claimed.transactionId,
    charged.provider.provider,
    charged.result,
    at,
  );
  return answerOf(t, charged.result, pmId);
}

/**
 * The charge after the claimed attempt: paid (the cycle, with the trial converted), or the next
 * retry, or the cycle `failed` after its last attempt (with the trial lapsed at its first failure).
 */
export function applyAttempt(
  deps: ScheduledChargeDeps,
  current: ScheduledCharge,
  number: number,
  answer: CardAnswer,
  attemptId: number,
  trial: boolean,
): { next: ScheduledCharge; changes: ScheduledChargeChanges } {
  const now = deps.clock.now();
  const at = now.toISOString();
  const cycle = current.cycles.find((c) => c.number === number) as Cycle;
  const claimed = cycle.claim as CycleClaim;
  const payable = isOpen(cycle) || cycle.status === 'failed';
  const status = answer.status === 'succeeded' && !payable ? 'canceled' : answer.status;
  const attempt = attemptRecord(
    attemptId,
    current.id,
    number,
    claimed.attemptNumber,
    claimed.source,
    answer,
    at,
    status,
  );
  const extra = { attempts: [attempt], transactions: transactionChange(deps, answer) };
  const tried: Cycle = { ...cycle, claim: null, attemptCount: claimed.attemptNumber, updatedAt: at };
  if (status === 'succeeded') {
    const base = { ...current, cycles: current.cycles.map((c) => (c.number === number ? tried : c)) };
    const txId = answer.transaction?.id as number;
    const { next, changes } = applyCyclePaid(deps, base, number, {
      by: 'transaction',
      transactionId: txId,
      at,
    });
    if (trial) {
      changes.timeline.push({
        kind: 'trial_converted',
        cycleNumber: number,
        data: { trialEndsOn: current.trialEndsOn },
      });
      changes.events.push(chargeEvent(deps, next, 'customer.trial_converted', { cycleNumber: number }));
    }
    return { next, changes: { ...changes, ...extra } };
  }
  const draft = draftOf(current);
  if (status === 'canceled') {
    // The cycle closed while the card was at the provider: the money goes back (collectCycle refunds)
    // and no transaction is kept for it.
    putCycle(draft, tried);
    return finish(deps, current, draft, {
      attempts: [{ ...attempt, transactionId: null }],
      transactions: [],
    });
  }
  const outcome = answer.status === 'errored' ? 'error' : 'declined';
  const retryAt = nextRetryAt(outcome, claimed.attemptNumber, now);
  const failure = {
    failureCode: answer.failureCode,
    failureReason: answer.failureReason,
    gatewayFailureCode: answer.gatewayFailureCode,
  };
  draft.timeline.push({
    kind: 'payment_failed',
    cycleNumber: number,
    data: { attemptNumber: claimed.attemptNumber, source: claimed.source, ...failure, nextRetryAt: retryAt },
  });
  if (trial && claimed.attemptNumber === 1) lapse(draft, number, current.trialEndsOn, 'payment_failed');
  if (retryAt !== null) {
    putCycle(draft, { ...tried, ...failure, nextRetryAt: retryAt });
  } else {
    putCycle(draft, { ...tried, ...failure, status: 'failed', nextRetryAt: null });
    if (cycle.status === 'overdue') draft.customerOverdueDelta -= 1;
    draft.timeline.push({ kind: 'cycle_failed', cycleNumber: number, data: failure });
    draft.webhooks.push({
      name: 'scheduled_charge.cycle_failed',
      extra: { seriesId: current.id, cycleNumber: number, ...failure },
    });
  }
  return finish(deps, current, draft, extra);
}

/** Another write since the claim (a seller's change, the lifecycle) is applied on the fresh state, a few times at most. */
const FINISH_TRIES = 3;

/**
 * Claim → charge → one save of the outcome. When the charge changed meanwhile: a fresh state
 * still holding this claim gets the outcome again; one that no longer does was finished by a
 * concurrent run (its transaction is stored). An approved charge nobody records is refunded.
 */
async function collectCycle(deps: ScheduledChargeDeps, charge: ScheduledCharge, number: number, why: Why) {
  const claimed = await claim(deps, charge, number, why.source);
  const cycle = claimed.cycles.find((c) => c.number === number) as Cycle;
  const key = (cycle.claim as CycleClaim).idempotencyKey;
  const charged = await chargeSavedCard(deps, {
    tenant: claimed.tenant,
    customer: claimed.customer,
    paymentMethodId: claimed.paymentMethod?.id ?? null,
    transactionId: (cycle.claim as CycleClaim).transactionId,
    amountCentavos: cycle.amount,
    description: cycleItemName(claimed, cycle),
    idempotencyKey: key,
    missingCardReason: 'The scheduled charge has no saved card to charge.',
  });
  const answer = answered(deps, claimed, cycle, charged);
  const attemptId = await deps.scheduledCharges.nextAttemptId();
  let current = claimed;
  for (let tries = 1; ; tries++) {
    const { next, changes } = applyAttempt(deps, current, number, answer, attemptId, why.trial);
    try {
      const saved = await saveCharge(deps, next, current, changes);
      if (changes.attempts?.[0]?.status === 'canceled') await refund(deps, claimed, answer);
      return saved;
    } catch (error) {
      if (!isConflict(error, 'changed') && !isConflict(error, 'already_exists')) throw error;
      const fresh = await deps.scheduledCharges.get(claimed.tenant, claimed.id);
      const stillOurs = fresh?.cycles.find((c) => c.number === number)?.claim?.idempotencyKey === key;
      if (fresh && stillOurs && tries < FINISH_TRIES) {
        current = fresh;
        continue;
      }
      // Still ours after the tries: the claim stays, and a rerun repeats the call and records it.
      if (fresh && stillOurs) throw error;
      if (!answer.transaction || !(await deps.transactions.get(claimed.tenant, answer.transaction.id)))
        await refund(deps, claimed, answer);
      return fresh ?? current;
    }
  }
}

/**
 * Gives back an approved charge that pays no cycle, under a reference of its charge (a rerun gives
 * it back once); a failed refund is left for the seller to see.
 */
async function refund(deps: ScheduledChargeDeps, charge: ScheduledCharge, answer: CardAnswer) {
  if (answer.status !== 'succeeded' || !answer.transaction) return;
  const provider = deps.payments.forEnvironment(charge.tenant.environment);
  const { gatewayPayId, value } = answer.transaction;
  await provider.refund(gatewayPayId, value, `re_giveback_${gatewayPayId}`).catch(() => undefined);
}
