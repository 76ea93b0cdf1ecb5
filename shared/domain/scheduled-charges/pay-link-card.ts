import {
  attemptIdOf,
  type CycleAttempt,
  pendingAttempt,
  reconcileDueAt,
  reconcileJobOf,
} from '#shared/domain/attempts/attempt';
import { type CardClient, type CardGuardDeps, guardCardAttempt } from '#shared/domain/card-testing/guard';
import { scheduleAtDue } from '#shared/domain/due-schedule';
import { jobId } from '#shared/domain/job-id';
import type { PaymentMethodView } from '#shared/domain/payment-methods/payment-method';
import { saveCard } from '#shared/domain/payment-methods/save-card';
import { luhnValid } from '#shared/domain/payments/cards';
import type { CardInput, ChargeResult } from '#shared/domain/payments/gateway';
import type { PaymentProvider, ScheduledChargeChanges } from '#shared/domain/ports';
import { buyerIpOf, registeredHolderContact } from '#shared/domain/transactions/card-holder';
import { AppError, ConflictError, isConflict, ValidationError } from '#shared/errors';
import { answerOf, attemptRecord, type CardAnswer, cardTransaction, transactionChange } from './attempts';
import { type Cycle, cycleItemName, type ScheduledCharge } from './charge';
import type { ScheduledChargeDeps } from './deps';
import { cardModeOf, failureOf, findByToken, providerOf, refusedMode } from './pay-link';
import { applyCyclePaid, chargeEvent, draftOf, finish, isOpen, putCycle, saveCharge } from './state';

/**
 * The card form of a pay link: during a trial the card is verified and kept without a charge;
 * otherwise the cycle is charged with the buyer present (attempt `cycle1_interactive`), and a
 * recurring series keeps the approved card for its next cycles (`payment_method_attached`).
 */

export interface PayLinkCardOutcome {
  status: 'paid' | 'card_saved' | 'declined' | 'failed';
  card: { brand: string; last4: string } | null;
  failure: { code: string; message: string } | null;
}

/** A few tries when the due job or the seller wrote the charge between the read and the save. */
const TRIES = 3;

/** The link is public: every card goes through the card-testing guard before the provider sees it. */
export async function payLinkByCard(
  deps: ScheduledChargeDeps & CardGuardDeps,
  payToken: string,
  input: { card: CardInput },
  client: CardClient,
): Promise<PayLinkCardOutcome> {
  const { charge, cycle } = await findByToken(deps, payToken);
  const mode = cardModeOf(charge, cycle, deps.clock.now());
  if (!mode) throw refusedMode(charge, cycle);
  if (!luhnValid(input.card.number)) throw new ValidationError(['card.number is not a valid card number']);
  return guardCardAttempt(
    deps,
    { tenant: charge.tenant, on: { scope: 'charge', id: charge.id }, card: input.card, client },
    () =>
      mode === 'save' ? keepForTrial(deps, charge, input.card) : payCycle(deps, charge, cycle, input.card),
    (outcome) => outcome.status === 'declined',
  );
}

const customerOf = (c: ScheduledCharge) => ({
  name: c.customer.name,
  document: c.customer.document,
  email: c.customer.email,
});

/** The approved card as a payment method of the charge's customer (null when it could not be kept: reported). */
async function keep(
  deps: ScheduledChargeDeps,
  charge: ScheduledCharge,
  provider: string,
  result: ChargeResult,
) {
  if (result.outcome !== 'approved' || !result.savedCard) return null;
  return saveCard(deps, {
    tenant: charge.tenant,
    // The charge lives on its customer's clock, if any (its customer's card then too).
    customer: { id: charge.customer.id, uuid: charge.customer.uuid, testClockId: charge.testClockId ?? null },
    provider,
    savedCard: result.savedCard,
  }).catch((error: unknown) => {
    deps.reporter.error('could not save the card', error, { id: charge.id });
    return null;
  });
}

/** The card saved on the charge (when it has none): timeline `payment_method_attached` and its webhook. */
function attach(draftCharge: ScheduledCharge, pm: PaymentMethodView | null, cycleNumber: number) {
  if (!pm || draftCharge.paymentMethod !== null) return null;
  return {
    charge: { ...draftCharge, paymentMethod: { id: pm.id, cardLast4: pm.last4, cardBrand: pm.brand } },
    entry: {
      kind: 'payment_method_attached' as const,
      cycleNumber,
      data: { paymentMethodId: pm.id, cardLast4: pm.last4, cardBrand: pm.brand },
    },
  };
}

