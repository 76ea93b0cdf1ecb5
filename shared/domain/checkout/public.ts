import type * as z from 'zod';
import {
  type CardAttempt,
  type CardClient,
  type CardGuardDeps,
  guardCardAttempt,
} from '#shared/domain/card-testing/guard';
import type { Deps } from '#shared/domain/deps';
import { cpfCheckDigits, normalizeDocument } from '#shared/domain/documents';
import type { SandboxOperations, SubscriptionRepository } from '#shared/domain/ports';
import type { Product } from '#shared/domain/products/products';
import { sameTenant, type Tenant } from '#shared/domain/tenant';
import {
  type CreateDeps,
  type CreateTransactionInput,
  createSale,
  createSaleKeepingCard,
  type SaleContext,
} from '#shared/domain/transactions/create';
import { PAID, PENDING } from '#shared/domain/transactions/transaction';
import { NotFoundError, ValidationError } from '#shared/errors';
import { looksLikeUuid } from '#shared/ids';
import { centavosToReais } from '#shared/money';
import { parseInput } from '#shared/validation';
import { sessionAfterSale } from './attempts';
import { notOpen, outcomeOf, type PaymentOutcome } from './outcome';
import { emptyCustomer, type PayCheckoutInput, payCheckoutSchema, type testPaySchema } from './schemas';
import {
  CHECKOUT_NOT_FOUND,
  type CheckoutMethod,
  type CheckoutSession,
  productUuidOfSessionId,
  SESSION_ID_PREFIX,
  type SessionCustomer,
  successUrlOf,
  toSessionPriceView,
} from './session';
import { type CloseDeps, completeWithTransaction, findSession, getSession, methodsOf } from './sessions';
import { paySubscription, type SubscribeDeps } from './subscribe';

export type { CheckoutMethod, PaymentOutcome };

export const PAYMENT_NOT_FOUND = 'Payment not found';

export interface CheckoutView {
  kind: 'product' | 'session';
  ref: string;
  state: 'open' | 'complete' | 'expired' | 'unavailable';
  unavailableReason: 'inactive' | 'not_for_sale' | null;
  environment: 'test' | 'live';
  product: {
    uuid: string;
    name: string;
    description: string | null;
    image: string | null;
    value: number;
    methods: CheckoutMethod[];
    maxInstallments: number;
  };
  /** The subscription price a session sells (the page shows it instead of the product's value). */
  price: ReturnType<typeof toSessionPriceView> | null;
  customer: SessionCustomer;
  successUrl: string | null;
  cancelUrl: string | null;
  expiresAt: string | null;
  payment: PaymentOutcome | null;
  /** The seller's business profile: the name, logo and colour the page shows. */
  seller: { name: string; logoUrl: string | null; brandColor: string | null };
}

export type CheckoutViewDeps = Pick<Deps, 'sessions' | 'products' | 'transactions' | 'clock' | 'team'>;

export type PublicCheckoutDeps = CreateDeps & CloseDeps & SubscribeDeps;

interface Target {
  session: CheckoutSession | null;
  product: Product;
}

/**
 * A page reference: a session id (`cs_…`) or a product's uuid (its payment link). A session id
 * carries its product's uuid: the two are read together. One made before ids carried the uuid reads
 * the session, then the product.
 */
async function resolve(deps: Pick<Deps, 'sessions' | 'products'>, ref: string): Promise<Target> {
  if (ref.startsWith(SESSION_ID_PREFIX)) {
    const productUuid = productUuidOfSessionId(ref);
    const [session, named] = await Promise.all([
      deps.sessions.get(ref),
      productUuid ? deps.products.findByUuid(productUuid) : null,
    ]);
    if (!session) throw new NotFoundError(CHECKOUT_NOT_FOUND);
    // The session names its product; the uuid in its id is only where to look first.
    const product =
      named && sameTenant(named.tenant, session.tenant) && named.id === session.productId
        ? named
        : await deps.products.get(session.tenant, session.productId);
    if (!product) throw new NotFoundError(CHECKOUT_NOT_FOUND);
    return { session, product };
  }
  if (!looksLikeUuid(ref)) throw new NotFoundError(CHECKOUT_NOT_FOUND);
  const product = await deps.products.findByUuid(ref.toLowerCase());
  if (!product) throw new NotFoundError(CHECKOUT_NOT_FOUND);
  return { session: null, product };
}

