import { SANDBOX_CARDS } from '../../../shared/domain/payments/cards';
import type {
  ChargeRequest,
  ChargeResult,
  ChargeStatus,
  SavedCardChargeRequest,
  SavedCardToken,
} from '../../../shared/domain/payments/gateway';
import type { GatewayHealth, PaymentProvider } from '../../../shared/domain/ports';
import type { Tenant } from '../../../shared/domain/tenant';
import { NotFoundError } from '../../../shared/errors';

/** Gateway ids the fake hands out start here: the first charge is 7_000_001. */
export const FAKE_GATEWAY_ID_BASE = 7_000_000;

/**
 * A provider that keeps its charges in memory. Pix and boleto are pending with fixed artifacts;
 * cards follow the sandbox's scripted test numbers (any other number is declined card_declined).
 * `failWith` makes createCharge reject; `ready: false` is an unconfigured live provider.
 */
export class FakePaymentProvider implements PaymentProvider {
  readonly requests: ChargeRequest[] = [];
  readonly refunds: { gatewayPayId: number; amountCentavos: number }[] = [];
  readonly canceled: number[] = [];
  /** Cards saved by approved charges with `saveCard`, by token; `declineWith` scripts their later charges. */
  readonly savedCards = new Map<string, SavedCardToken & { tenant: Tenant; declineWith?: string }>();
  readonly savedCardCharges: SavedCardChargeRequest[] = [];
  readonly detached: string[] = [];
  failWith: Error | null = null;
  private nextGatewayId = FAKE_GATEWAY_ID_BASE;

  constructor(
    readonly provider = 'fake',
    readonly ready = true,
  ) {}

  async createCharge(request: ChargeRequest): Promise<ChargeResult> {
    this.requests.push(request);
    if (this.failWith) throw this.failWith;
    const gatewayPayId = ++this.nextGatewayId;
    if (request.method === 'pix') {
      return {
        outcome: 'pending',
        gatewayPayId,
        pix: {
          qrCode: `pix-qr-${gatewayPayId}`,
          txid: `txid${gatewayPayId}`,
          expiresAt: request.expiresAt ?? '',
        },
      };
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

  /** Approves unless the saved card was given a `declineWith` code; a token of another tenant is unknown. */
  async chargeSavedCard(request: SavedCardChargeRequest): Promise<ChargeResult> {
    this.savedCardCharges.push(request);
    if (this.failWith) throw this.failWith;
    const saved = this.savedCards.get(request.token);
    if (
      !saved ||
      saved.tenant.sellerId !== request.tenant.sellerId ||
      saved.tenant.environment !== request.tenant.environment
    )
      throw new NotFoundError('Saved card not found');
    const gatewayPayId = ++this.nextGatewayId;
    const card = { brand: saved.brand, last4: saved.last4 };
    if (!saved.declineWith) return { outcome: 'approved', gatewayPayId, card, authorizationCode: 'AUTH02' };
    return {
      outcome: 'declined',
      gatewayPayId,
      card,
      failureCode: saved.declineWith,
      failureReason: 'The card was declined.',
      gatewayFailureCode: `fake_${saved.declineWith}`,
    };
  }

  async detachSavedCard(_tenant: Tenant, token: string): Promise<void> {
    this.detached.push(token);
    this.savedCards.delete(token);
  }

  async cancel(gatewayPayId: number): Promise<void> {
    this.canceled.push(gatewayPayId);
  }

  async refund(gatewayPayId: number, amountCentavos: number): Promise<{ refundId: string }> {
    this.refunds.push({ gatewayPayId, amountCentavos });
    return { refundId: `re_${this.refunds.length}` };
  }

  async status(gatewayPayId: number): Promise<ChargeStatus | null> {
    return gatewayPayId > FAKE_GATEWAY_ID_BASE && gatewayPayId <= this.nextGatewayId ? 'pending' : null;
  }

  async health(): Promise<GatewayHealth> {
    return { status: 'healthy', provider: this.provider, latencyMs: 0 };
  }
}
