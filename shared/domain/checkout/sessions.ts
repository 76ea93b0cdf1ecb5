import { requireActiveAffiliation } from '#shared/domain/affiliates/index';
import type { Deps } from '#shared/domain/deps';
import { type DomainEvent, type EventPayload, type EventsOf, newEvent } from '#shared/domain/events/events';
import { readNumberedPage } from '#shared/domain/paging';
import { PROVIDER_NOT_CONFIGURED } from '#shared/domain/payments/gateway';
import { providerReady } from '#shared/domain/payments/provider-ready';
import type { Product } from '#shared/domain/products/products';
import type { SubscriptionPrice } from '#shared/domain/subscriptions/price';
import { resolvePrice } from '#shared/domain/subscriptions/prices';
import type { Subscription } from '#shared/domain/subscriptions/subscription';
import { sameTenant, type Tenant } from '#shared/domain/tenant';
import { canApply } from '#shared/domain/transactions/state-machine';
import { PAID, type Transaction } from '#shared/domain/transactions/transaction';
import { transition } from '#shared/domain/transactions/transitions';
import {
  ConflictError,
  isConflict,
  NotFoundError,
  ServiceUnavailableError,
  ValidationError,
} from '#shared/errors';
import {
  type CreateSessionInput,
  emptyCustomer,
  type ListSessionsInput,
  redirectUrlProblem,
} from './schemas';
import {
  CHECKOUT_METHODS,
  type CheckoutMethod,
  type CheckoutSession,
  completedData,
  DEFAULT_LIFETIME_MS,
  expiredData,
  MAX_LIFETIME_MS,
  MIN_LIFETIME_MS,
  newSessionId,
  SESSION_CANNOT_BE_EXPIRED,
  SESSION_EXPIRY_JOB,
  SESSION_NOT_FOUND,
  SUBSCRIPTION_METHODS,
  sessionPriceOf,
  toSessionView,
} from './session';
import {
  dropWaitingSubscriptions,
  type SessionSubscriptionDeps,
  startFirstPeriod,
} from './session-subscriptions';

/**
 * A live session needs a live provider (`payments`): without one nothing could ever be paid (503, as
 * a sale). Plain-HTTP redirect URLs to this machine are accepted in the local runtime only
 * (`allowLocalHttp`). A saved session's failed expiry schedule goes to `reporter` (the heartbeat
 * sweeps expiries).
 */
export type SessionDeps = Pick<
  Deps,
  | 'sessions'
  | 'payments'
  | 'products'
  | 'prices'
  | 'affiliations'
  | 'scheduler'
  | 'clock'
  | 'ids'
  | 'publicBaseUrl'
  | 'allowLocalHttp'
  | 'reporter'
>;

/**
 * What closing a session needs: its transactions, to complete it or make them unpayable, and the
 * subscriptions a session with a price started, to activate or let go of them.
 */
export type CloseDeps = SessionSubscriptionDeps &
  Pick<Deps, 'sessions' | 'transactions' | 'payments' | 'clock' | 'ids'>;

/** The methods a product sells by, under the names a session uses. */
export function methodsOf(product: Product): CheckoutMethod[] {
  const out: CheckoutMethod[] = [];
  if (product.pix) out.push('pix');
  if (product.boleto) out.push('boleto');
  if (product.creditCard) out.push('card');
  return out;
}

/**
 * The methods a session may offer, and the refusals of the ones it asks for. A session with a
 * subscription price sells by card (saved for the renewals) and pix (Pix Automático) only, and a
 * price with a trial by card only: nothing is charged during the trial, so the only thing the buyer
 * leaves is a card to charge when it ends.
 */
function methodsFor(
  product: Product,
  price: SubscriptionPrice | null,
  wanted: CheckoutMethod[] | undefined,
  problems: string[],
): CheckoutMethod[] {
  const sellable = price
    ? SUBSCRIPTION_METHODS.filter((m) => price.trialDays === 0 || m === 'card')
    : CHECKOUT_METHODS;
  const accepted = methodsOf(product).filter((m) => sellable.includes(m));
  if (!wanted) {
    if (price && accepted.length === 0)
      problems.push(
        price.trialDays > 0
          ? 'price_id names a price with a trial, which needs a card, and this product does not accept cards'
          : 'price_id: this product accepts neither card nor pix, and a subscription is paid by one of them',
      );
    return accepted;
  }
  if (price && wanted.includes('boleto'))
    problems.push('payment_methods: a subscription is paid by card or pix, not boleto');
  if (price && price.trialDays > 0 && wanted.includes('pix'))
    problems.push('payment_methods: a price with a trial is paid by card only');
  const refused = wanted.filter((m) => sellable.includes(m) && !accepted.includes(m));
  if (refused.length > 0)
    problems.push(`payment_methods: this product does not accept ${refused.join(', ')}`);
  return [...new Set(wanted)];
}