/** The document a payment's buyer sends, as the sale reads it (its validation comes with the sale). */
const documentSent = (customer: Record<string, unknown>) =>
  typeof customer.document === 'string' ? normalizeDocument(customer.document) : '';

function stateOf({ session, product }: Target, now: Date): Pick<CheckoutView, 'state' | 'unavailableReason'> {
  if (session?.status === 'complete') return { state: 'complete', unavailableReason: null };
  if (session && (session.status === 'expired' || Date.parse(session.expiresAt) <= now.getTime()))
    return { state: 'expired', unavailableReason: null };
  if (!product.isActive) return { state: 'unavailable', unavailableReason: 'inactive' };
  // A product priced 0 sells through its subscription prices only.
  if (product.value === 0 && !session?.price)
    return { state: 'unavailable', unavailableReason: 'not_for_sale' };
  return { state: 'open', unavailableReason: null };
}

function methodsFor({ session, product }: Target): CheckoutMethod[] {
  const accepted = methodsOf(product);
  return session ? session.paymentMethods.filter((m) => accepted.includes(m)) : accepted;
}

/** GET /api/public/checkout/{ref}, and what the hosted page renders. */
export async function checkoutView(deps: CheckoutViewDeps, ref: string): Promise<CheckoutView> {
  const target = await resolve(deps, ref);
  const { session, product } = target;
  const last = session?.payments.at(-1);
  const [latest, [profile]] = await Promise.all([
    session && last ? deps.transactions.get(session.tenant, last.transactionId) : null,
    deps.team.profiles([product.tenant.sellerId]),
  ]);
  const state = stateOf(target, deps.clock.now());
  const buyerShown = state.state === 'open';
  const payment = latest && session ? await outcomeOf(latest, session) : null;
  return {
    kind: session ? 'session' : 'product',
    ref: session ? session.id : product.uuid,
    ...state,
    environment: product.tenant.environment,
    product: {
      uuid: product.uuid,
      name: product.name,
      description: product.description,
      image: product.image || null,
      value: centavosToReais(product.value),
      methods: methodsFor(target),
      // A subscription is charged in one installment, at the start and at each renewal.
      maxInstallments: session?.price ? 1 : product.installments,
    },
    price: session?.price ? toSessionPriceView(session.price) : null,
    customer: session && buyerShown ? session.customer : emptyCustomer(),
    successUrl: session ? successUrlOf(session) : null,
    cancelUrl: session?.cancelUrl ?? null,
    expiresAt: session?.expiresAt ?? null,
    payment: payment && !buyerShown ? withoutBuyer(payment) : payment,
    seller: {
      name: profile?.name ?? '',
      logoUrl: profile?.logoUrl ?? null,
      brandColor: profile?.brandColor ?? null,
    },
  };
}

/**
 * Anyone holding a session's id (a shared link, a browser history, a log) reads its public answers.
 * While the session is open they prefill the page for its buyer; once it is complete or expired
 * nobody needs the buyer's data there any more, so they carry none of it (the seller's
 * authenticated read keeps it).
 */
const withoutBuyer = (payment: PaymentOutcome): PaymentOutcome => ({ ...payment, card: null });

/** What a card payment is guarded with: the public route's card-testing guard, or nothing. */
type CardGate = (
  attempt: Omit<CardAttempt, 'client'>,
  pay: () => Promise<PaymentOutcome>,
) => Promise<PaymentOutcome>;

/**
 * POST /api/public/checkout/{ref}/pay: the hosted page's payment. A card goes through the
 * card-testing guard (card-testing/guard.ts) before the provider sees it.
 */
export async function payCheckoutAsBuyer(
  deps: PublicCheckoutDeps & CardGuardDeps,
  ref: string,
  body: PayCheckoutInput,
  client: CardClient,
) {
  return payTarget(deps, ref, body, (attempt, pay) =>
    guardCardAttempt(deps, { ...attempt, client }, pay, (outcome) => outcome.status === 'declined'),
  );
}

