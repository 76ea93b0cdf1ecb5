import { createHash } from 'node:crypto';
import {
  type CardHolderContact,
  type CardInput,
  type ChargeLookupHint,
  type ChargeRequest,
  type ChargeResult,
  type ChargeStatus,
  type PixAuthorizationStatus,
  type PixAutomaticChargeRequest,
  PROVIDER_NOT_CONFIGURED,
  type SavedCardChargeRequest,
  type TokenizeCardRequest,
  type TokenizeResult,
} from '#shared/domain/payments/gateway';
import type { GatewayHealth, PaidDetails, PaymentProvider, ProviderPayment } from '#shared/domain/ports';
import type {
  CredentialsResolver,
  ProviderCredentials,
  ProviderLinks,
} from '#shared/domain/ports/provider-connections';
import { asaasPaidDetails } from '#shared/domain/provider-connections/asaas-events';
import type { Tenant } from '#shared/domain/tenant';
import { BadRequestError, NotFoundError, ServiceUnavailableError } from '#shared/errors';
import { ConditionFailedError } from '../dynamodb/table';
// Same 15-digit random ids as the sandbox's: the public status route cannot be walked.
import { randomGatewayPayId } from '../sandbox-gateway/sandbox-gateway';
import { type AsaasClient, AsaasRefusal, AsaasUnavailable, centavosOf, Reais } from './client';
import {
  asaasLateChargeFields,
  BILLING_TYPE,
  cardFailureOf,
  chargeStatusOf,
  formatDigitableLine,
} from './mapping';
import {
  AUTHORIZATION_LINK_PREFIX,
  authorizationStatus,
  cancelAuthorization,
  createConsentCharge,
  frequencyOf,
  lookupConsentCharge,
  type PixAutomaticContext,
} from './pix-automatic';
import { chargeOnAuthorization } from './pix-automatic-debit';

export const ASAAS_PROVIDER = 'asaas';

/** The provider's payment object, the fields we read (docs: "Create new payment"). */
export interface AsaasPayment {
  id: string;
  status: string;
  value: number;
  /** The charge's own value when `value` grew by a late boleto's fine and interest. */
  originalValue?: number | null;
  billingType?: string | null;
  externalReference?: string | null;
  /** The immediate QR's conciliation id, on a Pix Automático authorization's first payment. */
  pixQrCodeId?: string | null;
  deleted?: boolean;
  dueDate?: string;
  bankSlipUrl?: string | null;
  invoiceUrl?: string | null;
  creditCard?: { creditCardNumber?: string; creditCardBrand?: string; creditCardToken?: string } | null;
  refunds?: { id?: string; value?: number; description?: string | null }[] | null;
}

export interface AsaasProviderDeps {
  client: AsaasClient;
  credentials: CredentialsResolver;
  links: ProviderLinks;
  clock: { now(): Date };
  randomId?: () => number;
}

const ID_ATTEMPTS = 5;
/** The largest page "List payments" answers (docs: `limit`, at most 100). */
const LIST_PAGE = 100;
/** What a 503 of an unreachable provider asks the client to wait, in seconds. */
const PROVIDER_RETRY_AFTER_SECONDS = 30;

/**
 * The provider did not answer a charge that may have gone through: nothing is recorded yet, the
 * attempt stays pending and the reconciler settles it from what Asaas holds under its reference.
 */
const outcomeUnknown = (cause: unknown) =>
  new ServiceUnavailableError(
    'The payment provider did not answer; the outcome is not known yet. Retry with the same X-Idempotency-Key: the payment is never charged twice.',
    'provider_unavailable',
    { cause, retryAfterSeconds: PROVIDER_RETRY_AFTER_SECONDS },
  );

const notConnected = () => new ServiceUnavailableError(PROVIDER_NOT_CONFIGURED, 'provider_not_configured');
const unavailable = (cause: unknown) =>
  new ServiceUnavailableError(
    'The payment provider is unavailable; nothing was charged. Try again later.',
    'provider_unavailable',
    { cause, retryAfterSeconds: PROVIDER_RETRY_AFTER_SECONDS },
  );

