import { SANDBOX_CARDS } from '#shared/domain/payments/cards';
import type {
  ChargeRequest,
  ChargeResult,
  ChargeStatus,
  PixAuthorizationStatus,
  PixAutomaticChargeRequest,
  SavedCardChargeRequest,
  SavedCardToken,
  TokenizeCardRequest,
  TokenizeResult,
} from '#shared/domain/payments/gateway';
import type { GatewayHealth, PaymentProvider, ProviderPayment } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { NotFoundError } from '#shared/errors';

/** Gateway ids the fake hands out start here: the first charge is 7_000_001. */
export const FAKE_GATEWAY_ID_BASE = 7_000_000;

/** How the next charge without the buyer (saved card, Pix Automático) ends; `throw` rejects the call. */
export type ScriptedOutcome =
  | 'approved'
  /** A debit a live provider schedules for a later day (Asaas's Pix Automático). */
  | 'pending'
  | { outcome: 'declined' | 'error'; failureCode: string; failureReason?: string }
  | { throw: Error };

/** A Pix Automático authorization the fake issued with a pix charge that asked for a consent. */
export interface FakePixAuthorization {
  tenant: Tenant;
  status: PixAuthorizationStatus;
  maxAmountCentavos: number;
  gatewayPayId: number;
}

/**
 * A provider that keeps its charges in memory. Pix and boleto are pending with fixed artifacts;
 * cards follow the sandbox's scripted test numbers (any other number is declined card_declined).
 * `failWith` makes createCharge reject; `ready: false` is an unconfigured live provider.
 *
 * Charges without the buyer (saved card, Pix Automático) take their outcome from the front of
 * `savedCardOutcomes` / `pixAutomaticOutcomes` when a test queued one; otherwise a saved card
 * approves (unless given `declineWith`) and a Pix Automático debit follows its authorization
 * (pending or revoked: `authorization_revoked`; above the max: `amount_above_limit`). Every call is
 * recorded with its idempotency key; a key seen before answers the first result again without
 * taking an outcome from the queue (as a provider's idempotency keys do).
 */
export class FakePaymentProvider implements PaymentProvider {
  readonly requests: ChargeRequest[] = [];
  readonly refunds: { gatewayPayId: number; amountCentavos: number }[] = [];
  readonly canceled: number[] = [];
  /** Cards saved by approved charges with `saveCard`, by token; `declineWith` scripts their later charges. */
  readonly savedCards = new Map<string, SavedCardToken & { tenant: Tenant; declineWith?: string }>();
  readonly savedCardCharges: SavedCardChargeRequest[] = [];
  readonly detached: string[] = [];
  readonly tokenizeRequests: TokenizeCardRequest[] = [];
  readonly pixAutomaticCharges: PixAutomaticChargeRequest[] = [];
  /** Authorizations issued by pix charges with `recurringConsent`, by id. */
  readonly pixAuthorizations = new Map<string, FakePixAuthorization>();
  /** Outcomes of the next saved-card charges, first in first out. */
  readonly savedCardOutcomes: ScriptedOutcome[] = [];
  /** Outcomes of the next Pix Automático debits, first in first out. */
  readonly pixAutomaticOutcomes: ScriptedOutcome[] = [];
  /** The first result of each idempotency key (saved-card and Pix Automático charges). */
  readonly idempotentResults = new Map<string, ChargeResult>();
  failWith: Error | null = null;
  private nextGatewayId = FAKE_GATEWAY_ID_BASE;

  constructor(
    readonly provider = 'fake',
    readonly ready = true,
  ) {}

  /** What each charge answered, by gateway id: what lookupCharge finds (a test deletes one to lose it). */
  readonly charges = new Map<number, ChargeResult>();

  async reserveReference(): Promise<number> {
    return ++this.nextGatewayId;
  }

  async lookupCharge(_tenant: Tenant, gatewayPayId: number): Promise<ChargeResult | null> {
    return this.charges.get(gatewayPayId) ?? null;
  }

  async createCharge(request: ChargeRequest): Promise<ChargeResult> {
    const result = await this.charge(request);
    this.charges.set(result.gatewayPayId, result);
    return result;
  }

