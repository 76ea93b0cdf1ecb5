import { undoPayment } from '#shared/domain/checkout/attempts';
import { type CheckoutMethod, type CheckoutSession, sessionWith } from '#shared/domain/checkout/session';
import { settleFirstPayment, startFirstPeriod } from '#shared/domain/checkout/session-subscriptions';
import { type CloseDeps, completeSessionWith } from '#shared/domain/checkout/sessions';
import type { Deps } from '#shared/domain/deps';
import { payInstallmentOfTransaction } from '#shared/domain/installment-plans/payments';
import { payCycleOfTransaction } from '#shared/domain/scheduled-charges/notifications';
import { settleAwaitedCharge } from '#shared/domain/subscriptions/collect';
import { sameTenant } from '#shared/domain/tenant';
import { isConflict } from '#shared/errors';
import type { ManageDeps } from './manage';
import {
  applyNotification,
  handleNotification,
  type NotificationDeps,
  notificationOfStatus,
  type ProviderNotification,
} from './notifications';
import { PAID, type Transaction } from './transaction';

/** What a transaction can be linked to that its outcome moves besides itself. */
export type FollowUpLink = 'checkoutSession' | 'subscription' | 'scheduledChargeCycle' | 'installment';

/**
 * What happened to the transaction, read from its status as stored. `opened`: recorded and still
 * pending (a pix or boleto sale that its attempt's reconciler, or a retry, recorded late).
 */
export type PaymentOutcome = 'opened' | 'paid' | 'failed' | 'canceled' | 'refunded' | 'chargedBack';

/**
 * What the follow-ups need: the sale's repositories and the linked aggregates' ones. A failed
 * schedule or cancel after a follow-up's save goes to the reporter (CloseDeps): the change is
 * saved, the heartbeat's sweeps are the backstop.
 */
export type FollowUpDeps = CloseDeps & ManageDeps & Pick<Deps, 'scheduledCharges' | 'installmentPlans'>;

export type FollowUp = (deps: FollowUpDeps, t: Transaction) => Promise<unknown>;

export interface FollowUpRow {
  /** Whether the transaction carries this link. */
  linked: (t: Transaction) => boolean;
  /** What each outcome does to the linked aggregate; null: nothing, on purpose. */
  on: Record<PaymentOutcome, FollowUp | null>;
}

/** The session a payment was made through, as stored now (null for a sale without one). */
async function sessionOfPayment(deps: CloseDeps, t: Transaction): Promise<CheckoutSession | null> {
  if (!t.checkoutSessionId) return null;
  const session = await deps.sessions.get(t.checkoutSessionId);
  return session && sameTenant(session.tenant, t.tenant) ? session : null;
}

/**
 * The session a payment was made through, when it keeps the payment. A sale records its payment
 * on its session in its own write; one whose session closed first (it expired, another payment
 * completed it) was written without it, and is undone as the page undoes it (recordPayment):
 * nothing stays payable, no money is kept. Null: no session, or the payment was undone.
 */
async function sessionKeeping(deps: FollowUpDeps, t: Transaction): Promise<CheckoutSession | null> {
  const session = await sessionOfPayment(deps, t);
  if (!session || session.payments.some((p) => p.transactionId === t.id)) return session;
  if (session.status === 'open') {
    const at = deps.clock.now().toISOString();
    const payment = {
      transactionId: t.id,
      transactionUuid: t.uuid,
      method: methodOnSession(t),
      createdAt: at,
    };
    try {
      await deps.sessions.addPayment(session.id, payment, at);
      return sessionWith(session, payment);
    } catch (error) {
      if (!isConflict(error, 'invalid_state')) throw error;
    }
  }
  await undoPayment(deps, t, 'checkout session closed before the payment was recorded');
  return null;
}

const methodOnSession = (t: Transaction): CheckoutMethod =>
  t.paymentMethod === 'creditcard' ? 'card' : t.paymentMethod;

/**
 * A session's payment recorded pending: a Pix Automático first pix starts its subscription
 * `pending`, as the page starts it (a sale recorded by its reconciler runs this; the page's own
 * path starts it itself).
 */
const openSessionPayment: FollowUp = async (deps, t) =>
  startFirstPeriod(deps, t, await sessionKeeping(deps, t));

/**
 * A paid payment of a session completes it, once. A first payment's subscription is started first
 * when nothing started it (a sale recorded by its reconciler or a retry), then activated, or, when
 * another payment completed the session, that subscription is canceled and the payment returned:
 * the session decides which subscription a first payment gets, so it is the session's follow-up.
 */
const completeSession: FollowUp = async (deps, t) => {
  const session = await sessionKeeping(deps, t);
  if (!session) return null;
  if (t.recurring) await startFirstPeriod(deps, t, session);
  const completed = await completeSessionWith(deps, session, t);
  if (!t.recurring) return completed;
  return settleFirstPayment(deps, t, completed ?? (await sessionOfPayment(deps, t)));
};

