import type { EventsOf, TrialEvent } from '#shared/domain/events/events';
import { PAYMENT_METHOD_NOT_FOUND, type PaymentMethod } from '#shared/domain/payment-methods/payment-method';
import { PROVIDER_NOT_CONFIGURED } from '#shared/domain/payments/gateway';
import { providerReady } from '#shared/domain/payments/provider-ready';
import type { PaymentMethodRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, NotFoundError, ServiceUnavailableError, ValidationError } from '#shared/errors';
import { collect } from './collect';
import { type SubscriptionDeps, subscriptionEvent } from './deps';
import { findSubscription } from './queries';
import { saveAndSchedule } from './schedule';
import { type HistoryType, type Subscription, toSubscriptionView } from './subscription';

/**
 * Who acts: the seller (API key, dashboard) or the customer in the portal. A customer's scope
 * reaches only their own subscriptions and cards; another's answers like a missing one.
 */
export interface ActionScope {
  by: 'seller' | 'customer';
  customerId?: number;
}

export interface CancelOptions extends ActionScope {
  atPeriodEnd?: boolean;
  reason?: string | null;
}

export interface ChangePaymentMethodOptions extends ActionScope {
  paymentMethodId: number;
}

/** A state that refuses the action: 409 naming the rule (`… cannot be paused: it is canceled`). */
const refused = (verb: string, state: string) =>
  new ConflictError(`Subscription cannot be ${verb}: it is ${state}`, 'invalid_transition');

/** A reactivation charge that did not go through: 409, nothing but the attempt is recorded. */
const notReactivated = (why: string) =>
  new ConflictError(`Subscription could not be reactivated: ${why}`, 'payment_declined');

/** One conditional save of a transition with its history record and webhook (none when null). */
async function transition(
  deps: SubscriptionDeps,
  current: Subscription,
  changes: Partial<Subscription>,
  history: { type: HistoryType; data: Record<string, unknown> },
  webhook: EventsOf<'subscription'> | TrialEvent | null,
) {
  const next: Subscription = {
    ...current,
    ...changes,
    updatedAt: deps.clock.now().toISOString(),
    version: current.version + 1,
  };
  const saved = await saveAndSchedule(deps, next, current, {
    events: webhook ? [subscriptionEvent(deps, next, webhook)] : [],
    history: [{ eventType: history.type, eventData: history.data }],
  });
  return toSubscriptionView(saved);
}

const scopeOf = (options: ActionScope) => ({ customerId: options.customerId });

/**
 * Cancels now (status `canceled`, nothing more is charged, a charge in flight is let go) or at
 * the period's end (`pending_cancellation` until `currentPeriodEnd`, when the due job sets
 * `canceled`; reactivate undoes it before). An active or pending subscription cancels either
 * way; one pending cancellation only now. While retries run the paid period is already over, so
 * a cancel at period end is a cancel now. Webhook `subscription.cancelled` at the request only.
 */
export async function cancelSubscription(
  deps: SubscriptionDeps,
  tenant: Tenant,
  id: number,
  options: CancelOptions,
) {
  return cancel(deps, await findSubscription(deps, tenant, id, scopeOf(options)), options);
}

/** cancelSubscription on a subscription the caller has found (and checked is in its scope). */
export async function cancel(deps: SubscriptionDeps, s: Subscription, options: CancelOptions) {
  const now = deps.clock.now();
  const at = now.toISOString();
  const periodRunning = s.failedPaymentCount === 0 && Date.parse(s.currentPeriodEnd) > now.getTime();
  const atPeriodEnd = options.atPeriodEnd === true && periodRunning;
  if (options.atPeriodEnd && s.status !== 'active') throw refused('canceled at period end', s.status);
  if (!['active', 'pending', 'pending_cancellation'].includes(s.status)) throw refused('canceled', s.status);
  const reason = options.reason ?? null;
  const history = {
    type: 'subscription.canceled' as const,
    data: { atPeriodEnd, reason, by: options.by },
  };
  if (atPeriodEnd) {
    const changes: Partial<Subscription> = {
      status: 'pending_cancellation',
      cancelAtPeriodEnd: true,
      cancelAt: s.currentPeriodEnd,
      cancelReason: reason,
      dueAt: s.currentPeriodEnd,
    };
    return transition(deps, s, changes, history, 'subscription.cancelled');
  }
  const changes: Partial<Subscription> = {
    status: 'canceled',
    cancelledAt: at,
    cancelAt: at,
    cancelAtPeriodEnd: false,
    cancelReason: reason ?? s.cancelReason,
    pausedAt: null,
    nextPaymentAt: null,
    dueAt: null,
    pendingCharge: null,
  };
  return transition(deps, s, changes, history, 'subscription.cancelled');
}

