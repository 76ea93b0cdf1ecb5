import * as z from 'zod';
import { addDays, daysBetween, isCalendarDate, saoPauloDate } from '#shared/dates';
import {
  affiliateSale,
  findActiveAffiliation,
  requireActiveAffiliation,
} from '#shared/domain/affiliates/index';
import {
  attemptIdOf,
  pendingAttempt,
  reconcileDueAt,
  reconcileJobOf,
  type SaleAttempt,
  type SalePlan,
} from '#shared/domain/attempts/attempt';
import type { CheckoutMethod, SessionPayment } from '#shared/domain/checkout/session';
import {
  type BuyerRecords,
  type BuyerState,
  buyerStateOf,
  recordBuyer,
} from '#shared/domain/customers/buyer';
import type { SaleCustomer } from '#shared/domain/customers/customer';
import { createCustomerSchema, saleCustomerField } from '#shared/domain/customers/schemas';
import type { Deps } from '#shared/domain/deps';
import { documentKind, normalizeDocument } from '#shared/domain/documents';
import { scheduleAtDue } from '#shared/domain/due-schedule';
import { type DomainEvent, type EventName, type EventPayload, newEvent } from '#shared/domain/events/events';
import { jobId } from '#shared/domain/job-id';
import type { PaymentMethodView } from '#shared/domain/payment-methods/payment-method';
import { saveCard } from '#shared/domain/payment-methods/save-card';
import { luhnValid } from '#shared/domain/payments/cards';
import {
  type ChargeLookupHint,
  type ChargeResult,
  PROVIDER_NOT_CONFIGURED,
  type RecurringConsent,
} from '#shared/domain/payments/gateway';
import {
  lateChargeFields,
  namesLateCharges,
  readLateChargeDefaults,
  resolveLateCharges,
} from '#shared/domain/payments/late-charge-settings';
import { methodField } from '#shared/domain/payments/method-names';
import { providerReady } from '#shared/domain/payments/provider-ready';
import type { Product } from '#shared/domain/products/products';
import {
  BadRequestError,
  isConflict,
  NotFoundError,
  ServiceUnavailableError,
  ValidationError,
} from '#shared/errors';
import { UUID_SHAPE } from '#shared/ids';
import { describeIssue, metadataSchema, parseInput, textField } from '#shared/validation';
import { buyerIpOf, cardHolderContact } from './card-holder';
import { EXPIRY_JOB } from './expiry-job';
import {
  paymentSucceededData,
  sellerNet,
  type Transaction,
  type TransactionRecurrence,
  toEventData,
  toTransactionView,
} from './transaction';

/** Pix charges stop being payable after this, unless the request asks otherwise (Stripe: 10 s to 14 days). */
export const DEFAULT_PIX_EXPIRY_SECONDS = 86_400;
export const DEFAULT_BOLETO_DAYS = 3;
export { EXPIRY_JOB };

export const createTransactionSchema = z
  .object({
    productId: z.string().regex(UUID_SHAPE, 'productId must be the product uuid'),
    paymentMethod: methodField(['pix', 'boleto', 'creditcard']),
    customer: saleCustomerField,
    installments: z.number().int().min(1).max(12).optional(),
    card: z
      .object({
        number: z.string().regex(/^\d{12,19}$/, 'card.number must be 12 to 19 digits'),
        holderName: textField('card.holderName', { max: 100, trim: true }),
        expiryMonth: z.number().int().min(1).max(12),
        expiryYear: z.number().int().min(2000).max(2100),
        cvv: z.string().regex(/^\d{3,4}$/, 'card.cvv must be 3 or 4 digits'),
      })
      .strict()
      .optional(),
    boletoDueDate: z.string().optional(),
    pixExpiresInSeconds: z
      .number()
      .int()
      .min(10)
      .max(14 * 86_400)
      .optional(),
    metadata: metadataSchema.optional(),
    /** Card only: keep the approved card as the customer's payment method (the vault). */
    saveCard: z.boolean().optional(),
    /** The seller id of an affiliate with an active affiliation on the product. */
    affiliateId: z.number().int().positive().optional(),
    /** Boleto only, from the product's seller (its API key): else the product's, then the seller's settings. */
    ...lateChargeFields,
  })
  .strict();

export type CreateTransactionInput = z.output<typeof createTransactionSchema>;