/**
 * The live slot of PaymentProvider on Asaas API v3, per seller: each call uses the connected
 * account's key (decrypted by the resolver, never logged). Our gateway ids are numbers (the spec's
 * type); each maps to the provider's `pay_…` id through a stored link, and travels to the provider
 * as the payment's `externalReference`, which its webhooks echo.
 */
export class AsaasProvider implements PaymentProvider {
  readonly provider = ASAAS_PROVIDER;
  readonly ready = true;

  constructor(private readonly deps: AsaasProviderDeps) {}

  /** Whether the seller has connected an account: without one live sales keep the 503. */
  async connected(tenant: Tenant): Promise<boolean> {
    return (await this.deps.credentials(tenant.sellerId)) !== null;
  }

  async createCharge(request: ChargeRequest): Promise<ChargeResult> {
    // A period Pix Automático cannot debit is refused before anything is created or reserved.
    if (request.method === 'pix' && request.recurringConsent) frequencyOf(request.recurringConsent);
    const credentials = await this.reachableCredentialsOf(request.tenant.sellerId);
    const customer = await this.customerOf(credentials, request.tenant.sellerId, request.customer);
    const gatewayPayId =
      request.gatewayPayId ??
      (await this.reserveId(request.tenant.sellerId, request.method, request.amountCentavos));
    const body: Record<string, unknown> = {
      customer,
      billingType: BILLING_TYPE[request.method],
      dueDate: this.dueDateOf(request),
      description: request.description,
      externalReference: String(gatewayPayId),
      ...installmentFields(
        request.amountCentavos,
        request.method === 'creditcard' ? request.installments : 1,
      ),
      ...(request.method === 'creditcard'
        ? {}
        : asaasLateChargeFields(request.lateCharges, this.dueDateOf(request))),
    };
    if (request.method === 'creditcard') {
      if (!request.card) throw new BadRequestError('card is required for a card payment', 'card_required');
      Object.assign(body, cardFields(request.card, request.customer));
      const result = await this.cardCharge(credentials, gatewayPayId, body, request.card, request.saveCard, {
        // A sale's attempt stays pending on an unknown outcome: the reconciler asks Asaas later.
        unknownOutcome: 'throw',
      });
      if (result.outcome === 'approved' && result.savedCard)
        await this.keepCardIp(request.tenant.sellerId, result.savedCard.token, request.customer.remoteIp);
      return result;
    }
    if (request.method === 'pix' && request.recurringConsent)
      return createConsentCharge(this.pix, credentials, customer, gatewayPayId, {
        ...request,
        recurringConsent: request.recurringConsent,
      });
    const payment = await this.call(credentials, 'POST', '/payments', body);
    await this.link(gatewayPayId, payment.id);
    return this.pendingResult(credentials, gatewayPayId, payment, request.method, request.expiresAt);
  }

  /** A pix's QR code or a boleto's line of a created payment: the pending charge's answer. */
  private async pendingResult(
    credentials: ProviderCredentials,
    gatewayPayId: number,
    payment: AsaasPayment,
    method: 'pix' | 'boleto',
    expiresAt: string | undefined,
  ): Promise<ChargeResult> {
    if (method === 'pix') {
      const qr = await this.call<{ payload: string; expirationDate?: string }>(
        credentials,
        'GET',
        `/payments/${payment.id}/pixQrCode`,
      );
      return {
        outcome: 'pending',
        gatewayPayId,
        pix: {
          qrCode: qr.payload,
          txid: payment.id,
          expiresAt: expiresAt ?? toIso(qr.expirationDate) ?? this.deps.clock.now().toISOString(),
        },
      };
    }
    const field = await this.call<{ identificationField: string; barCode: string }>(
      credentials,
      'GET',
      `/payments/${payment.id}/identificationField`,
    );
    const pixQrCode = await this.boletoPixOf(credentials, payment.id);
    return {
      outcome: 'pending',
      gatewayPayId,
      boleto: {
        barcode: field.barCode,
        digitableLine: field.identificationField,
        formattedLine: formatDigitableLine(field.identificationField),
        dueDate: payment.dueDate ?? '',
        pdfUrl: payment.bankSlipUrl ?? payment.invoiceUrl ?? '',
        ...(pixQrCode ? { pixQrCode } : {}),
      },
    };
  }