/**
 * Pauses collection (Stripe's pause_collection `void`): the status stays `active`, the periods go
 * on and their charges are skipped until resumed. Only an active subscription that is not paused.
 */
export async function pauseSubscription(
  deps: SubscriptionDeps,
  tenant: Tenant,
  id: number,
  scope: ActionScope,
) {
  return pause(deps, await findSubscription(deps, tenant, id, scopeOf(scope)), scope);
}

/** pauseSubscription on a subscription the caller has found. */
export async function pause(deps: SubscriptionDeps, s: Subscription, scope: ActionScope) {
  if (s.status !== 'active') throw refused('paused', s.status);
  if (s.pausedAt) throw refused('paused', 'paused');
  const at = deps.clock.now().toISOString();
  return transition(
    deps,
    s,
    { pausedAt: at },
    { type: 'subscription.paused', data: { by: scope.by, pausedAt: at } },
    'subscription.paused',
  );
}

/**
 * Resumes collection: the next charge is the one already due (the current period's end, or a
 * retry under way). The spec has no resume webhook: `subscription.activated` tells receivers that
 * collection is active again (its payload shows `pauseCollection: null`).
 */
export async function resumeSubscription(
  deps: SubscriptionDeps,
  tenant: Tenant,
  id: number,
  scope: ActionScope,
) {
  return resume(deps, await findSubscription(deps, tenant, id, scopeOf(scope)), scope);
}

/** resumeSubscription on a subscription the caller has found. */
export async function resume(deps: SubscriptionDeps, s: Subscription, scope: ActionScope) {
  if (s.status !== 'active' && s.status !== 'pending_cancellation') throw refused('resumed', s.status);
  if (!s.pausedAt) throw refused('resumed', 'not paused');
  return transition(
    deps,
    s,
    { pausedAt: null },
    { type: 'subscription.resumed', data: { by: scope.by, pausedAt: s.pausedAt } },
    'subscription.activated',
  );
}

/**
 * Reactivates (decisions: "Subscriptions"). Pending cancellation before its date: the cancellation
 * is undone. Canceled or failed with a paid period (or a trial) still running: active again
 * without a charge, renewing at that period's end. Otherwise the saved card (or the Pix Automático
 * authorization) is charged now and a new period starts from the payment; a refused charge is a
 * 409 that changes nothing but the attempt's record (the denied transaction, `payment_failed`).
 * An expired or deleted card is never charged.
 */
export async function reactivateSubscription(
  deps: SubscriptionDeps,
  tenant: Tenant,
  id: number,
  scope: ActionScope,
) {
  return reactivate(deps, await findSubscription(deps, tenant, id, scopeOf(scope)), scope);
}