/** What a sale made through a checkout session adds to the request. */
export interface SaleContext {
  /**
   * The product and what is stored of the buyer, when the caller read them already (the checkout
   * reads them with its session): used when they are the request's product and buyer's document.
   */
  preread?: { product: Product; buyer: BuyerRecords; document: string };
  /**
   * The payment is recorded on the session (`checkoutSessionId`) as this method, in the sale's own
   * write. A session no longer open by then (ConflictError `invalid_state`) gets nothing: the sale
   * is written without it, and the caller undoes the payment.
   */
  recordOnSession?: CheckoutMethod;
  checkoutSessionId?: string;
  clientReferenceId?: string | null;
  /**
   * The session's affiliate: credited while the affiliation is active. One the seller ended after
   * creating the session earns nothing, and the buyer can still pay (docs/decisions.md).
   */
  sessionAffiliateId?: number | null;
  /** A pix charge of a session stops being payable no later than the session does. */
  notAfter?: string;
  /**
   * What is charged instead of the product's value: a subscription price's amount. A product priced
   * 0 sells this way (through its prices only).
   */
  amountCentavos?: number;
  /** The charge is a subscription's (its first payment): stored on the transaction. */
  recurring?: TransactionRecurrence;
  /** Card only: keep the card whatever the buyer chose (a subscription renews on it). */
  forceSaveCard?: boolean;
  /** Pix only: the QR code also carries a Pix Automático consent for the renewals. */
  recurringConsent?: RecurringConsent;
}

/**
 * What a sale takes. `buyerIp`: the IP address of the request, when it is the buyer's (a card
 * payment's `remoteIp`); `retryKey`: the request's idempotency claim (its scope, key and body), which
 * names the sale's attempt so a retry finds it.
 */
export type CreateDeps = Pick<
  Deps,
  | 'products'
  | 'portalConfigs'
  | 'transactions'
  | 'attempts'
  | 'affiliations'
  | 'paymentMethods'
  | 'customers'
  | 'sessions'
  | 'atomically'
  | 'payments'
  | 'scheduler'
  | 'clock'
  | 'ids'
  | 'reporter'
> & { buyerIp?: string; retryKey?: string };

/** The buyer, validated exactly as POST /api/v1/customers validates, with messages under `customer.`. */
function parseBuyer(raw: Record<string, unknown>) {
  const document = typeof raw.document === 'string' ? normalizeDocument(raw.document) : '';
  const personType = documentKind(document) === 'cnpj' ? 'juridica' : 'fisica';
  const result = createCustomerSchema.safeParse({ ...raw, personType }, { reportInput: true });
  if (result.success) return result.data;
  throw new ValidationError([
    ...new Set(result.error.issues.map((i) => describeIssue({ ...i, path: ['customer', ...i.path] }))),
  ]);
}

/** Rules that need the product: methods it accepts, installments it allows, a price to sell. */
function checkAgainstProduct(
  product: Product | null,
  input: CreateTransactionInput,
  context: SaleContext,
): Product {
  if (!product || !product.isActive) throw new NotFoundError('Product not found');
  if (product.value === 0 && context.amountCentavos === undefined) {
    throw new BadRequestError('This product has no price and cannot be sold', 'product_not_for_sale');
  }
  const accepted = { pix: product.pix, boleto: product.boleto, creditcard: product.creditCard }[
    input.paymentMethod
  ];
  if (!accepted)
    throw new BadRequestError(`This product does not accept ${input.paymentMethod}`, 'method_not_accepted');
  if (input.paymentMethod === 'creditcard') {
    if (!input.card) throw new ValidationError(['card is required for creditcard payments']);
    if (!luhnValid(input.card.number)) throw new ValidationError(['card.number is not a valid card number']);
    const installments = input.installments ?? 1;
    if (installments > product.installments) {
      throw new ValidationError([`installments must be at most ${product.installments} for this product`]);
    }
  } else {
    if (input.card) throw new ValidationError([`card must not be sent for ${input.paymentMethod} payments`]);
    if (input.saveCard) throw new ValidationError(['saveCard applies to creditcard payments only']);
    if (input.installments !== undefined && input.installments !== 1) {
      throw new ValidationError(['installments apply to creditcard payments only']);
    }
  }
  return product;
}

function boletoDueDate(input: CreateTransactionInput, today: string): string | undefined {
  if (input.paymentMethod !== 'boleto') return undefined;
  if (input.boletoDueDate === undefined) return addDays(today, DEFAULT_BOLETO_DAYS);
  if (!isCalendarDate(input.boletoDueDate))
    throw new ValidationError(['boletoDueDate must be a date YYYY-MM-DD']);
  const days = daysBetween(today, input.boletoDueDate);
  if (days < 0 || days > 180)
    throw new ValidationError(['boletoDueDate must be from today to 180 days ahead']);
  return input.boletoDueDate;
}