  private async charge(request: ChargeRequest): Promise<ChargeResult> {
    this.requests.push(request);
    if (this.failWith) throw this.failWith;
    const gatewayPayId = request.gatewayPayId ?? ++this.nextGatewayId;
    if (request.method === 'pix') {
      const pix = {
        qrCode: `pix-qr-${gatewayPayId}`,
        txid: `txid${gatewayPayId}`,
        expiresAt: request.expiresAt ?? '',
      };
      if (!request.recurringConsent) return { outcome: 'pending', gatewayPayId, pix };
      const authorizationId = `pixauth_fake_${gatewayPayId}`;
      this.pixAuthorizations.set(authorizationId, {
        tenant: request.tenant,
        status: 'pending',
        maxAmountCentavos: request.recurringConsent.maxAmountCentavos,
        gatewayPayId,
      });
      return { outcome: 'pending', gatewayPayId, pix: { ...pix, authorizationId } };
    }
    if (request.method === 'boleto') {
      return {
        outcome: 'pending',
        gatewayPayId,
        boleto: {
          barcode: `barcode-${gatewayPayId}`,
          digitableLine: `line-${gatewayPayId}`,
          formattedLine: `formatted-${gatewayPayId}`,
          dueDate: request.dueDate ?? '',
          pdfUrl: `https://fake.example/boletos/${gatewayPayId}.pdf`,
        },
      };
    }
    const number = request.card?.number ?? '';
    const card = { brand: 'visa', last4: number.slice(-4) };
    const scripted = SANDBOX_CARDS[number] ?? {
      outcome: 'declined' as const,
      failureCode: 'card_declined' as const,
      failureReason: 'The card was declined by the issuer.',
    };
    if (scripted.outcome === 'approved') {
      if (!request.saveCard) return { outcome: 'approved', gatewayPayId, card, authorizationCode: 'AUTH01' };
      const saved: SavedCardToken = {
        token: `tok_fake_${gatewayPayId}`,
        ...card,
        expiryMonth: request.card?.expiryMonth ?? 12,
        expiryYear: request.card?.expiryYear ?? 2034,
      };
      this.savedCards.set(saved.token, { ...saved, tenant: request.tenant });
      return { outcome: 'approved', gatewayPayId, card, authorizationCode: 'AUTH01', savedCard: saved };
    }
    return {
      outcome: scripted.outcome,
      gatewayPayId,
      card,
      failureCode: scripted.failureCode,
      failureReason: scripted.failureReason,
      gatewayFailureCode: `fake_${scripted.failureCode}`,
    };
  }

  /**
   * The queued outcome, else approved unless the saved card was given a `declineWith` code; a token
   * of another tenant is unknown; a key seen before answers its first result.
   */
  async chargeSavedCard(request: SavedCardChargeRequest): Promise<ChargeResult> {
    this.savedCardCharges.push(request);
    if (this.failWith) throw this.failWith;
    const saved = this.savedCards.get(request.token);
    if (!saved || !sameTenant(saved.tenant, request.tenant)) throw new NotFoundError('Saved card not found');
    const card = { brand: saved.brand, last4: saved.last4 };
    return this.once(request.tenant, request.idempotencyKey, () => {
      const scripted = this.savedCardOutcomes.shift();
      if (scripted) return this.scripted(scripted, card);
      if (!saved.declineWith) return this.approved(card);
      return this.failed({ outcome: 'declined', failureCode: saved.declineWith }, card);
    });
  }

  /** Tokenizes the sandbox's approving test numbers; any other number is declined like a charge. */
  async tokenizeCard(request: TokenizeCardRequest): Promise<TokenizeResult> {
    this.tokenizeRequests.push(request);
    if (this.failWith) throw this.failWith;
    const scripted = SANDBOX_CARDS[request.card.number];
    if (scripted?.outcome !== 'approved') {
      const failureCode = scripted?.failureCode ?? 'card_declined';
      return {
        outcome: 'declined',
        failureCode,
        failureReason: scripted?.failureReason ?? 'The card was declined by the issuer.',
        gatewayFailureCode: `fake_${failureCode}`,
      };
    }
    const savedCard: SavedCardToken = {
      token: `tok_fake_t${this.tokenizeRequests.length}`,
      brand: 'visa',
      last4: request.card.number.slice(-4),
      expiryMonth: request.card.expiryMonth,
      expiryYear: request.card.expiryYear < 100 ? 2000 + request.card.expiryYear : request.card.expiryYear,
    };
    this.savedCards.set(savedCard.token, { ...savedCard, tenant: request.tenant });
    return { outcome: 'approved', savedCard };
  }

  /** The queued outcome, else what the authorization allows; another tenant's authorization is unknown. */
  async chargePixAutomatic(request: PixAutomaticChargeRequest): Promise<ChargeResult> {
    this.pixAutomaticCharges.push(request);
    if (this.failWith) throw this.failWith;
    const authorization = this.pixAuthorizations.get(request.authorizationId);
    if (!authorization || !sameTenant(authorization.tenant, request.tenant))
      throw new NotFoundError('Pix authorization not found');
    const card = { brand: 'pix', last4: '' };
    return this.once(request.tenant, request.idempotencyKey, () => {
      const scripted = this.pixAutomaticOutcomes.shift();
      if (scripted) return this.scripted(scripted, card);
      if (authorization.status !== 'active')
        return this.failed({ outcome: 'declined', failureCode: 'authorization_revoked' }, card);
      if (request.amountCentavos > authorization.maxAmountCentavos)
        return this.failed({ outcome: 'declined', failureCode: 'amount_above_limit' }, card);
      return this.approved(card);
    });
  }