  /**
   * The boleto híbrido's pix: Asaas answers a BOLETO payment's `GET /payments/{id}/pixQrCode` with a
   * dynamic QR of the same payment (its due date, fine and interest). An account that cannot issue
   * one (no pix key: a refusal) still has a valid boleto, which is answered without it; a provider
   * that does not answer fails the call as the boleto's own line would.
   */
  private async boletoPixOf(credentials: ProviderCredentials, paymentId: string): Promise<string | null> {
    try {
      const qr = await this.deps.client.request<{ payload?: string | null }>(
        credentials,
        'GET',
        `/payments/${paymentId}/pixQrCode`,
      );
      return qr.payload || null;
    } catch (error) {
      if (error instanceof AsaasRefusal && error.status !== 401) return null;
      throw failureOf(error);
    }
  }

  async chargeSavedCard(request: SavedCardChargeRequest): Promise<ChargeResult> {
    const { sellerId } = request.tenant;
    const replay = await this.deps.links.replayed(sellerId, request.idempotencyKey);
    if (replay) return replay;
    const credentials = await this.reachableCredentialsOf(sellerId);
    const customer = await this.customerOf(credentials, sellerId, request.customer);
    // Written ahead: the key's reference exists before the charge, so a retry after a crash asks
    // Asaas what it holds under it instead of charging again.
    const reserved = await this.reserveId(sellerId, 'creditcard', request.amountCentavos);
    const gatewayPayId = await this.deps.links.reserveKey(sellerId, request.idempotencyKey, reserved);
    if (gatewayPayId !== reserved) {
      const held = await this.lookupCharge(request.tenant, gatewayPayId, { method: 'creditcard' });
      if (held) {
        await this.deps.links.remember(sellerId, request.idempotencyKey, held);
        return held;
      }
    }
    const body = {
      customer,
      billingType: 'CREDIT_CARD',
      dueDate: saoPauloDay(this.deps.clock.now()),
      description: request.description,
      externalReference: String(gatewayPayId),
      creditCardToken: request.token,
      ...installmentFields(request.amountCentavos, request.installments),
    };
    // No buyer at a renewal: the IP the buyer saved this card from (Asaas asks every card payment for one).
    const remoteIp = await this.deps.links.cardIp(sellerId, tokenHash(request.token));
    if (remoteIp) Object.assign(body, { remoteIp });
    // No answer (a 5xx, a timeout, a 429) throws: the debit's job runs again with the same key, which
    // asks Asaas under the reference first, so a debit made without an answer is found, never repeated.
    const result = await this.cardCharge(credentials, gatewayPayId, body, undefined, undefined, {
      unknownOutcome: 'throw',
    });
    // An errored debit is not remembered: the renewal's retry asks the provider again.
    if (result.outcome !== 'error') await this.deps.links.remember(sellerId, request.idempotencyKey, result);
    return result;
  }

  async tokenizeCard(request: TokenizeCardRequest): Promise<TokenizeResult> {
    const credentials = await this.reachableCredentialsOf(request.tenant.sellerId);
    const customer = await this.customerOf(credentials, request.tenant.sellerId, request.customer);
    try {
      const token = await this.deps.client.request<{
        creditCardNumber: string;
        creditCardBrand: string;
        creditCardToken: string;
      }>(credentials, 'POST', '/creditCard/tokenizeCreditCard', {
        customer,
        ...cardFields(request.card, request.customer),
      });
      await this.keepCardIp(request.tenant.sellerId, token.creditCardToken, request.customer.remoteIp);
      return {
        outcome: 'approved',
        savedCard: {
          token: token.creditCardToken,
          brand: brandOf(token.creditCardBrand),
          last4: token.creditCardNumber.slice(-4),
          expiryMonth: request.card.expiryMonth,
          expiryYear: fourDigitYear(request.card.expiryYear),
        },
      };
    } catch (error) {
      if (error instanceof AsaasRefusal && error.status === 400)
        return { outcome: 'declined', ...cardFailureOf(error.errors) };
      throw error instanceof AsaasUnavailable ? unavailable(error) : error;
    }
  }