/** An affiliate named by the API must be active (400 naming affiliateId); a session's may have ended. */
async function affiliationOf(
  deps: CreateDeps,
  product: Product,
  input: CreateTransactionInput,
  context: SaleContext,
) {
  if (input.affiliateId !== undefined)
    return requireActiveAffiliation(deps, product.tenant, product.id, input.affiliateId, 'affiliateId');
  if (context.sessionAffiliateId)
    return findActiveAffiliation(deps, product.tenant, product.id, context.sessionAffiliateId);
  return null;
}

function pixExpiry(now: Date, input: CreateTransactionInput, context: SaleContext): string {
  const own = now.getTime() + (input.pixExpiresInSeconds ?? DEFAULT_PIX_EXPIRY_SECONDS) * 1000;
  const cap = context.notAfter ? Date.parse(context.notAfter) : own;
  return new Date(Math.min(own, cap)).toISOString();
}

/** The events of a new transaction (a sale's, a subscription charge's). */
export function eventsOf(deps: Pick<CreateDeps, 'ids' | 'clock'>, t: Transaction): DomainEvent[] {
  const event = <N extends EventName>(name: N, data: EventPayload<N>) => newEvent(deps, t.tenant, name, data);
  const events = [event('transaction.created', toEventData(t))];
  if (t.status === 'captured') events.push(event('transaction.payment.succeeded', paymentSucceededData(t)));
  if (t.status === 'denied') {
    const failed = { ...toEventData(t), failureCode: t.failureCode as string };
    events.push(event('transaction.payment.failed', failed), event('transaction.failed', failed));
  }
  return events;
}

/** A provider's answer as the new transaction's status. */
export function statusOf(result: ChargeResult, method: Transaction['paymentMethod']): Transaction['status'] {
  if (result.outcome === 'pending') return method === 'pix' ? 'pendingPix' : 'pendingBoleto';
  return result.outcome === 'approved' ? 'captured' : 'denied';
}

/**
 * Everything a sale can be refused for, checked before anything is written: the request (metadata
 * included, not only by the route's parse: nothing a caller sends may fail after the customer is
 * written), the buyer, the product and its methods, a ready provider, the dates, the affiliate.
 */
export async function checkSale(
  deps: CreateDeps,
  request: CreateTransactionInput,
  context: SaleContext = {},
) {
  const input = parseInput(createTransactionSchema, request);
  const buyer = parseBuyer(input.customer);
  const uuid = input.productId.toLowerCase();
  const pre = context.preread;
  const known = pre && pre.product.uuid === uuid && pre.document === buyer.document ? pre : undefined;
  const [found, records] = known
    ? [known.product, known.buyer]
    : await Promise.all([deps.products.findByUuid(uuid), deps.customers.findBuyer(buyer.document)]);
  const product = checkAgainstProduct(found, input, context);
  const provider = deps.payments.forEnvironment(product.tenant.environment);
  if (!(await providerReady(provider, product.tenant)))
    throw new ServiceUnavailableError(PROVIDER_NOT_CONFIGURED, 'provider_not_configured');
  const now = deps.clock.now();
  const dueDate = boletoDueDate(input, saoPauloDate(now));
  const expiresAt = input.paymentMethod === 'pix' ? pixExpiry(now, input, context) : undefined;
  const affiliation = await affiliationOf(deps, product, input, context);
  const buyerState = buyerStateOf(records, product.tenant);
  const lateCharges = await lateChargesOf(deps, input, product, dueDate);
  return { input, buyer, buyerState, product, provider, now, dueDate, expiresAt, affiliation, lateCharges };
}

/** A boleto's terms: the request's (the seller's own call, sellAs), else the product's, then the seller's. */
async function lateChargesOf(
  deps: CreateDeps,
  input: CreateTransactionInput,
  product: Product,
  dueDate: string | undefined,
) {
  if (!dueDate) {
    if (namesLateCharges(input))
      throw new ValidationError(['fine, interest and discounts apply to boleto payments only']);
    return null;
  }
  const defaults = await readLateChargeDefaults(deps, product.tenant, { id: product.id });
  return resolveLateCharges(input, defaults, { amount: product.value, dueDate });
}