/** Writes `build(fresh)` on the charge read again after a concurrent write, a few times at most. */
async function saveWithRetry(
  deps: ScheduledChargeDeps,
  first: ScheduledCharge,
  build: (current: ScheduledCharge) => { next: ScheduledCharge; changes: ScheduledChargeChanges },
): Promise<ScheduledCharge> {
  let current = first;
  for (let tries = 1; ; tries++) {
    const { next, changes } = build(current);
    try {
      return await saveCharge(deps, next, current, changes);
    } catch (error) {
      if (!isConflict(error, 'changed') || tries >= TRIES) throw error;
      const fresh = await deps.scheduledCharges.get(first.tenant, first.id);
      if (!fresh) throw error;
      current = fresh;
    }
  }
}

/** A trial: the card is verified and kept (the provider's tokenizer), nothing is charged. */
async function keepForTrial(
  deps: ScheduledChargeDeps,
  charge: ScheduledCharge,
  card: CardInput,
): Promise<PayLinkCardOutcome> {
  const provider = await providerOf(deps, charge);
  const tokenized = await provider.tokenizeCard({
    tenant: charge.tenant,
    customer: {
      ...customerOf(charge),
      ...(await registeredHolderContact(deps, charge.tenant, charge.customer.uuid)),
      ...buyerIpOf(deps),
    },
    card,
  });
  if (tokenized.outcome === 'declined')
    return { status: 'declined', card: null, failure: failureOf(tokenized.failureCode) };
  const pm = await saveCard(deps, {
    tenant: charge.tenant,
    // The charge lives on its customer's clock, if any (its customer's card then too).
    customer: { id: charge.customer.id, uuid: charge.customer.uuid, testClockId: charge.testClockId ?? null },
    provider: provider.provider,
    savedCard: tokenized.savedCard,
  });
  await saveWithRetry(deps, charge, (current) => {
    const attached = attach(current, pm, 1);
    const draft = draftOf(attached?.charge ?? current);
    if (attached) {
      draft.timeline.push(attached.entry);
      draft.webhooks.push({ name: 'scheduled_charge.payment_method_attached', extra: { cycleNumber: 1 } });
    }
    return finish(deps, current, draft);
  });
  return { status: 'card_saved', card: { brand: pm.brand, last4: pm.last4 }, failure: null };
}

/**
 * The cycle charged with the buyer present; one save writes the attempt, the transaction, the
 * cycle paid (or the failure on the timeline) and, for a series, the card kept. Written ahead
 * (docs/decisions.md, "Payment attempts"): a pending payment attempt with the charge's reference
 * precedes the provider call, so a crash or a lost answer is recorded by its reconciler.
 */
async function payCycle(
  deps: ScheduledChargeDeps,
  charge: ScheduledCharge,
  cycle: Cycle,
  card: CardInput,
): Promise<PayLinkCardOutcome> {
  const provider = await providerOf(deps, charge);
  const { attempt, fresh } = await openCycleAttempt(deps, provider, charge, cycle, card);
  if (!fresh) {
    // A payment of this cycle that did not finish (a crash, a lost answer): what the provider holds
    // under its reference is this payment, whatever card the buyer typed again.
    const held = await provider.lookupCharge(attempt.tenant, attempt.gatewayPayId, cycleHint(attempt));
    if (held) return outcomeOf(await recordCycle(deps, charge, attempt, held));
  }
  const [result] = await Promise.all([
    provider.createCharge({
      tenant: charge.tenant,
      transactionId: attempt.plan.transactionId,
      gatewayPayId: attempt.gatewayPayId,
      method: 'creditcard',
      amountCentavos: cycle.amount,
      installments: 1,
      description: cycleItemName(charge, cycle),
      customer: {
        ...customerOf(charge),
        ...(await registeredHolderContact(deps, charge.tenant, charge.customer.uuid)),
        ...buyerIpOf(deps),
      },
      card,
      saveCard: attempt.plan.saveCard,
    }),
    fresh ? scheduleAtDue(deps, reconcileJobOf(attempt), attempt.dueAt) : undefined,
  ]);
  return outcomeOf(await recordCycle(deps, charge, attempt, result));
}