  /** A renewal debit on the authorization (./pix-automatic): pending until Asaas debits it. */
  chargePixAutomatic(request: PixAutomaticChargeRequest): Promise<ChargeResult> {
    return chargeOnAuthorization(this.pix, request);
  }

  pixAuthorizationStatus(tenant: Tenant, authorizationId: string): Promise<PixAuthorizationStatus | null> {
    return authorizationStatus(this.pix, tenant, authorizationId);
  }

  /** What the Pix Automático module borrows from this adapter. */
  private get pix(): PixAutomaticContext {
    return {
      client: this.deps.client,
      links: this.deps.links,
      clock: this.deps.clock,
      credentialsOf: (sellerId) => this.credentialsOf(sellerId),
      reserveId: (sellerId, amountCentavos) => this.reserveId(sellerId, 'pix', amountCentavos),
      call: (credentials, method, path, body) => this.call(credentials, method, path, body),
      failureOf,
    };
  }

  /** A fresh gateway id for an attempt: the payment's externalReference when it is created. */
  async reserveReference(tenant: Tenant, method: ChargeRequest['method'], amountCentavos: number) {
    // A provider that is down refuses here, before the attempt or the reference is written.
    await this.reachableCredentialsOf(tenant.sellerId);
    return this.reserveId(tenant.sellerId, method, amountCentavos);
  }

  /**
   * The payment Asaas holds under our reference (`GET /payments?externalReference=`), as the charge
   * would have answered it; null when it holds none (or only a deleted one). Links it, so its
   * webhooks, cancel and refund find it.
   */
  async lookupCharge(
    tenant: Tenant,
    gatewayPayId: number,
    hint: ChargeLookupHint,
  ): Promise<ChargeResult | null> {
    const credentials = await this.reachableCredentialsOf(tenant.sellerId);
    if (hint.method === 'pix' && hint.recurringConsent && hint.customerDocument) {
      const customer = await this.knownCustomerOf(credentials, tenant.sellerId, hint.customerDocument);
      return customer
        ? lookupConsentCharge(this.pix, credentials, customer, gatewayPayId, {
            tenant,
            expiresAt: hint.expiresAt,
            recurringConsent: hint.recurringConsent,
          })
        : null;
    }
    const found = await this.call<{
      data?: (AsaasPayment & { externalReference?: string | null; deleted?: boolean })[];
    }>(credentials, 'GET', `/payments?externalReference=${gatewayPayId}`);
    const payment = (found.data ?? []).find(
      (p) => p.externalReference === String(gatewayPayId) && p.deleted !== true,
    );
    if (!payment) return null;
    await this.link(gatewayPayId, payment.id);
    if (hint.method === 'creditcard') {
      const brand = brandOf(payment.creditCard?.creditCardBrand);
      const last4 = payment.creditCard?.creditCardNumber?.slice(-4) ?? '';
      const token = payment.creditCard?.creditCardToken;
      if (chargeStatusOf(payment.status) === 'pending' || chargeStatusOf(payment.status) === 'failed')
        return {
          outcome: 'declined',
          gatewayPayId,
          card: { brand, last4 },
          failureCode: 'card_declined',
          failureReason: `The provider answered ${payment.status}.`,
          gatewayFailureCode: payment.status,
        };
      return {
        outcome: 'approved',
        gatewayPayId,
        card: { brand, last4 },
        authorizationCode: payment.id,
        ...(hint.saveCard && hint.cardExpiry && token
          ? {
              savedCard: {
                token,
                brand,
                last4,
                expiryMonth: hint.cardExpiry.month,
                expiryYear: fourDigitYear(hint.cardExpiry.year),
              },
            }
          : {}),
      };
    }
    return this.pendingResult(credentials, gatewayPayId, payment, hint.method, hint.expiresAt);
  }

