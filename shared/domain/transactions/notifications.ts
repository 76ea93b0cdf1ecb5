import * as z from 'zod';
import type { Deps } from '#shared/domain/deps';
import { parseNumericJobId } from '#shared/domain/job-id';
import type { GatewayRouter, PaidDetails } from '#shared/domain/ports';
import type { Environment } from '#shared/domain/tenant';
import { isConflict, NotFoundError, ValidationError } from '#shared/errors';
import { describeIssue } from '#shared/validation';
import { canApply, canApplyTo, type Trigger } from './state-machine';
import { TRANSACTION_NOT_FOUND, type Transaction } from './transaction';
import { type TransitionDeps, transition } from './transitions';

/** What a provider tells us about a charge (the sandbox signs it with the notification key). */
export const notificationSchema = z.object({
  id: z.string().min(1).max(100),
  provider: z.string().min(1).max(50),
  type: z.enum([
    'charge.paid',
    'charge.failed',
    'charge.charged_back',
    'charge.chargeback_reversed',
    'charge.canceled',
    'charge.refunded',
  ]),
  gatewayPayId: z.number().int().positive(),
  /**
   * Centavos. charge.paid: what cleared. charge.refunded: the provider's total refunded so far
   * (cumulative, absent = all of it), so a refund we already recorded through our API is not counted twice.
   */
  amount: z.number().int().nonnegative().optional(),
  occurredAt: z.string(),
  /** charge.paid of a pix or boleto: how it was paid (a hybrid boleto may be paid by its pix). */
  paidWith: z.enum(['pix', 'boleto']).optional(),
  failureCode: z.string().max(100).optional(),
  failureReason: z.string().max(500).optional(),
});

const TRIGGERS: Record<z.output<typeof notificationSchema>['type'], Trigger> = {
  'charge.paid': 'pay',
  'charge.failed': 'fail',
  'charge.charged_back': 'chargeback',
  'charge.chargeback_reversed': 'chargeback_reversal',
  'charge.canceled': 'cancel',
  'charge.refunded': 'refund',
};

export type NotificationDeps = TransitionDeps &
  Pick<Deps, 'payments'> & {
    /**
     * What follows an applied notification (a checkout session completes). Also called for a repeat,
     * with the transaction as stored: a provider retrying after a failure here heals it.
     */
    onApplied?: (t: Transaction) => Promise<unknown>;
  };

/**
 * The signed route serves the test environment's provider (the sandbox) and nothing else: whoever
 * holds its key can move sandbox sales only. Live providers' notifications arrive through their own
 * authenticated routes (Asaas: its per-seller token), never here.
 */
const SIGNED_ROUTE_ENVIRONMENT: Environment = 'test';

/**
 * POST /api/transactions/handle-webhook, its signature verified by the route's `signature` scheme
 * (./notification-verifier.ts) before anything is read. Each notification id is applied once; a trigger
 * that does not fit the current status (late, out of order, paid after cancel) changes nothing.
 * A notification naming another provider is refused (400 naming `provider`); one whose charge is
 * not a test-environment sale answers 404 exactly as a charge that does not exist.
 */
export async function handleNotification(deps: NotificationDeps, rawBody: string) {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    throw new ValidationError(['body must be JSON']);
  }
  const parsed = notificationSchema.safeParse(json, { reportInput: true });
  if (!parsed.success) throw new ValidationError(parsed.error.issues.map(describeIssue));
  const signer = deps.payments.forEnvironment(SIGNED_ROUTE_ENVIRONMENT).provider;
  if (parsed.data.provider !== signer)
    throw new ValidationError([
      `provider must be ${signer}: other providers notify through their own routes`,
    ]);
  return applyNotification(deps, parsed.data, { environment: SIGNED_ROUTE_ENVIRONMENT });
}

export type ProviderNotification = z.output<typeof notificationSchema>;

/**
 * A notification whose sender was already authenticated (the signature above, or a live provider's
 * per-seller token): moves its transaction once per notification id. With `only`, a transaction of
 * another environment is not a candidate: it answers as a missing one.
 */
export async function applyNotification(
  deps: NotificationDeps,
  n: ProviderNotification,
  only?: { environment: Environment },
) {
  if (!deps.payments.byName(n.provider)) throw new ValidationError([`provider ${n.provider} is unknown`]);
  const candidates = await deps.transactions.findByGatewayPayId(n.gatewayPayId);
  const t: Transaction | undefined = candidates.find(
    (c) => c.provider === n.provider && (!only || c.tenant.environment === only.environment),
  );
  if (!t) throw new NotFoundError(TRANSACTION_NOT_FOUND);
  const trigger = TRIGGERS[n.type];
  if (trigger === 'refund') return applyProviderRefund(deps, t, n);
  if (!canApplyTo(trigger, t)) {
    return {
      received: true,
      applied: false,
      transactionId: t.id,
      status: t.status,
      reason: `not applicable to ${t.status}`,
    };
  }
  let transaction = t;
  let duplicate = false;
  try {
    ({ transaction } = await transition(deps, t, trigger, {
      failureCode: n.failureCode,
      failureReason: n.failureReason,
      notification: { provider: n.provider, id: n.id },
      ...(n.type === 'charge.paid' && n.amount !== undefined ? { paidAmount: n.amount } : {}),
      ...(n.type === 'charge.paid' && n.paidWith ? { paidWith: n.paidWith } : {}),
    }));
  } catch (error) {
    // This notification's marker exists: it was applied before, so it is answered as processed.
    if (!isConflict(error, 'already_exists')) throw error;
    duplicate = true;
    transaction = (await deps.transactions.get(t.tenant, t.id)) ?? t;
  }
  // A chargeback undoes no follow-up (the checkout stays complete, the cycle or installment paid; the
  // commission's reversal and restoration are the transaction's own): so its reversal has none to redo.
  if (trigger !== 'chargeback_reversal') await deps.onApplied?.(transaction);
  return {
    received: true,
    applied: !duplicate,
    duplicate,
    transactionId: transaction.id,
    status: transaction.status,
  };
}