/**
 * The buyer's checkout creates a transaction. Order matters for "no partial write": everything
 * that can be refused is checked first; then the pending attempt is written; then the provider
 * charges under the attempt's reference; then the transaction, its events, the buyer's customer when
 * it is new to the seller and the attempt's settle are one write. When that write fails, the attempt
 * stays pending and its reconciler records what the provider holds (docs/decisions.md, "Payment
 * attempts").
 */
export async function createTransaction(
  deps: CreateDeps,
  request: CreateTransactionInput,
  context: SaleContext = {},
) {
  return toTransactionView(await createSale(deps, request, context));
}

/** The sale itself, for callers that go on with the stored transaction (the checkout). */
export async function createSale(
  deps: CreateDeps,
  request: CreateTransactionInput,
  context: SaleContext = {},
): Promise<Transaction> {
  return (await createSaleKeepingCard(deps, request, context)).transaction;
}

/**
 * The sale's one write, all or nothing: the buyer's customer when it is new to the seller
 * (recordBuyer), the transaction with its counters and events, the payment on its checkout session
 * when asked, and the attempt settled. Answers the transaction, its buyer and the payment recorded
 * on the session (null when the session closed meanwhile: the sale is then written alone).
 */
async function writeSale(
  deps: CreateDeps,
  attempt: SaleAttempt,
  buyerState: BuyerState,
  sale: (customer: SaleCustomer, uuid: string) => Transaction,
) {
  const { plan, tenant } = attempt;
  // The transaction's uuid is drawn once, after a new buyer's own (the order of the ids as before).
  let uuid: string | undefined;
  const record = (onSession: CheckoutMethod | null) =>
    recordBuyer(deps, tenant, plan.buyer, buyerState, attempt.createdAt, async (customer) => {
      uuid ??= deps.ids.uuid();
      const t = sale(customer, uuid);
      await deps.transactions.create(t, eventsOf(deps, t));
      const payment = onSession && t.checkoutSessionId ? paymentOf(deps, t, onSession) : null;
      if (payment && t.checkoutSessionId)
        await deps.sessions.addPayment(t.checkoutSessionId, payment, payment.createdAt);
      await deps.attempts.settle(attempt, deps.clock.now().toISOString());
      return { t, payment };
    });
  try {
    return await record(plan.recordOnSession);
  } catch (error) {
    if (!(plan.recordOnSession && isConflict(error, 'invalid_state'))) throw error;
    return record(null);
  }
}

/** The session's record of a payment, at the time of the write (after the provider charged). */
const paymentOf = (
  deps: Pick<CreateDeps, 'clock'>,
  t: Transaction,
  method: CheckoutMethod,
): SessionPayment => ({
  transactionId: t.id,
  transactionUuid: t.uuid,
  method,
  createdAt: deps.clock.now().toISOString(),
});

export interface KeptSale {
  transaction: Transaction;
  paymentMethod: PaymentMethodView | null;
  sessionPayment: SessionPayment | null;
}

/**
 * The sale, and the payment method its approved card became when the card was saved (null when
 * it was not asked for, or could not be kept: the sale stands, reported).
 *
 * Written ahead (docs/decisions.md, "Payment attempts"): the pending attempt, with everything the
 * transaction is built from and the reference the charge carries, is written before the provider
 * is called; the transaction is written with the attempt settled. A crash, a timeout or a failed
 * write between the two leaves the attempt pending: its reconciler, or this request retried with
 * the same X-Idempotency-Key, records what the provider holds under the reference, and never
 * charges twice.
 */
export async function createSaleKeepingCard(
  deps: CreateDeps,
  request: CreateTransactionInput,
  context: SaleContext = {},
): Promise<KeptSale> {
  const checked = await checkSale(deps, request, context);
  const { input, buyer, provider, now } = checked;
  let { attempt, fresh } = await openAttempt(deps, checked, context);
  if (attempt.status === 'settled') return settledSale(deps, attempt);
  if (!fresh) {
    // A retry of a request that did not finish: what the provider holds under the reference, if anything.
    const held = await provider.lookupCharge(
      attempt.tenant,
      attempt.gatewayPayId,
      lookupHintOf(attempt.plan),
    );
    if (held) return recordSale(deps, attempt, held, checked.buyerState);
    if (attempt.status === 'voided')
      attempt = await deps.attempts.reopen(attempt, now.toISOString(), reconcileDueAt(now));
  }
  const { plan, tenant } = attempt;
  const card = plan.method === 'creditcard';
  // The provider sees the buyer as the request gives it, as the transaction keeps it.
  // A card's holder also gets the buyer's phone and any address we know of it.
  const holder = card ? { ...(await cardHolderContact(deps, tenant, buyer)), ...buyerIpOf(deps) } : {};
  const [result] = await Promise.all([
    provider.createCharge({
      tenant,
      transactionId: plan.transactionId,
      gatewayPayId: attempt.gatewayPayId,
      method: plan.method,
      amountCentavos: plan.value,
      installments: plan.installments,
      description: plan.product.name,
      customer: { name: buyer.name, document: buyer.document, email: buyer.email, ...holder },
      card: input.card,
      saveCard: plan.saveCard,
      dueDate: plan.dueDate ?? undefined,
      ...(plan.lateCharges ? { lateCharges: plan.lateCharges } : {}),
      expiresAt: plan.expiresAt ?? undefined,
      ...(plan.recurringConsent ? { recurringConsent: plan.recurringConsent } : {}),
    }),
    fresh ? scheduleReconcile(deps, attempt) : undefined,
  ]);
  return recordSale(deps, attempt, result, checked.buyerState);
}