/** reactivateSubscription on a subscription the caller has found. */
export async function reactivate(deps: SubscriptionDeps, s: Subscription, scope: ActionScope) {
  const now = deps.clock.now().getTime();
  const activated = { type: 'subscription.activated' as const, data: { reactivated: true, by: scope.by } };
  const undo: Partial<Subscription> = {
    status: 'active',
    cancelAt: null,
    cancelledAt: null,
    cancelAtPeriodEnd: false,
    cancelReason: null,
  };
  if (s.status === 'pending_cancellation' && s.cancelAt && Date.parse(s.cancelAt) > now) {
    const dueAt = s.nextPaymentAt ?? s.currentPeriodEnd;
    return transition(deps, s, { ...undo, dueAt, nextPaymentAt: dueAt }, activated, 'subscription.activated');
  }
  // A pending cancellation whose date has passed (its due job has not run yet) is over: as canceled.
  if (s.status !== 'canceled' && s.status !== 'failed' && s.status !== 'pending_cancellation')
    throw refused('reactivated', s.status);
  const paidPeriodRunning =
    s.failedPaymentCount === 0 &&
    (s.billingCycle > 0 || s.trialEndsAt !== null) &&
    Date.parse(s.currentPeriodEnd) > now;
  if (paidPeriodRunning) {
    const changes = {
      ...undo,
      pausedAt: null,
      pendingCharge: null,
      dueAt: s.currentPeriodEnd,
      nextPaymentAt: s.currentPeriodEnd,
    };
    return transition(deps, s, changes, activated, 'subscription.activated');
  }
  await checkChargeable(deps, s);
  const result = await collect(deps, s, 'reactivation');
  // A Pix Automático debit a live provider schedules: the subscription is answered as it is (its
  // charge claimed); the payment's notification reactivates it (settleAwaitedCharge).
  if (result.outcome === 'paid' || result.outcome === 'pending')
    return toSubscriptionView(result.subscription);
  const failureCode =
    result.transaction?.failureCode ??
    (await deps.subscriptions.history(s.tenant, s.id, 1))[0]?.eventData.failureCode ??
    result.outcome;
  throw notReactivated(`the payment was declined (${String(failureCode)})`);
}

/** What a reactivation charge needs before it is tried: a provider, and a card that can be charged. */
async function checkChargeable(deps: SubscriptionDeps, s: Subscription) {
  if (!(await providerReady(deps.payments.forEnvironment(s.tenant.environment), s.tenant)))
    throw new ServiceUnavailableError(PROVIDER_NOT_CONFIGURED, 'provider_not_configured');
  if (s.collectionMethod === 'pix_automatic') {
    if (!s.pixAuthorizationId) throw notReactivated('it has no Pix Automático authorization');
    return;
  }
  const card = s.paymentMethod ? await deps.paymentMethods.get(s.tenant, s.paymentMethod.id) : null;
  if (!card || card.customer.id !== s.customer.id) throw notReactivated('it has no saved card');
  if (card.status === 'expired') throw notReactivated('the saved card has expired');
}

/**
 * Renewals charge another saved card of the same customer from now on (a Pix Automático
 * subscription moves to the card). Any state: a canceled or failed subscription gets the card its
 * reactivation will charge. The same card again changes nothing. No spec event or history type
 * records it.
 */
export async function changeSubscriptionPaymentMethod(
  deps: SubscriptionDeps & { paymentMethods: Pick<PaymentMethodRepository, 'get'> },
  tenant: Tenant,
  id: number,
  options: ChangePaymentMethodOptions,
) {
  const [s, card] = await Promise.all([
    findSubscription(deps, tenant, id, scopeOf(options)),
    deps.paymentMethods.get(tenant, options.paymentMethodId),
  ]);
  return switchCard(deps, s, card);
}

/**
 * changeSubscriptionPaymentMethod on a subscription and a card the caller has read (null: no such
 * card). `cardIsNew`: the card is not stored yet and is written with the subscription, in one
 * transaction (saveAndSchedule's `newCard`).
 */
export async function switchCard(
  deps: SubscriptionDeps,
  s: Subscription,
  card: PaymentMethod | null,
  options: { cardIsNew?: boolean } = {},
) {
  if (!card || card.customer.id !== s.customer.id) throw new NotFoundError(PAYMENT_METHOD_NOT_FOUND);
  if (card.status !== 'active') throw new ValidationError(['paymentMethodId names an expired card']);
  if (s.collectionMethod === 'card' && s.paymentMethod?.id === card.id) return toSubscriptionView(s);
  const next: Subscription = {
    ...s,
    collectionMethod: 'card',
    paymentMethod: { id: card.id, cardLast4: card.last4, cardBrand: card.brand },
    updatedAt: deps.clock.now().toISOString(),
    version: s.version + 1,
  };
  const written = options.cardIsNew ? { newCard: card } : {};
  return toSubscriptionView(await saveAndSchedule(deps, next, s, { events: [], history: [] }, written));
}