/** A renewal's Pix Automático debit the provider answered pending gets its outcome (collect.ts). */
const settleDebit: FollowUp = (deps, t) => settleAwaitedCharge(deps, t);

/** The cycle the transaction collects is paid, and its other issued pix or boleto stops being payable. */
const payCycle: FollowUp = (deps, t) => payCycleOfTransaction(deps, t);

/** The carnê installment its boleto pays (or fails) takes that outcome. */
const settleInstallment: FollowUp = (deps, t) => payInstallmentOfTransaction(deps, t);

/**
 * What a transaction's outcome moves besides itself, per link, in the order it runs. A chargeback
 * or a refund undoes no follow-up: the session stays complete, the subscription active, the cycle
 * or installment paid (the money is disputed or returned through the transaction itself).
 * The affiliate's commission is no row here because it is part of the transaction: a refund
 * reverses its refunded share, a chargeback all of it, a won chargeback restores it, in the same
 * write as the transition (`commissionReversed`, shared/domain/affiliates/commission.ts).
 */
export const FOLLOW_UPS: Record<FollowUpLink, FollowUpRow> = {
  checkoutSession: {
    linked: (t) => Boolean(t.checkoutSessionId),
    on: {
      opened: openSessionPayment,
      paid: completeSession,
      failed: null,
      canceled: null,
      refunded: null,
      chargedBack: null,
    },
  },
  subscription: {
    linked: (t) => Boolean(t.recurring),
    on: {
      opened: null,
      paid: settleDebit,
      failed: settleDebit,
      canceled: settleDebit,
      refunded: null,
      chargedBack: null,
    },
  },
  scheduledChargeCycle: {
    linked: (t) => Boolean(t.scheduledCharge),
    on: { opened: null, paid: payCycle, failed: null, canceled: null, refunded: null, chargedBack: null },
  },
  installment: {
    linked: (t) => Boolean(t.installmentPlan),
    on: {
      opened: null,
      paid: settleInstallment,
      failed: settleInstallment,
      canceled: null,
      refunded: null,
      chargedBack: null,
    },
  },
};

/** The outcome a transaction's status records. */
export function outcomeOf(t: Transaction): PaymentOutcome {
  if (PAID.includes(t.status)) return 'paid';
  if (t.status === 'denied') return 'failed';
  if (t.status === 'cancel') return 'canceled';
  if (t.status === 'reversed')
    return t.chargeback || t.failureCode === 'chargeback' ? 'chargedBack' : 'refunded';
  return 'opened';
}

/**
 * Runs the follow-ups of the transaction as stored, one link after the other. Each is idempotent:
 * a repeated notification (a provider retrying after a failure here) heals what a failure left.
 */
export async function runFollowUps(deps: FollowUpDeps, t: Transaction): Promise<void> {
  const outcome = outcomeOf(t);
  for (const row of Object.values(FOLLOW_UPS)) {
    const followUp = row.on[outcome];
    if (followUp && row.linked(t)) await followUp(deps, t);
  }
}

/**
 * POST /api/transactions/handle-webhook: the sandbox's signed notification moves the transaction,
 * and its follow-ups run.
 */
export function receiveProviderNotification(
  deps: Omit<NotificationDeps, 'onApplied'> & FollowUpDeps,
  rawBody: string,
) {
  return handleNotification({ ...deps, onApplied: (t) => runFollowUps(deps, t) }, rawBody);
}

/** A live provider's notification, its sender already authenticated: the same transitions and follow-ups. */
export function receiveVerifiedNotification(
  deps: Omit<NotificationDeps, 'onApplied'> & FollowUpDeps,
  notification: ProviderNotification,
) {
  return applyNotification({ ...deps, onApplied: (t) => runFollowUps(deps, t) }, notification);
}

/**
 * What the provider answers about a charge whose notification never came, applied as that
 * notification: the same transition, events and follow-ups, once per charge and status.
 */
export async function settleByProviderStatus(
  deps: Omit<NotificationDeps, 'onApplied'> & FollowUpDeps,
  t: Pick<Transaction, 'provider' | 'gatewayPayId'>,
  status: 'paid' | 'failed' | 'canceled',
) {
  return receiveVerifiedNotification(
    deps,
    notificationOfStatus(t, status, deps.clock.now(), await paidDetailsOf(deps, t, status)),
  );
}

/** What the provider says a paid charge cleared (the amount with a late boleto's fine and interest). */
export async function paidDetailsOf(
  deps: Pick<NotificationDeps, 'payments'>,
  t: Pick<Transaction, 'provider' | 'gatewayPayId'>,
  status: 'paid' | 'failed' | 'canceled',
) {
  if (status !== 'paid') return null;
  return (await deps.payments.byName(t.provider)?.paidDetails?.(t.gatewayPayId)) ?? null;
}
