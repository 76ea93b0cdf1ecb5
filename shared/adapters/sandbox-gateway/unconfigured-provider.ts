import { PROVIDER_NOT_CONFIGURED } from '#shared/domain/payments/gateway';
import type { GatewayHealth, PaymentProvider } from '#shared/domain/ports';
import { ServiceUnavailableError } from '#shared/errors';

/** The live slot until a real provider is integrated: it refuses, it never pretends to charge. */
export class UnconfiguredProvider implements PaymentProvider {
  readonly provider = 'live-unconfigured';
  readonly ready = false;

  private refuse(): never {
    throw new ServiceUnavailableError(PROVIDER_NOT_CONFIGURED, 'provider_not_configured');
  }

  reserveReference = async () => this.refuse();
  lookupCharge = async () => this.refuse();
  createCharge = async () => this.refuse();
  chargeSavedCard = async () => this.refuse();
  detachSavedCard = async () => this.refuse();
  tokenizeCard = async () => this.refuse();
  chargePixAutomatic = async () => this.refuse();
  pixAuthorizationStatus = async () => this.refuse();
  cancel = async () => this.refuse();
  refund = async () => this.refuse();
  refundHeld = async () => this.refuse();
  status = async () => this.refuse();
  listPayments = async () => this.refuse();

  async health(): Promise<GatewayHealth> {
    return {
      status: 'unhealthy',
      provider: this.provider,
      latencyMs: 0,
      detail: 'no live provider configured',
    };
  }
}