/**
 * The sale's attempt: a new pending one written now with the reference the charge will carry, or,
 * when its id is taken, the one this request's first run wrote (the same X-Idempotency-Key, scope
 * and body).
 */
async function openAttempt(
  deps: CreateDeps,
  checked: CheckedSale,
  context: SaleContext,
): Promise<{ attempt: SaleAttempt; fresh: boolean }> {
  const { input, product, provider, now } = checked;
  const tenant = product.tenant;
  const id = attemptIdOf(deps.retryKey);
  // Written first and read only when the id is taken: a first request pays no read for its key
  // (a retry spends a transaction id and a reference it does not use).
  const value = context.amountCentavos ?? product.value;
  const [transactionId, gatewayPayId] = await Promise.all([
    deps.transactions.nextId(),
    provider.reserveReference(tenant, input.paymentMethod, value),
  ]);
  const attempt = pendingAttempt<SaleAttempt>(
    {
      id,
      tenant,
      kind: 'sale',
      provider: provider.provider,
      gatewayPayId,
      plan: planOf(checked, context, transactionId, value),
    },
    now,
  );
  try {
    await deps.attempts.create(attempt);
  } catch (error) {
    // The same request ran before (a retry after its lease or a crash): its attempt is the one.
    const found = isConflict(error) ? await deps.attempts.get(tenant, id) : null;
    if (found?.kind !== 'sale') throw error;
    return { attempt: found, fresh: false };
  }
  return { attempt, fresh: true };
}

type CheckedSale = Awaited<ReturnType<typeof checkSale>>;

/** Everything the transaction is built from that the request decided before the charge. */
function planOf(checked: CheckedSale, context: SaleContext, transactionId: number, value: number): SalePlan {
  const { input, buyer, product, dueDate, expiresAt, affiliation } = checked;
  const card = input.paymentMethod === 'creditcard';
  const installments = card ? (input.installments ?? 1) : 1;
  const split = affiliateSale(affiliation, sellerNet(input.paymentMethod, value, installments));
  return {
    transactionId,
    method: input.paymentMethod,
    value,
    valueSeller: split.valueSeller,
    affiliate: split.affiliate,
    installments,
    buyer,
    product: { id: product.id, uuid: product.uuid, name: product.name, value: product.value },
    dueDate: dueDate ?? null,
    ...(checked.lateCharges ? { lateCharges: checked.lateCharges } : {}),
    expiresAt: expiresAt ?? null,
    metadata: input.metadata ?? {},
    checkoutSessionId: context.checkoutSessionId ?? null,
    clientReferenceId: context.clientReferenceId ?? null,
    recordOnSession: context.recordOnSession ?? null,
    recurring: context.recurring ?? null,
    saveCard: card && (input.saveCard === true || context.forceSaveCard === true),
    recurringConsent: input.paymentMethod === 'pix' ? (context.recurringConsent ?? null) : null,
    cardExpiry: input.card ? { month: input.card.expiryMonth, year: input.card.expiryYear } : null,
  };
}

/** What a lookup at the provider needs to answer as the charge would have. */
export const lookupHintOf = (plan: SalePlan): ChargeLookupHint => ({
  method: plan.method,
  expiresAt: plan.expiresAt ?? undefined,
  saveCard: plan.saveCard,
  cardExpiry: plan.cardExpiry,
  recurringConsent: plan.recurringConsent,
  customerDocument: plan.buyer.document,
});