/** Every refusal that needs the product, the price or the clock, as 400s naming the field. */
async function checkSession(deps: SessionDeps, tenant: Tenant, input: CreateSessionInput, now: Date) {
  const problems: string[] = [];
  const product = await deps.products.get(tenant, input.product_id);
  const price =
    product && input.price_id ? await resolvePrice(deps, tenant, product.id, input.price_id) : null;
  if (!product) problems.push('product_id names no product of this account');
  else if (!product.isActive) problems.push('product_id names a deactivated product');
  // A product may sell only through its subscription prices (Stripe: a product with recurring
  // prices only); its value 0 keeps it off the payment link, not out of a price session.
  else if (product.value === 0 && !input.price_id)
    problems.push('product_id names a product with no price (0): it cannot be sold');
  if (input.price_id && !price) problems.push('price_id names no active subscription price of this product');
  const wanted = input.payment_methods as CheckoutMethod[] | undefined;
  const methods = product ? methodsFor(product, price, wanted, problems) : (wanted ?? []);
  for (const field of ['success_url', 'cancel_url'] as const) {
    const url = input[field];
    const problem = url ? redirectUrlProblem(field, url, deps.allowLocalHttp) : null;
    if (problem) problems.push(problem);
  }
  let expiresAt = new Date(now.getTime() + DEFAULT_LIFETIME_MS);
  if (input.expires_at) {
    expiresAt = new Date(input.expires_at);
    const lifetime = expiresAt.getTime() - now.getTime();
    if (lifetime < MIN_LIFETIME_MS || lifetime > MAX_LIFETIME_MS)
      problems.push('expires_at must be from 30 minutes to 7 days after now');
  }
  if (problems.length > 0 || !product) throw new ValidationError(problems);
  if (input.affiliate_id) await requireActiveAffiliation(deps, tenant, product.id, input.affiliate_id);
  return { product, price, methods, expiresAt: expiresAt.toISOString() };
}

/** POST /api/checkout/sessions. */
export async function createSession(deps: SessionDeps, tenant: Tenant, input: CreateSessionInput) {
  if (!(await providerReady(deps.payments.forEnvironment(tenant.environment), tenant)))
    throw new ServiceUnavailableError(PROVIDER_NOT_CONFIGURED, 'provider_not_configured');
  const now = deps.clock.now();
  const { product, price, methods, expiresAt } = await checkSession(deps, tenant, input, now);
  const at = now.toISOString();
  const session: CheckoutSession = {
    id: newSessionId(deps.ids, tenant.environment, product.uuid),
    tenant,
    status: 'open',
    productId: product.id,
    productUuid: product.uuid,
    priceId: price ? String(price.id) : null,
    price: price ? sessionPriceOf(price) : null,
    customer: input.customer ?? emptyCustomer(),
    paymentMethods: methods,
    metadata: input.metadata ?? {},
    successUrl: input.success_url ?? null,
    cancelUrl: input.cancel_url ?? null,
    clientReferenceId: input.client_reference_id ?? null,
    affiliateId: input.affiliate_id ?? null,
    transactionId: null,
    subscriptionId: null,
    payments: [],
    expiresAt,
    completedAt: null,
    expiredAt: null,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  await deps.sessions.create(session, []);
  // The session is saved; a failed schedule is covered by the heartbeat's sweep of expiry markers.
  await deps.scheduler
    .scheduleAt(`cs-expiry-${session.id}`, new Date(expiresAt), { job: SESSION_EXPIRY_JOB, id: session.id })
    .catch((error) =>
      deps.reporter.error('could not schedule a checkout session expiry', error, { id: session.id }),
    );
  return toSessionView(session, deps.publicBaseUrl);
}

/** A session of this tenant; another seller's or environment's answers exactly like a missing one. */
export async function findSession(
  deps: Pick<Deps, 'sessions'>,
  tenant: Tenant,
  id: string,
): Promise<CheckoutSession> {
  const session = await deps.sessions.get(id);
  if (!session || !sameTenant(session.tenant, tenant)) throw new NotFoundError(SESSION_NOT_FOUND);
  return session;
}

/** GET /api/checkout/sessions/{id}. */
export async function getSession(deps: Pick<Deps, 'sessions' | 'publicBaseUrl'>, tenant: Tenant, id: string) {
  return { data: toSessionView(await findSession(deps, tenant, id), deps.publicBaseUrl) };
}

/** GET /api/checkout/sessions. */
export async function listSessions(
  deps: Pick<Deps, 'sessions' | 'publicBaseUrl'>,
  tenant: Tenant,
  query: ListSessionsInput,
) {
  // Compared as instants (UTC ISO text), not as sent: `12:30-03:00` is after `15:00Z`.
  const iso = (v: string | undefined) => (v === undefined ? undefined : new Date(v).toISOString());
  const createdFrom = iso(query.created_from);
  const createdTo = iso(query.created_to);
  if (createdFrom && createdTo && createdFrom > createdTo)
    throw new ValidationError(['created_from must not be after created_to']);
  const page = await readNumberedPage(query, (at) =>
    deps.sessions.list(tenant, {
      status: query.status,
      productId: query.product_id,
      customerEmail: query.customer_email?.toLowerCase(),
      createdFrom,
      createdTo,
      ...at,
    }),
  );
  return {
    data: page.items.map((s) => toSessionView(s, deps.publicBaseUrl)),
    count: page.items.length,
    totalCount: page.totalCount,
    totalPages: Math.ceil(page.totalCount / query.limit),
  };
}

const eventOf = <N extends EventsOf<'checkout'>>(
  deps: Pick<Deps, 'ids' | 'clock'>,
  s: CheckoutSession,
  name: N,
  data: EventPayload<N>,
) => newEvent(deps, s.tenant, name, data);

/**
 * Moves an open session to complete or expired with its event. A concurrent change is read again:
 * whoever closes it first wins, and the loser answers the session as the winner left it, so a
 * session completes (and emits checkout.session.completed) exactly once.
 */
async function close(
  deps: CloseDeps,
  session: CheckoutSession,
  build: (s: CheckoutSession, at: string) => { next: CheckoutSession; events: DomainEvent[] },
): Promise<{ session: CheckoutSession; changed: boolean }> {
  let current = session;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (current.status !== 'open') return { session: current, changed: false };
    const { next, events } = build(current, deps.clock.now().toISOString());
    try {
      await deps.sessions.close(next, current, events);
      return { session: next, changed: true };
    } catch (error) {
      if (!isConflict(error, 'changed')) throw error;
      current = (await deps.sessions.get(current.id)) ?? current;
    }
  }
  throw new ConflictError('The checkout session is busy; try again', 'concurrent_update', {
    reason: 'contended',
  });
}