  /** The provider keeps a token per customer and documents no call to delete one: nothing to do. */
  async detachSavedCard(): Promise<void> {}

  async cancel(gatewayPayId: number): Promise<void> {
    const { credentials, link } = await this.linked(gatewayPayId);
    if (link.providerPaymentId.startsWith(AUTHORIZATION_LINK_PREFIX))
      return cancelAuthorization(
        this.pix,
        credentials,
        link.providerPaymentId.slice(AUTHORIZATION_LINK_PREFIX.length),
      );
    await this.call(credentials, 'DELETE', `/payments/${link.providerPaymentId}`);
  }

  async refund(
    gatewayPayId: number,
    amountCentavos: number,
    reference?: string,
  ): Promise<{ refundId: string }> {
    const { credentials, link } = await this.linked(gatewayPayId);
    // Our refund's id rides as the refund's description: a lookup finds the refund by it, and a
    // refund already made under it is not made again (Asaas takes no idempotency key).
    if (reference && (await this.refundHeld(gatewayPayId, reference))) return { refundId: reference };
    const body = {
      ...(amountCentavos >= link.amountCentavos ? {} : { value: new Reais(amountCentavos) }),
      ...(reference ? { description: reference } : {}),
    };
    const payment = await this.call(credentials, 'POST', `/payments/${link.providerPaymentId}/refund`, body);
    const last = payment.refunds?.at(-1);
    return { refundId: last?.id ?? `${link.providerPaymentId}:${amountCentavos}` };
  }

  async refundHeld(gatewayPayId: number, reference: string): Promise<boolean> {
    const { credentials, link } = await this.linked(gatewayPayId);
    const payment = await this.call(credentials, 'GET', `/payments/${link.providerPaymentId}`);
    return (payment.refunds ?? []).some((r) => r.description === reference);
  }

  /** A paid pix or boleto's value and billing type ("Retrieve a single payment"); null otherwise. */
  async paidDetails(gatewayPayId: number): Promise<PaidDetails | null> {
    const link = await this.deps.links.charge(gatewayPayId);
    if (!link?.providerPaymentId || link.method === 'creditcard') return null;
    // A Pix Automático authorization's link names no payment of its own: its debits say nothing more.
    if (link.providerPaymentId.startsWith(AUTHORIZATION_LINK_PREFIX)) return null;
    const credentials = await this.credentialsOf(link.sellerId);
    const payment = await this.call(credentials, 'GET', `/payments/${link.providerPaymentId}`);
    if (chargeStatusOf(payment.status) !== 'paid') return null;
    return asaasPaidDetails(payment, (reais) => centavosOf(reais));
  }

  async status(gatewayPayId: number): Promise<ChargeStatus | null> {
    const link = await this.deps.links.charge(gatewayPayId);
    if (!link) return null;
    const credentials = await this.credentialsOf(link.sellerId);
    try {
      const res = await this.deps.client.request<{ status: string }>(
        credentials,
        'GET',
        `/payments/${link.providerPaymentId}/status`,
      );
      return chargeStatusOf(res.status);
    } catch (error) {
      if (error instanceof AsaasRefusal && error.status === 404) return null;
      throw error instanceof AsaasUnavailable ? unavailable(error) : error;
    }
  }