/** The hosted page's payment as the sandbox helper walks it, for its authenticated seller. */
export async function payCheckout(deps: PublicCheckoutDeps, ref: string, body: PayCheckoutInput) {
  return payTarget(deps, ref, body, (_attempt, pay) => pay());
}

async function payTarget(deps: PublicCheckoutDeps, ref: string, body: PayCheckoutInput, gate: CardGate) {
  const input = parseInput(payCheckoutSchema, body);
  // The buyer is read with the session and its product: the sale reads nothing more.
  const document = documentSent(input.customer);
  const [target, buyer] = await Promise.all([resolve(deps, ref), deps.customers.findBuyer(document)]);
  const { state } = stateOf(target, deps.clock.now());
  if (state !== 'open') throw notOpen(state);
  const methods = methodsFor(target);
  const method = input.paymentMethod as CheckoutMethod;
  if (!methods.includes(method))
    throw new ValidationError([`paymentMethod must be one of: ${methods.join(', ')}`]);
  const { session, product } = target;
  const request: CreateTransactionInput = {
    productId: product.uuid,
    paymentMethod: method === 'card' ? 'creditcard' : method,
    customer: input.customer,
    installments: input.installments,
    // Card numbers arrive as typed (grouped by spaces); they are never stored or logged.
    card: input.card ? { ...input.card, number: input.card.number.replace(/[\s-]/g, '') } : undefined,
    metadata: session && Object.keys(session.metadata).length > 0 ? session.metadata : undefined,
    saveCard: method === 'card' ? input.saveCard : undefined,
  };
  const preread = { product, buyer, document };
  const pay = () => sell(deps, session, method, request, preread);
  if (!request.card) return pay();
  const on = session
    ? { scope: 'session' as const, id: session.id }
    : { scope: 'link' as const, id: product.uuid };
  return gate({ tenant: product.tenant, on, card: request.card }, pay);
}

async function sell(
  deps: PublicCheckoutDeps,
  session: CheckoutSession | null,
  method: CheckoutMethod,
  request: CreateTransactionInput,
  preread: SaleContext['preread'],
): Promise<PaymentOutcome> {
  if (!session) return outcomeOf(await createSale(deps, request, { preread }), null);
  const context: SaleContext = {
    preread,
    checkoutSessionId: session.id,
    clientReferenceId: session.clientReferenceId,
    sessionAffiliateId: session.affiliateId,
    notAfter: session.expiresAt,
  };
  if (session.price) return paySubscription(deps, session, request, context);
  // The payment is recorded on the session in the sale's own write, at the time of that write
  // (after the provider charged), as recordPayment records it.
  const sale = await createSaleKeepingCard(deps, request, { ...context, recordOnSession: method });
  const t = sale.transaction;
  let after = await sessionAfterSale(deps, session, sale, method);
  if (PAID.includes(t.status)) after = (await completeWithTransaction(deps, t)) ?? after;
  return outcomeOf(t, after);
}

/** GET /api/public/checkout/{ref}/payments/{paymentId}: what the page polls while a payment is pending. */
export async function checkoutPayment(
  deps: CheckoutViewDeps & CloseDeps & { subscriptions: Pick<SubscriptionRepository, 'get'> },
  ref: string,
  paymentId: string,
) {
  const { session, product } = await resolve(deps, ref);
  const t = looksLikeUuid(paymentId) ? await deps.transactions.findByUuid(paymentId.toLowerCase()) : null;
  const belongs =
    t &&
    (session
      ? session.payments.some((p) => p.transactionId === t.id) && t.checkoutSessionId === session.id
      : t.product.uuid === product.uuid && t.checkoutSessionId === null);
  if (!t || !belongs) throw new NotFoundError(PAYMENT_NOT_FOUND);
  // A confirmed payment whose session has not caught up yet completes it now (idempotent).
  const current =
    session && PAID.includes(t.status) ? ((await completeWithTransaction(deps, t)) ?? session) : session;
  const subscription = t.recurring
    ? await deps.subscriptions.get(t.tenant, t.recurring.subscriptionId)
    : null;
  const outcome = await outcomeOf(t, current, subscription);
  const closed = current && stateOf({ session: current, product }, deps.clock.now()).state !== 'open';
  return closed ? withoutBuyer(outcome) : outcome;
}