/** The session completes with its payment (null for a trial) and the subscription it started, if any. */
function completion(deps: CloseDeps, transactionId: number | null, subscriptionId: number | null) {
  return (s: CheckoutSession, at: string) => {
    const next: CheckoutSession = {
      ...s,
      status: 'complete',
      transactionId,
      subscriptionId,
      completedAt: at,
      updatedAt: at,
      version: s.version + 1,
    };
    return { next, events: [eventOf(deps, next, 'checkout.session.completed', completedData(next))] };
  };
}

const completionBy = (deps: CloseDeps, t: Transaction) =>
  completion(deps, t.id, t.recurring?.subscriptionId ?? null);

/**
 * A payment of the session was confirmed: the session completes with it, once. Called right after a
 * card approval and after a provider's paid notification; the expiry job calls it too, as the
 * backstop for a crash between the payment and the completion.
 */
export async function completeWithTransaction(deps: CloseDeps, t: Transaction) {
  if (!t.checkoutSessionId || !PAID.includes(t.status)) return null;
  return completeSessionWith(deps, await deps.sessions.get(t.checkoutSessionId), t);
}

/** completeWithTransaction on the session as the caller just read it. */
export async function completeSessionWith(deps: CloseDeps, session: CheckoutSession | null, t: Transaction) {
  if (!PAID.includes(t.status) || !session || session.id !== t.checkoutSessionId) return null;
  if (!sameTenant(session.tenant, t.tenant)) return null;
  if (!session.payments.some((p) => p.transactionId === t.id)) return null;
  const { session: after, changed } = await close(deps, session, completionBy(deps, t));
  if (changed) await letGoOfOtherPayments(deps, after);
  return after;
}

/**
 * A subscription started with a trial (nothing charged): the session completes with it, once.
 * Answers the session as it is afterwards; one closed meanwhile keeps what closed it.
 */
export async function completeWithSubscription(
  deps: CloseDeps,
  session: CheckoutSession,
  subscription: Subscription,
) {
  return (await close(deps, session, completion(deps, null, subscription.id))).session;
}

/**
 * A session with a price that completed leaves nothing else payable: its other pending pix are
 * canceled and the subscriptions they started (waiting for them) canceled too, so one session never
 * starts two subscriptions. A one-off session keeps its old behaviour (nothing is touched).
 */
async function letGoOfOtherPayments(deps: CloseDeps, session: CheckoutSession) {
  if (!session.price || session.payments.length < 2) return;
  const others = (await paymentsOf(deps, session)).filter((t) => t.id !== session.transactionId);
  await cancelPending(deps, session, others, 'throw');
}