  /**
   * "List payments" filtered by creation date (`dateCreated[ge]`/`dateCreated[le]`, the account's
   * own calendar: Brazil), paged by offset with the largest page the provider allows, until
   * `hasMore` is false. A payment names our gateway id in its externalReference; a Pix Automático
   * authorization's first payment has none, and is ours through its QR's conciliation id.
   */
  async listPayments(tenant: Tenant, day: string): Promise<ProviderPayment[]> {
    const credentials = await this.credentialsOf(tenant.sellerId);
    const payments: ProviderPayment[] = [];
    for (let offset = 0; ; offset += LIST_PAGE) {
      const query = new URLSearchParams({
        'dateCreated[ge]': day,
        'dateCreated[le]': day,
        offset: String(offset),
        limit: String(LIST_PAGE),
      });
      const page = await this.call<{ data?: AsaasPayment[]; hasMore?: boolean }>(
        credentials,
        'GET',
        `/payments?${query}`,
      );
      for (const p of page.data ?? []) {
        if (p.deleted) continue;
        payments.push({
          providerPaymentId: p.id,
          gatewayPayId: await this.gatewayPayIdOf(tenant.sellerId, p),
          amountCentavos: centavosOf(p.originalValue ?? p.value),
          status: chargeStatusOf(p.status),
        });
      }
      if (!page.hasMore || (page.data ?? []).length === 0) return payments;
    }
  }

  private async gatewayPayIdOf(sellerId: number, p: AsaasPayment): Promise<number | null> {
    const reference = Number(p.externalReference);
    if (p.externalReference && Number.isSafeInteger(reference) && reference > 0) return reference;
    if (!p.pixQrCodeId) return null;
    const authorization = await this.deps.links.pixAuthorizationOfConciliation(p.pixQrCodeId);
    return authorization && authorization.sellerId === sellerId ? authorization.gatewayPayId : null;
  }

  /**
   * Reachability of the production API, without any seller's key (a 401 is an answer). While the
   * circuit is open it answers unhealthy without a call; once half-open the ping is the probe.
   */
  async health(): Promise<GatewayHealth> {
    const started = Date.now();
    try {
      const status = await this.deps.client.ping('production');
      const latencyMs = Date.now() - started;
      return status < 500
        ? { status: 'healthy', provider: this.provider, latencyMs }
        : { status: 'unhealthy', provider: this.provider, latencyMs, detail: `HTTP ${status}` };
    } catch (error) {
      const detail = error instanceof AsaasUnavailable ? error.reason : 'unreachable';
      return { status: 'unhealthy', provider: this.provider, latencyMs: Date.now() - started, detail };
    }
  }

  /** The IP the buyer saved a card from, for the charges on its token without the buyer. */
  private async keepCardIp(sellerId: number, token: string, ip: string | undefined): Promise<void> {
    if (ip) await this.deps.links.rememberCardIp(sellerId, tokenHash(token), ip);
  }

  private async cardCharge(
    credentials: ProviderCredentials,
    gatewayPayId: number,
    body: Record<string, unknown>,
    card?: CardInput,
    saveCard?: boolean,
    options: { unknownOutcome: 'error' | 'throw' } = { unknownOutcome: 'error' },
  ): Promise<ChargeResult> {
    const summary = { brand: 'unknown', last4: card ? card.number.slice(-4) : '' };
    let payment: AsaasPayment;
    try {
      payment = await this.deps.client.request<AsaasPayment>(credentials, 'POST', '/payments', body);
    } catch (error) {
      if (error instanceof AsaasRefusal && error.status === 400)
        return { outcome: 'declined', gatewayPayId, card: summary, ...cardFailureOf(error.errors) };
      // Never sent (the circuit opened meanwhile): nothing happened, so no outcome to record.
      if (error instanceof AsaasUnavailable && error.reason === 'circuit_open') throw unavailable(error);
      // A 429 was never carried out; a 5xx or a timeout may have been: the attempt stays pending either way.
      if (error instanceof AsaasUnavailable && options.unknownOutcome === 'throw')
        throw error.reason === 'rate_limited' ? unavailable(error) : outcomeUnknown(error);
      if (error instanceof AsaasUnavailable)
        return {
          outcome: 'error',
          gatewayPayId,
          card: summary,
          failureCode: 'processing_error',
          failureReason:
            'The payment provider did not answer; the outcome is unknown and nothing was confirmed.',
          gatewayFailureCode: error.reason,
        };
      throw error;
    }
    await this.link(gatewayPayId, payment.id);
    const brand = brandOf(payment.creditCard?.creditCardBrand);
    const last4 = payment.creditCard?.creditCardNumber?.slice(-4) ?? summary.last4;
    const status = chargeStatusOf(payment.status);
    if (status !== 'paid') {
      return {
        outcome: 'declined',
        gatewayPayId,
        card: { brand, last4 },
        failureCode: payment.status === 'AWAITING_RISK_ANALYSIS' ? 'risk_analysis' : 'card_declined',
        failureReason: `The provider answered ${payment.status}.`,
        gatewayFailureCode: payment.status,
      };
    }
    const token = payment.creditCard?.creditCardToken;
    return {
      outcome: 'approved',
      gatewayPayId,
      card: { brand, last4 },
      authorizationCode: payment.id,
      ...(saveCard && card && token
        ? {
            savedCard: {
              token,
              brand,
              last4,
              expiryMonth: card.expiryMonth,
              expiryYear: fourDigitYear(card.expiryYear),
            },
          }
        : {}),
    };
  }