/** The session's prefill as the buyer data of a payment (fields the seller left out stay out). */
function prefillOf(session: CheckoutSession): Record<string, string> {
  return Object.fromEntries(Object.entries(session.customer).filter(([, v]) => v !== null)) as Record<
    string,
    string
  >;
}

/** FNV-1a: a stable 32-bit number of a text (not a secret: it only spreads test buyers apart). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const char of text) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193) >>> 0;
  return hash;
}

/** A valid CPF of the sandbox, the same for the same `seed` (its 9-digit base never starts with 0). */
function testCpf(seed: string): string {
  const base = String(100_000_000 + (fnv1a(seed) % 900_000_000));
  return `${base}${cpfCheckDigits(base)}`;
}

/**
 * The buyer of a sandbox payment, as a tester fills the page: what the caller sent (or the session's
 * prefill), and a test buyer's value for every field left out (a name, an e-mail of the session, a
 * CPF, a phone). The CPF comes from the e-mail, so one test buyer keeps one CPF across sessions and
 * two different e-mails never share one (a CPF names one person: docs/decisions.md, "Customers").
 */
export function withTestBuyer(given: Record<string, unknown>, sessionId: string): Record<string, unknown> {
  const present = (field: string) =>
    typeof given[field] === 'string' && (given[field] as string).trim() !== '';
  const email = present('email')
    ? (given.email as string)
    : `sandbox+${fnv1a(sessionId).toString(36)}@example.com`;
  return {
    ...given,
    name: present('name') ? given.name : 'Cliente Sandbox',
    email,
    document: present('document') ? given.document : testCpf(email.trim().toLowerCase()),
    phone: present('phone') ? given.phone : '11999999999',
  };
}

/** An approving sandbox test card, used when the helper's caller sends none. */
const APPROVED_TEST_CARD = {
  number: '4111111111111111',
  holderName: 'CLIENTE SANDBOX',
  expiryMonth: 12,
  expiryYear: 2099,
  cvv: '123',
};

/**
 * POST /api/test-helpers/checkout/sessions/{id}/pay: walks the page's path without a browser. A
 * card is paid as the page pays it; pix and boleto pay the page's pending payment of that method
 * (creating one first when there is none) through the sandbox's signed notification. The buyer is
 * the caller's or the session's prefill, completed with a test buyer (withTestBuyer).
 */
export async function payTestSession(
  deps: PublicCheckoutDeps & { sandbox: SandboxOperations; publicBaseUrl: string },
  tenant: Tenant,
  id: string,
  body: z.output<typeof testPaySchema>,
) {
  const session = await findSession(deps, tenant, id);
  const method = body.paymentMethod as CheckoutMethod;
  const customer = withTestBuyer(body.customer ?? prefillOf(session), session.id);
  if (method === 'card') {
    await payCheckout(deps, session.id, {
      paymentMethod: 'card',
      customer,
      installments: body.installments,
      card: body.card ?? APPROVED_TEST_CARD,
      saveCard: body.save_card,
    });
  } else {
    const pending = await pendingPaymentOf(deps, session, method);
    const paymentId = pending
      ? null
      : (await payCheckout(deps, session.id, { paymentMethod: method, customer })).paymentId;
    const t = pending ?? (paymentId ? await deps.transactions.findByUuid(paymentId) : null);
    if (t) await deps.sandbox.simulate(t.gatewayPayId, 'pay');
  }
  return getSession(deps, tenant, id);
}

async function pendingPaymentOf(deps: CloseDeps, session: CheckoutSession, method: CheckoutMethod) {
  for (const p of [...session.payments].reverse()) {
    if (p.method !== method) continue;
    const t = await deps.transactions.get(session.tenant, p.transactionId);
    if (t && PENDING.includes(t.status)) return t;
  }
  return null;
}