const outcomeOf = (answer: CardAnswer): PayLinkCardOutcome => ({
  status: answer.status === 'succeeded' ? 'paid' : answer.status === 'errored' ? 'failed' : 'declined',
  card: answer.card,
  failure: answer.status === 'succeeded' ? null : failureOf(answer.failureCode),
});

/** How long a request can still be at the provider (API Gateway answers for it by 30 s). */
const IN_FLIGHT_MS = 30_000;

const cycleHint = (attempt: CycleAttempt) => ({
  method: 'creditcard' as const,
  saveCard: attempt.plan.saveCard,
  cardExpiry: attempt.plan.cardExpiry,
});

/**
 * The cycle's payment attempt: one per cycle and recorded try (its id names the charge, the cycle and
 * its attempt count), so a buyer who pays again after a crash or a lost answer finds the first
 * payment instead of making a second. Written before the provider is called; a voided one reopens.
 */
async function openCycleAttempt(
  deps: ScheduledChargeDeps,
  provider: PaymentProvider,
  charge: ScheduledCharge,
  cycle: Cycle,
  card: CardInput,
): Promise<{ attempt: CycleAttempt; fresh: boolean }> {
  const now = deps.clock.now();
  const at = now.toISOString();
  const dueAt = reconcileDueAt(now);
  const id = attemptIdOf(`cycle\n${jobId(charge.tenant, charge.id)}\n${cycle.number}\n${cycle.attemptCount}`);
  const [transactionId, gatewayPayId] = await Promise.all([
    deps.transactions.nextId(),
    provider.reserveReference(charge.tenant, 'creditcard', cycle.amount),
  ]);
  const attempt = pendingAttempt<CycleAttempt>(
    {
      id,
      tenant: charge.tenant,
      kind: 'cycle',
      provider: provider.provider,
      gatewayPayId,
      plan: {
        chargeId: charge.id,
        cycleNumber: cycle.number,
        transactionId,
        saveCard: charge.type === 'recurring',
        cardExpiry: { month: card.expiryMonth, year: card.expiryYear },
      },
    },
    now,
  );
  try {
    await deps.attempts.create(attempt);
    return { attempt, fresh: true };
  } catch (error) {
    const found = isConflict(error) ? await deps.attempts.get(charge.tenant, id) : null;
    if (found?.kind !== 'cycle' || found.status === 'settled') throw error;
    // Another tab's payment may still be on its way to the provider: never a second one beside it.
    if (now.getTime() - Date.parse(found.updatedAt) < IN_FLIGHT_MS)
      throw new ConflictError(
        'A payment of this charge is in progress; try again in a minute',
        'payment_in_progress',
      );
    return {
      attempt: found.status === 'voided' ? await deps.attempts.reopen(found, at, dueAt) : found,
      fresh: false,
    };
  }
}

/**
 * The provider's answer written on the charge (the attempt record, the transaction, the cycle); the
 * payment attempt settled by the reconciler (`settleNow`). A save that fails leaves it to the next run.
 */
async function recordCycle(
  deps: ScheduledChargeDeps,
  charge: ScheduledCharge,
  attempt: CycleAttempt,
  result: ChargeResult,
  settleNow = false,
): Promise<CardAnswer> {
  if (result.outcome === 'pending') throw new Error('a card charge cannot be pending');
  const cycle = charge.cycles.find((c) => c.number === attempt.plan.cycleNumber) as Cycle;
  const at = deps.clock.now().toISOString();
  const t = cardTransaction(deps, charge, cycle, attempt.plan.transactionId, attempt.provider, result, at);
  const pm = await keep(deps, charge, attempt.provider, result);
  const answer = answerOf(t, result, pm?.id ?? null);
  const attemptId = await deps.scheduledCharges.nextAttemptId();
  try {
    await saveWithRetry(deps, charge, (current) =>
      outcomeChange(deps, current, cycle.number, answer, attemptId, pm),
    );
  } catch (error) {
    // The cycle no longer takes this payment (paid meanwhile, canceled): the buyer gets it back.
    if (!(error instanceof AppError) || answer.status !== 'succeeded') throw error;
    // Paid by this very payment (another run of this attempt recorded it first): nothing to give back.
    if (await deps.transactions.get(attempt.tenant, attempt.plan.transactionId)) {
      await deps.attempts.settle(attempt, deps.clock.now().toISOString()).catch(() => undefined);
      return answer;
    }
    // Under a reference of its own, so a retried give-back is made once; one that fails leaves the
    // attempt pending, and its reconciler gives the payment back later.
    const provider = deps.payments.forEnvironment(attempt.tenant.environment);
    await provider.refund(attempt.gatewayPayId, t.value, `re_giveback_${attempt.gatewayPayId}`);
    await deps.attempts.settle(attempt, deps.clock.now().toISOString()).catch(() => undefined);
    throw error;
  }
  // The request leaves the settle to the attempt's reconciler, which finds the transaction written
  // (a read and a write later, off the buyer's wait); the reconciler itself settles now.
  if (settleNow)
    await deps.attempts
      .settle(attempt, deps.clock.now().toISOString())
      .catch((error) => deps.reporter.error('could not settle a payment attempt', error, { id: attempt.id }));
  return answer;
}