  private async credentialsOf(sellerId: number): Promise<ProviderCredentials> {
    const credentials = await this.deps.credentials(sellerId);
    if (!credentials) throw notConnected();
    return credentials;
  }

  /**
   * The seller's credentials, once its environment's circuit lets calls out: a money call refused
   * here (503 provider_unavailable) has written nothing and waited for nothing.
   */
  private async reachableCredentialsOf(sellerId: number): Promise<ProviderCredentials> {
    const credentials = await this.credentialsOf(sellerId);
    try {
      this.deps.client.assertReachable(credentials.environment);
    } catch (error) {
      throw failureOf(error);
    }
    return credentials;
  }

  /** The seller's provider customer of this document: created once, then reused. */
  private async customerOf(
    credentials: ProviderCredentials,
    sellerId: number,
    buyer: { name: string; document: string; email: string },
  ): Promise<string> {
    const known = await this.deps.links.customerId(sellerId, credentials.environment, buyer.document);
    if (known) return known;
    const id =
      (await this.heldCustomerOf(credentials, buyer.document)) ??
      (
        await this.call<{ id: string }>(credentials, 'POST', '/customers', {
          name: buyer.name,
          cpfCnpj: buyer.document,
          email: buyer.email,
        })
      ).id;
    await this.deps.links.saveCustomer(sellerId, credentials.environment, buyer.document, id);
    return id;
  }

  /** The seller's provider customer of this document, if Asaas holds one (never created here). */
  private async knownCustomerOf(
    credentials: ProviderCredentials,
    sellerId: number,
    document: string,
  ): Promise<string | null> {
    return (
      (await this.deps.links.customerId(sellerId, credentials.environment, document)) ??
      (await this.heldCustomerOf(credentials, document))
    );
  }

  /** The customer Asaas holds with this document (`GET /customers?cpfCnpj=`), or null. */
  private async heldCustomerOf(credentials: ProviderCredentials, document: string): Promise<string | null> {
    const found = await this.call<{ data?: { id: string }[] }>(
      credentials,
      'GET',
      `/customers?cpfCnpj=${encodeURIComponent(document)}`,
    );
    return found.data?.[0]?.id ?? null;
  }

  /** A fresh gateway id: the link's conditional write makes a collision a redraw. */
  private async reserveId(sellerId: number, method: ChargeRequest['method'], amountCentavos: number) {
    const draw = this.deps.randomId ?? randomGatewayPayId;
    for (let attempt = 1; ; attempt++) {
      const gatewayPayId = draw();
      try {
        await this.deps.links.reserveCharge({
          gatewayPayId,
          providerPaymentId: '',
          sellerId,
          method,
          amountCentavos,
        });
        return gatewayPayId;
      } catch (error) {
        if (!(error instanceof ConditionFailedError) || attempt >= ID_ATTEMPTS) throw error;
      }
    }
  }

  private async link(gatewayPayId: number, providerPaymentId: string) {
    await this.deps.links.linkCharge(gatewayPayId, providerPaymentId);
  }