  async pixAuthorizationStatus(
    tenant: Tenant,
    authorizationId: string,
  ): Promise<PixAuthorizationStatus | null> {
    const authorization = this.pixAuthorizations.get(authorizationId);
    return authorization && sameTenant(authorization.tenant, tenant) ? authorization.status : null;
  }

  /** What the buyer's first pix payment (or the bank) does to an authorization. */
  setPixAuthorizationStatus(authorizationId: string, status: PixAuthorizationStatus): void {
    const authorization = this.pixAuthorizations.get(authorizationId);
    if (!authorization) throw new Error(`unknown fake pix authorization ${authorizationId}`);
    authorization.status = status;
  }

  private async once(tenant: Tenant, key: string, charge: () => ChargeResult): Promise<ChargeResult> {
    const scoped = `${tenant.sellerId}:${tenant.environment}:${key}`;
    const first = this.idempotentResults.get(scoped);
    if (first) return first;
    const result = charge();
    this.idempotentResults.set(scoped, result);
    return result;
  }

  private scripted(outcome: ScriptedOutcome, card: { brand: string; last4: string }): ChargeResult {
    if (outcome === 'approved') return this.approved(card);
    if (outcome === 'pending') return { outcome: 'pending', gatewayPayId: ++this.nextGatewayId };
    if ('throw' in outcome) throw outcome.throw;
    return this.failed(outcome, card);
  }

  private approved(card: { brand: string; last4: string }): ChargeResult {
    return { outcome: 'approved', gatewayPayId: ++this.nextGatewayId, card, authorizationCode: 'AUTH02' };
  }

  private failed(
    failure: { outcome: 'declined' | 'error'; failureCode: string; failureReason?: string },
    card: { brand: string; last4: string },
  ): ChargeResult {
    return {
      outcome: failure.outcome,
      gatewayPayId: ++this.nextGatewayId,
      card,
      failureCode: failure.failureCode,
      failureReason: failure.failureReason ?? 'The card was declined.',
      gatewayFailureCode: `fake_${failure.failureCode}`,
    };
  }

  async detachSavedCard(_tenant: Tenant, token: string): Promise<void> {
    this.detached.push(token);
    this.savedCards.delete(token);
  }

  async cancel(gatewayPayId: number): Promise<void> {
    this.canceled.push(gatewayPayId);
  }

  /** The references refunds were made under, per gateway id: a reference is refunded once. */
  readonly refundRefs = new Map<number, string[]>();

  async refund(
    gatewayPayId: number,
    amountCentavos: number,
    reference?: string,
  ): Promise<{ refundId: string }> {
    const refs = this.refundRefs.get(gatewayPayId) ?? [];
    if (reference && refs.includes(reference)) return { refundId: reference };
    this.refunds.push({ gatewayPayId, amountCentavos });
    if (reference) this.refundRefs.set(gatewayPayId, [...refs, reference]);
    return { refundId: reference ?? `re_${this.refunds.length}` };
  }

  async refundHeld(gatewayPayId: number, reference: string): Promise<boolean> {
    return (this.refundRefs.get(gatewayPayId) ?? []).includes(reference);
  }

  /** What `status` reports for a charge a test moved at the provider (else a charge it issued is pending). */
  readonly reportedStatuses = new Map<number, ChargeStatus>();
  /** Makes `status` reject (the provider unreachable). */
  statusFailsWith: Error | null = null;

  async status(gatewayPayId: number): Promise<ChargeStatus | null> {
    if (this.statusFailsWith) throw this.statusFailsWith;
    const reported = this.reportedStatuses.get(gatewayPayId);
    if (reported) return reported;
    return gatewayPayId > FAKE_GATEWAY_ID_BASE && gatewayPayId <= this.nextGatewayId ? 'pending' : null;
  }

  /** What `listPayments` answers, by `<sellerId>:<day>` (nothing listed by default). */
  readonly listedPayments = new Map<string, ProviderPayment[]>();

  async listPayments(tenant: Tenant, day: string): Promise<ProviderPayment[]> {
    return this.listedPayments.get(`${tenant.sellerId}:${day}`) ?? [];
  }

  async health(): Promise<GatewayHealth> {
    return { status: 'healthy', provider: this.provider, latencyMs: 0 };
  }
}

function sameTenant(a: Tenant, b: Tenant): boolean {
  return a.sellerId === b.sellerId && a.environment === b.environment;
}