/** The reconciler's one-time schedule; a failure is reported, and the heartbeat's sweep is the backstop. */
function scheduleReconcile(deps: CreateDeps, attempt: SaleAttempt): Promise<void> {
  return scheduleAtDue(deps, reconcileJobOf(attempt), attempt.dueAt);
}

/** The transaction an attempt settled into, answered again (a retry after the sale was written). */
async function settledSale(deps: CreateDeps, attempt: SaleAttempt): Promise<KeptSale> {
  const t = await deps.transactions.get(attempt.tenant, attempt.plan.transactionId);
  if (!t) throw new Error(`attempt ${attempt.id} is settled without its transaction`);
  return { transaction: t, paymentMethod: null, sessionPayment: null };
}

/**
 * The sale as the provider answered it: the transaction written with the attempt settled, then what
 * follows it (the card kept, the pix expiry scheduled). The request and the reconciler both end
 * here; when the other settled first, its transaction is the answer.
 */
export async function recordSale(
  deps: CreateDeps,
  attempt: SaleAttempt,
  result: ChargeResult,
  knownBuyer?: BuyerState,
): Promise<KeptSale> {
  const { plan, tenant } = attempt;
  const buyerState = knownBuyer ?? buyerStateOf(await deps.customers.findBuyer(plan.buyer.document), tenant);
  const status = statusOf(result, plan.method);
  const at = attempt.createdAt;
  const sale = (customer: SaleCustomer, uuid: string): Transaction => ({
    id: plan.transactionId,
    uuid,
    tenant,
    provider: attempt.provider,
    gatewayPayId: result.gatewayPayId,
    status,
    paymentMethod: plan.method,
    value: plan.value,
    valueSeller: plan.valueSeller,
    installments: plan.installments,
    customer: {
      id: customer.id,
      uuid: customer.uuid,
      name: customer.name,
      email: customer.email,
      document: customer.document,
      phone: customer.phone,
    },
    product: plan.product,
    pix: result.outcome === 'pending' ? (result.pix ?? null) : null,
    boleto: result.outcome === 'pending' ? (result.boleto ?? null) : null,
    card: result.outcome === 'pending' ? null : result.card,
    failureCode: result.outcome === 'declined' || result.outcome === 'error' ? result.failureCode : null,
    failureReason: result.outcome === 'declined' || result.outcome === 'error' ? result.failureReason : null,
    refunds: [],
    refundedAmount: 0,
    paidAt: status === 'captured' ? at : null,
    canceledAt: null,
    deadline: plan.expiresAt ?? plan.dueDate ?? null,
    metadata: plan.metadata,
    checkoutSessionId: plan.checkoutSessionId,
    clientReferenceId: plan.clientReferenceId,
    affiliate: plan.affiliate,
    // A declined first payment starts no subscription: it is nobody's charge.
    recurring: status === 'denied' ? null : plan.recurring,
    ...(plan.lateCharges ? { lateCharges: plan.lateCharges } : {}),
    createdAt: at,
    updatedAt: at,
    version: 1,
  });
  let written: Awaited<ReturnType<typeof writeSale>>;
  try {
    written = await writeSale(deps, attempt, buyerState, sale);
  } catch (error) {
    // Another run (the reconciler, a retry) settled the attempt first: its transaction is the sale.
    const now = isConflict(error) ? await deps.attempts.get(tenant, attempt.id) : null;
    if (now?.kind === 'sale' && now.status === 'settled') return settledSale(deps, now);
    throw error;
  }
  const { customer } = written;
  const { t, payment } = written.written;
  let paymentMethod: PaymentMethodView | null = null;
  if (result.outcome === 'approved' && result.savedCard) {
    paymentMethod = await saveCard(deps, {
      tenant,
      customer: { id: customer.id, uuid: customer.uuid },
      provider: attempt.provider,
      savedCard: result.savedCard,
    }).catch((error) => {
      deps.reporter.error('could not save the card', error, { id: t.id });
      return null;
    });
  }
  if (t.status === 'pendingPix' && plan.expiresAt) {
    // The charge is saved; a failure to schedule its expiry must not turn a sale into a 500.
    await deps.scheduler
      .scheduleAt(`txn-expiry-${tenant.environment}-${t.id}`, new Date(plan.expiresAt), {
        job: EXPIRY_JOB,
        id: jobId(tenant, t.id),
      })
      .catch((error) => deps.reporter.error('could not schedule the pix expiry', error, { id: t.id }));
  }
  return { transaction: t, paymentMethod, sessionPayment: payment };
}