/** The session's payments as stored now (a payment whose transaction never got written is skipped). */
async function paymentsOf(deps: CloseDeps, s: CheckoutSession): Promise<Transaction[]> {
  const out: Transaction[] = [];
  for (const p of s.payments) {
    const t = await deps.transactions.get(s.tenant, p.transactionId);
    if (t) out.push(t);
  }
  return out;
}

/**
 * What a payment that cannot be canceled does: `throw` fails a job (its retry, or the expiry job,
 * finishes the work); `report` lets a seller's expire call answer, the session being expired
 * either way and its expiry job retrying what the provider refused.
 */
type CancelFailure = 'throw' | 'report';

/**
 * Expired sessions leave nothing payable: each pending pix or boleto is canceled at the provider
 * and moved to `cancel`. Safe to repeat (a canceled one is skipped).
 */
async function cancelPending(
  deps: CloseDeps,
  s: CheckoutSession,
  transactions: Transaction[],
  onFailure: CancelFailure,
) {
  for (const t of transactions) {
    if (!canApply('cancel', t.status)) continue;
    try {
      await deps.payments.forEnvironment(t.tenant.environment).cancel(t.gatewayPayId);
      await transition(deps, t, 'cancel');
    } catch (error) {
      if (onFailure === 'throw') throw error;
      deps.reporter.error('could not cancel a session payment', error, { id: t.id });
    }
  }
  if (s.price) await dropWaitingSubscriptions(deps, s, transactions);
  return s;
}

/**
 * Expires an open session (by call or by time). A payment already confirmed completes it instead:
 * the money came in first. Answers whether this call expired it.
 */
async function expire(deps: CloseDeps, session: CheckoutSession, onFailure: CancelFailure) {
  const transactions = await paymentsOf(deps, session);
  const paid = transactions.find((t) => PAID.includes(t.status));
  if (paid) {
    // The backstop of a crash between a first payment's sale and its subscription's start.
    await startFirstPeriod(deps, paid, session).catch((error) =>
      deps.reporter.error('could not start the subscription of a paid session', error, { id: session.id }),
    );
    const done = await close(deps, session, completionBy(deps, paid));
    return { session: done.session, expired: false };
  }
  const result = await close(deps, session, (s, at) => {
    const next: CheckoutSession = {
      ...s,
      status: 'expired',
      expiredAt: at,
      updatedAt: at,
      version: s.version + 1,
    };
    return { next, events: [eventOf(deps, next, 'checkout.session.expired', expiredData(next))] };
  });
  if (result.session.status === 'expired') await cancelPending(deps, result.session, transactions, onFailure);
  return { session: result.session, expired: result.changed && result.session.status === 'expired' };
}

/** POST /api/checkout/sessions/{id}/expire: only an open session; 409 otherwise (spec). */
export async function expireSession(deps: CloseDeps & { publicBaseUrl: string }, tenant: Tenant, id: string) {
  const session = await findSession(deps, tenant, id);
  if (session.status !== 'open') throw new ConflictError(SESSION_CANNOT_BE_EXPIRED, 'session_not_open');
  const { session: after, expired } = await expire(deps, session, 'report');
  if (!expired) throw new ConflictError(SESSION_CANNOT_BE_EXPIRED, 'session_not_open');
  return { data: toSessionView(after, deps.publicBaseUrl) };
}

/**
 * Job: the session's time is up. Expires it if still open (or completes it with a payment that was
 * confirmed); for an already expired session it cancels whatever is still pending, so a retry after
 * a failed provider call finishes the work. Firing twice changes nothing more.
 */
export async function expireSessionJob(deps: CloseDeps, id: string) {
  const session = await deps.sessions.get(id);
  if (!session) return { skipped: 'missing' };
  if (session.status === 'complete') return { skipped: 'complete' };
  if (session.status === 'expired') {
    await cancelPending(deps, session, await paymentsOf(deps, session), 'throw');
    return { skipped: 'expired' };
  }
  if (Date.parse(session.expiresAt) > deps.clock.now().getTime()) return { skipped: 'not due' };
  const { session: after } = await expire(deps, session, 'throw');
  return { [after.status]: after.id };
}

/** How far back the heartbeat looks for session expiries a schedule missed. */
export const SESSION_SWEEP_HOURS = 6;

/** The heartbeat's backstop of the one-time expiry schedules. */
export async function sweepSessionExpiries(deps: CloseDeps) {
  const due = await deps.sessions.dueExpiries(deps.clock.now(), SESSION_SWEEP_HOURS);
  let processed = 0;
  for (const id of due) {
    try {
      await expireSessionJob(deps, id);
      processed += 1;
    } catch (error) {
      deps.reporter.error('could not expire a checkout session', error, { id });
    }
  }
  return { due: due.length, processed };
}
