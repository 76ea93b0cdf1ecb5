import type {
  ChargeRequest,
  ChargeResult,
  PixAuthorizationStatus,
  RecurringConsent,
} from '#shared/domain/payments/gateway';
import {
  PIX_AUTHORIZATION_LINK_PREFIX,
  type ProviderCredentials,
  type ProviderLinks,
  type ProviderPixAuthorization,
} from '#shared/domain/ports/provider-connections';
import { periodEnd } from '#shared/domain/subscriptions/periods';
import type { Tenant } from '#shared/domain/tenant';
import { BadRequestError, ServiceUnavailableError } from '#shared/errors';
import { type AsaasClient, AsaasRefusal, AsaasUnavailable, Reais } from './client';

/**
 * Pix Automático on Asaas (docs.asaas.com/docs/automatic-pix, /docs/implementation): journey 3,
 * where one composite QR code both pays the first period and carries the payer's consent. The
 * authorization is created with its immediate QR code; once that QR is paid Asaas activates it, and
 * each renewal is a PIX payment linked to it, which Asaas debits on the payment's due date.
 */

/**
 * The authorization statuses Asaas documents (CREATED, ACTIVE, CANCELLED, REFUSED, EXPIRED) as ours.
 * CANCELLED (by the payer at the bank or by the seller), REFUSED and EXPIRED (the QR was never paid)
 * are final: a new consent means a new authorization.
 */
export const ASAAS_AUTHORIZATION_STATUS: Readonly<Record<string, PixAuthorizationStatus>> = {
  CREATED: 'pending',
  ACTIVE: 'active',
  CANCELLED: 'revoked',
  REFUSED: 'revoked',
  EXPIRED: 'revoked',
};

/** A status Asaas added after this table: pending, never a false active. */
export const pixAuthorizationStatusOf = (status: string | undefined): PixAuthorizationStatus =>
  (status && ASAAS_AUTHORIZATION_STATUS[status]) || 'pending';

/** Our price periods as the periodicities BCB's arrangement (and Asaas's `frequency`) knows. */
const FREQUENCY: Readonly<Record<string, string>> = {
  'week:1': 'WEEKLY',
  'month:1': 'MONTHLY',
  'month:3': 'QUARTERLY',
  'month:6': 'SEMIANNUALLY',
  'month:12': 'ANNUALLY',
  'year:1': 'ANNUALLY',
};

/** The immediate QR's life when the charge names no expiry (a checkout's pix always does). */
const DEFAULT_QR_SECONDS = 24 * 60 * 60;
/** Asaas's contractId holds 35 characters (create an authorization). */
const CONTRACT_ID_MAX = 35;
/** Authorizations asked for per page when looking one up (Asaas's maximum). */
const LIST_PAGE = 100;
/**
 * Until the first payment exists, the provider's handle of a consent charge is its authorization:
 * cancel() deletes the authorization, which makes the composite QR unpayable.
 */
export const AUTHORIZATION_LINK_PREFIX = PIX_AUTHORIZATION_LINK_PREFIX;

/** The authorization object, the fields we read (create / retrieve an authorization). */
export interface AsaasAuthorization {
  id: string;
  status: string;
  payload?: string | null;
  encodedImage?: string | null;
  immediateQrCode?: {
    conciliationIdentifier?: string;
    expirationDate?: string;
    payload?: string | null;
    encodedImage?: string | null;
  } | null;
}