/**
 * The reconciler's part for a cycle payment still pending: recorded already (the settle was lost),
 * the payment the provider holds under the reference recorded now, or nothing there (voided). A
 * cycle paid meanwhile by other means gets this payment back.
 */
export async function reconcileCyclePayment(
  deps: ScheduledChargeDeps,
  attempt: CycleAttempt,
): Promise<'settled' | 'voided' | 'refunded'> {
  const now = () => deps.clock.now().toISOString();
  if (await deps.transactions.get(attempt.tenant, attempt.plan.transactionId)) {
    await deps.attempts.settle(attempt, now());
    return 'settled';
  }
  const provider = deps.payments.forEnvironment(attempt.tenant.environment);
  const held = await provider.lookupCharge(attempt.tenant, attempt.gatewayPayId, cycleHint(attempt));
  if (!held) {
    await deps.attempts.void(attempt, now());
    return 'voided';
  }
  const charge = await deps.scheduledCharges.get(attempt.tenant, attempt.plan.chargeId);
  if (!charge) throw new Error(`scheduled charge ${attempt.plan.chargeId} is gone`);
  try {
    await recordCycle(deps, charge, attempt, held, true);
    return 'settled';
  } catch (error) {
    // Refused (the cycle paid meanwhile): recordCycle gave the payment back and settled the attempt;
    // a give-back that failed left it pending, for the next run.
    const after = await deps.attempts.get(attempt.tenant, attempt.id);
    if (!(error instanceof AppError) || after?.status !== 'settled') throw error;
    return 'refunded';
  }
}

function outcomeChange(
  deps: ScheduledChargeDeps,
  current: ScheduledCharge,
  number: number,
  answer: CardAnswer,
  attemptId: number,
  pm: PaymentMethodView | null,
): { next: ScheduledCharge; changes: ScheduledChargeChanges } {
  const at = deps.clock.now().toISOString();
  const cycle = current.cycles.find((c) => c.number === number) as Cycle;
  if (!isOpen(cycle) && cycle.status !== 'failed') throw refusedMode(current, cycle);
  const attemptNumber = cycle.attemptCount + 1;
  const attempt = attemptRecord(
    attemptId,
    current.id,
    number,
    attemptNumber,
    'cycle1_interactive',
    answer,
    at,
  );
  const extra = { attempts: [attempt], transactions: transactionChange(deps, answer) };
  const tried: Cycle = { ...cycle, attemptCount: attemptNumber, updatedAt: at };
  const withCycle = { ...current, cycles: current.cycles.map((c) => (c.number === number ? tried : c)) };
  if (answer.status === 'succeeded') {
    const attached = current.type === 'recurring' ? attach(withCycle, pm, number) : null;
    const paid = applyCyclePaid(deps, attached?.charge ?? withCycle, number, {
      by: 'transaction',
      transactionId: answer.transaction?.id as number,
      at,
    });
    const changes = { ...paid.changes, ...extra };
    if (attached) {
      changes.timeline = [...changes.timeline, attached.entry];
      changes.events = [
        ...changes.events,
        chargeEvent(deps, paid.next, 'scheduled_charge.payment_method_attached', { cycleNumber: number }),
      ];
    }
    return { next: paid.next, changes };
  }
  const draft = draftOf(current);
  putCycle(draft, tried);
  draft.timeline.push({
    kind: 'payment_failed',
    cycleNumber: number,
    data: {
      attemptNumber,
      source: 'cycle1_interactive',
      failureCode: answer.failureCode,
      failureReason: answer.failureReason,
      gatewayFailureCode: answer.gatewayFailureCode,
      nextRetryAt: null,
    },
  });
  return finish(deps, current, draft, extra);
}