  private async linked(gatewayPayId: number) {
    const link = await this.deps.links.charge(gatewayPayId);
    if (!link?.providerPaymentId) throw new NotFoundError('Charge not found at the provider');
    return { link, credentials: await this.reachableCredentialsOf(link.sellerId) };
  }

  /** A call whose failure is not a card outcome: unavailable → 503, a refusal → 400 naming its codes. */
  private async call<T = AsaasPayment>(
    credentials: ProviderCredentials,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<T> {
    try {
      return await this.deps.client.request<T>(credentials, method, path, body);
    } catch (error) {
      throw failureOf(error);
    }
  }

  private dueDateOf(request: ChargeRequest): string {
    if (request.method === 'boleto' && request.dueDate) return request.dueDate;
    if (request.method === 'pix' && request.expiresAt) return saoPauloDay(new Date(request.expiresAt));
    return saoPauloDay(this.deps.clock.now());
  }
}

/** A failed call that is not a card outcome: unavailable → 503, a refusal → 400 naming its codes. */
function failureOf(error: unknown): unknown {
  if (error instanceof AsaasUnavailable) return unavailable(error);
  if (error instanceof AsaasRefusal && error.status === 401)
    return new ServiceUnavailableError(
      'The connected payment provider account rejected its API key; reconnect it.',
      'provider_credentials_invalid',
      { cause: error },
    );
  if (error instanceof AsaasRefusal)
    return new BadRequestError(
      `The payment provider refused the request: ${error.errors.map((e) => e.description || e.code).join('; ') || `HTTP ${error.status}`}`,
      'provider_refused',
      { cause: error },
    );
  return error;
}

/** Installments: `installmentCount` + `totalValue` only for 2 or more (docs: "Create new payment"). */
function installmentFields(amountCentavos: number, installments: number) {
  return installments > 1
    ? { installmentCount: installments, totalValue: new Reais(amountCentavos) }
    : { value: new Reais(amountCentavos) };
}

function cardFields(
  card: CardInput,
  buyer: { name: string; document: string; email: string } & CardHolderContact,
) {
  return {
    creditCard: {
      holderName: card.holderName,
      number: card.number,
      expiryMonth: String(card.expiryMonth).padStart(2, '0'),
      expiryYear: String(fourDigitYear(card.expiryYear)),
      ccv: card.cvv,
    },
    creditCardHolderInfo: holderInfo(buyer),
    // The buyer's IP ("Create new payment with credit card", "Credit card tokenization"): sent when
    // the buyer is at the request; a charge on a saved token has none to send.
    ...(buyer.remoteIp ? { remoteIp: buyer.remoteIp } : {}),
  };
}

/**
 * `creditCardHolderInfo` ("Create new payment with credit card", "Credit card tokenization"): Asaas
 * asks for postalCode, addressNumber and phone besides name, e-mail and CPF/CNPJ. We send what we know;
 * a field we do not know is left out, never invented. An account whose Asaas settings require it
 * answers HTTP 400 `{errors}`, which a card charge or tokenization answers as any card refusal: declined,
 * Asaas's code as `gatewayFailureCode` and its description as `failureReason`.
 */
function holderInfo(buyer: { name: string; document: string; email: string } & CardHolderContact) {
  const address = buyer.address;
  return {
    name: buyer.name,
    email: buyer.email,
    cpfCnpj: buyer.document,
    ...(address ? { postalCode: address.postalCode } : {}),
    ...(address?.number ? { addressNumber: address.number } : {}),
    ...(address?.complement ? { addressComplement: address.complement } : {}),
    ...(buyer.phone ? { phone: buyer.phone } : {}),
  };
}

/** A card token is a secret handle: stored only as its SHA-256. */
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
const fourDigitYear = (year: number) => (year < 100 ? 2000 + year : year);
const brandOf = (brand: string | undefined) => (brand ? brand.toLowerCase() : 'unknown');
const saoPauloDay = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(at);
const toIso = (text: string | undefined) => {
  if (!text) return undefined;
  const at = new Date(`${text.replace(' ', 'T')}-03:00`);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
};

export { centavosOf };