/** What the adapter lends this module: its calls, its id reservation and its links. */
export interface PixAutomaticContext {
  client: AsaasClient;
  links: ProviderLinks;
  clock: { now(): Date };
  credentialsOf(sellerId: number): Promise<ProviderCredentials>;
  reserveId(sellerId: number, amountCentavos: number): Promise<number>;
  /** A call whose failures are the adapter's usual answers (503 unavailable, 400 refused). */
  call<T>(
    credentials: ProviderCredentials,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<T>;
  /** The adapter's answer to a failed call (503 unavailable, 503 key refused, 400 refused). */
  failureOf(error: unknown): unknown;
}

/** The Asaas frequency of a consent; a period BCB's arrangement has no periodicity for is a 400. */
export function frequencyOf(consent: RecurringConsent): string {
  const every = consent.every ?? { interval: 'month', count: 1 };
  const frequency = FREQUENCY[`${every.interval}:${every.count}`];
  if (!frequency)
    throw new BadRequestError(
      `paymentMethod: Pix Automático debits weekly, monthly, quarterly, semiannually or annually; a price every ${every.count} ${every.interval}s is paid by card`,
      'pix_automatic_interval_unsupported',
    );
  return frequency;
}

/**
 * A pix charge with a recurring consent: POST /pix/automatic/authorizations with its immediate QR
 * code (the first period's value). The QR's copia e cola is our BR Code, the authorization id is
 * `pix.authorizationId`, and the QR's conciliation id (which the first payment carries as
 * `pixQrCodeId`) leads that payment's webhook back to our charge.
 */
export async function createConsentCharge(
  ctx: PixAutomaticContext,
  credentials: ProviderCredentials,
  customer: string,
  gatewayPayId: number,
  request: ChargeRequest & { recurringConsent: RecurringConsent },
): Promise<ChargeResult> {
  const consent = request.recurringConsent;
  const now = ctx.clock.now();
  const every = consent.every ?? { interval: 'month' as const, count: 1 };
  const expiresAt = request.expiresAt ?? new Date(now.getTime() + DEFAULT_QR_SECONDS * 1000).toISOString();
  const body = {
    customerId: customer,
    frequency: frequencyOf(consent),
    contractId: String(gatewayPayId).slice(0, CONTRACT_ID_MAX),
    // The first debit is the second period's: the immediate QR pays the first.
    startDate: saoPauloDay(new Date(periodEnd(now.toISOString(), every.interval, every.count, 1))),
    // A subscription renews at the amount it started with (a new price is a new consent).
    value: new Reais(consent.maxAmountCentavos),
    description: consent.description,
    immediateQrCode: {
      expirationSeconds: Math.max(60, Math.ceil((Date.parse(expiresAt) - now.getTime()) / 1000)),
      originalValue: new Reais(request.amountCentavos),
      description: request.description,
    },
  };
  let authorization: AsaasAuthorization;
  try {
    authorization = await ctx.client.request<AsaasAuthorization>(
      credentials,
      'POST',
      '/pix/automatic/authorizations',
      body,
    );
  } catch (error) {
    throw controlledAccessOf(error) ?? ctx.failureOf(error);
  }
  const pending = await keepAuthorization(
    ctx,
    credentials,
    customer,
    gatewayPayId,
    { ...request, expiresAt },
    authorization,
  );
  // A 200 without the QR is the provider misbehaving: a 503 (try again), never a pix without a code.
  if (!pending)
    throw new ServiceUnavailableError(
      'The payment provider answered without the pix QR code; try again later.',
      'provider_unavailable',
    );
  return pending;
}

/**
 * The authorization Asaas holds for a first pix whose answer was lost (found by its contractId,
 * our reference, among the customer's authorizations: Asaas lists them by customer and status), as
 * the charge would have answered it. One still waiting for its first pix is linked and answered
 * pending with its QR; one without its QR is canceled there and answered null (the buyer never saw
 * it), so the attempt is voided and a retry charges anew; none at all is null.
 */
export async function lookupConsentCharge(
  ctx: PixAutomaticContext,
  credentials: ProviderCredentials,
  customer: string,
  gatewayPayId: number,
  request: Pick<ChargeRequest, 'tenant' | 'expiresAt'> & { recurringConsent: RecurringConsent },
): Promise<ChargeResult | null> {
  const contractId = String(gatewayPayId).slice(0, CONTRACT_ID_MAX);
  for (let offset = 0; ; offset += LIST_PAGE) {
    const page = await ctx.call<{
      data?: (AsaasAuthorization & { contractId?: string })[];
      hasMore?: boolean;
    }>(
      credentials,
      'GET',
      `/pix/automatic/authorizations?customerId=${encodeURIComponent(customer)}&offset=${offset}&limit=${LIST_PAGE}`,
    );
    const found = (page.data ?? []).find((a) => a.contractId === contractId);
    if (found) {
      if (found.status !== 'CREATED' && found.status !== 'ACTIVE') return null;
      const expiresAt =
        request.expiresAt ?? new Date(ctx.clock.now().getTime() + DEFAULT_QR_SECONDS * 1000).toISOString();
      const pending = await keepAuthorization(
        ctx,
        credentials,
        customer,
        gatewayPayId,
        { ...request, expiresAt },
        found,
      );
      if (pending) return pending;
      if (found.status === 'CREATED')
        await ctx.call(
          credentials,
          'DELETE',
          `/pix/automatic/authorizations/${encodeURIComponent(found.id)}`,
        );
      return null;
    }
    if (!page.hasMore) return null;
  }
}

/** Links and records an authorization with its immediate QR, answered pending; null without the QR. */
async function keepAuthorization(
  ctx: PixAutomaticContext,
  credentials: ProviderCredentials,
  customer: string,
  gatewayPayId: number,
  request: Pick<ChargeRequest, 'tenant'> & { expiresAt: string; recurringConsent: RecurringConsent },
  authorization: AsaasAuthorization,
): Promise<ChargeResult | null> {
  const { recurringConsent: consent, expiresAt } = request;
  const qr = authorization.immediateQrCode ?? {};
  const payload = qr.payload ?? authorization.payload;
  if (!payload || !qr.conciliationIdentifier) return null;
  await ctx.links.linkCharge(gatewayPayId, `${AUTHORIZATION_LINK_PREFIX}${authorization.id}`);
  await ctx.links.savePixAuthorization({
    authorizationId: authorization.id,
    sellerId: request.tenant.sellerId,
    account: credentials.environment,
    customerId: customer,
    gatewayPayId,
    conciliationId: qr.conciliationIdentifier,
    maxAmountCentavos: consent.maxAmountCentavos,
    status: pixAuthorizationStatusOf(authorization.status),
  });
  return {
    outcome: 'pending',
    gatewayPayId,
    pix: {
      qrCode: payload,
      txid: qr.conciliationIdentifier,
      expiresAt,
      authorizationId: authorization.id,
    },
  };
}

/**
 * Asaas keeps Pix Automático under controlled access (an account must ask for it): its refusal of
 * the authorization is a 400 naming the method, never a 500 and never a pix without the consent.
 * A 401 (a revoked key) and unavailability keep the adapter's usual answers.
 */
function controlledAccessOf(error: unknown): BadRequestError | null {
  if (!(error instanceof AsaasRefusal) || error.status === 401) return null;
  const said = error.errors.map((e) => e.description || e.code).join('; ') || `HTTP ${error.status}`;
  return new BadRequestError(
    `paymentMethod: the connected Asaas account refused Pix Automático (${said}); it may not be enabled for the account. Pay by card, or ask Asaas to enable Pix Automático.`,
    error.status === 403 ? 'pix_automatic_not_enabled' : 'pix_automatic_refused',
    { cause: error },
  );
}

/** Our record of the authorization, if it is this tenant's (another seller's answers as unknown). */
export async function ownAuthorization(
  ctx: PixAutomaticContext,
  tenant: Tenant,
  authorizationId: string,
): Promise<ProviderPixAuthorization | null> {
  const a = await ctx.links.pixAuthorization(authorizationId);
  return a && a.sellerId === tenant.sellerId && tenant.environment === 'live' ? a : null;
}

/**
 * The authorization's status: GET /pix/automatic/authorizations/{id}, recorded when it changed. A
 * revoked one is final (no call). When Asaas cannot be reached, what its webhooks last said.
 */
export async function authorizationStatus(
  ctx: PixAutomaticContext,
  tenant: Tenant,
  authorizationId: string,
): Promise<PixAuthorizationStatus | null> {
  const own = await ownAuthorization(ctx, tenant, authorizationId);
  if (!own) return null;
  try {
    return await freshStatus(ctx, own);
  } catch (error) {
    if (error instanceof AsaasUnavailable) return own.status;
    throw error;
  }
}

/** GET the authorization; null when Asaas does not know it, AsaasUnavailable when it cannot answer. */
export async function freshStatus(
  ctx: PixAutomaticContext,
  own: ProviderPixAuthorization,
): Promise<PixAuthorizationStatus | null> {
  if (own.status === 'revoked') return 'revoked';
  const credentials = await ctx.credentialsOf(own.sellerId);
  let status: PixAuthorizationStatus;
  try {
    const found = await ctx.client.request<AsaasAuthorization>(
      credentials,
      'GET',
      `/pix/automatic/authorizations/${encodeURIComponent(own.authorizationId)}`,
    );
    status = pixAuthorizationStatusOf(found.status);
  } catch (error) {
    if (error instanceof AsaasRefusal && error.status === 404) return null;
    if (error instanceof AsaasUnavailable) throw error;
    throw ctx.failureOf(error);
  }
  if (status !== own.status) await ctx.links.setPixAuthorizationStatus(own.authorizationId, status);
  return status;
}

/** A consent charge not paid yet is cancelled by deleting its authorization (its QR dies with it). */
export async function cancelAuthorization(
  ctx: PixAutomaticContext,
  credentials: ProviderCredentials,
  authorizationId: string,
): Promise<void> {
  await ctx.call(
    credentials,
    'DELETE',
    `/pix/automatic/authorizations/${encodeURIComponent(authorizationId)}`,
  );
  await ctx.links.setPixAuthorizationStatus(authorizationId, 'revoked');
}

export const saoPauloDay = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(at);