/**
 * What a provider's status answer for a charge says, written as the notification it would have sent:
 * the backstop of a notification that never came (a Pix Automático debit's, asked by the
 * subscription's due job). Its id is one per charge and status, so asking twice applies it once.
 */
export function notificationOfStatus(
  t: Pick<Transaction, 'provider' | 'gatewayPayId'>,
  status: 'paid' | 'failed' | 'canceled',
  now: Date,
  paid: PaidDetails | null = null,
): ProviderNotification {
  const base = {
    id: `status_${t.provider}_${t.gatewayPayId}_${status}`,
    provider: t.provider,
    gatewayPayId: t.gatewayPayId,
    occurredAt: now.toISOString(),
  };
  if (status === 'paid')
    return {
      ...base,
      type: 'charge.paid',
      ...(paid?.amountCentavos !== undefined ? { amount: paid.amountCentavos } : {}),
      ...(paid?.paidWith ? { paidWith: paid.paidWith } : {}),
    };
  if (status === 'canceled') return { ...base, type: 'charge.canceled' };
  return {
    ...base,
    type: 'charge.failed',
    failureCode: 'payment_failed',
    failureReason: 'The provider reports that the charge was not paid.',
  };
}

/**
 * A refund made at the provider (its panel): the part of the provider's cumulative total that we have
 * not recorded yet moves the transaction through the same refund transition and events as our
 * POST /refund. A refund we made ourselves is recorded before the provider is asked, so its
 * notification finds nothing left to add. No follow-ups: our own refund has none either.
 */
async function applyProviderRefund(deps: NotificationDeps, t: Transaction, n: ProviderNotification) {
  const total = Math.min(n.amount ?? t.value, t.value);
  const missing = total - t.refundedAmount;
  const skipped = (reason: string) => ({
    received: true,
    applied: false,
    transactionId: t.id,
    status: t.status,
    reason,
  });
  if (!canApply('refund', t.status)) return skipped(`not applicable to ${t.status}`);
  if (missing <= 0) return skipped('refund already recorded');
  const refund = {
    id: deps.ids.prefixed('re', 20),
    amount: missing,
    reason: `Refunded at ${n.provider}`,
    createdAt: deps.clock.now().toISOString(),
  };
  let transaction = t;
  let duplicate = false;
  try {
    ({ transaction } = await transition(deps, t, 'refund', {
      refund,
      notification: { provider: n.provider, id: n.id },
    }));
  } catch (error) {
    if (!isConflict(error, 'already_exists')) throw error;
    duplicate = true;
    transaction = (await deps.transactions.get(t.tenant, t.id)) ?? t;
  }
  return {
    received: true,
    applied: !duplicate,
    duplicate,
    transactionId: transaction.id,
    status: transaction.status,
  };
}

/** What the pix expiry needs: the provider, and how a status the provider already holds is applied. */
export interface ExpiryDeps extends TransitionDeps {
  payments: GatewayRouter;
  /**
   * Applies what the provider reports of the charge as the notification it would have sent
   * (transition, events, follow-ups): `settleByProviderStatus` of ./follow-ups.
   */
  settle: (t: Transaction, status: 'paid') => Promise<unknown>;
}

/**
 * Job: a pix charge whose expiry came while it was still unpaid stops being payable. When the
 * provider refuses to cancel it because it holds the charge paid, the payment's notification was
 * lost (a provider that marked it paid and died before notifying): the payment is applied now, as
 * that notification would have been, instead of failing on every pass of the sweep.
 */
export async function expirePix(deps: ExpiryDeps, jobId: string) {
  const ref = parseNumericJobId(jobId);
  if (!ref) return { skipped: 'bad id' };
  const t = await deps.transactions.get(ref.tenant, ref.id);
  if (!t || !canApply('expire', t.status)) return { skipped: t?.status ?? 'missing' };
  const provider = deps.payments.forEnvironment(ref.tenant.environment);
  try {
    await provider.cancel(t.gatewayPayId);
  } catch (error) {
    if ((await provider.status(t.gatewayPayId)) !== 'paid') throw error;
    await deps.settle(t, 'paid');
    return { paid: t.id };
  }
  const { transaction } = await transition(deps, t, 'expire');
  return { expired: transaction.id };
}
