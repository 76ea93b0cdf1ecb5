import type { ChargeRequest, ChargeResult, ChargeStatus } from '#shared/domain/payments/gateway';
import type { Tenant } from '#shared/domain/tenant';

export type GatewayHealth = {
  status: 'healthy' | 'unhealthy';
  provider: string;
  latencyMs: number;
  detail?: string;
};

export interface PaymentGateway {
  readonly provider: string;
  health(): Promise<GatewayHealth>;
}

/**
 * The one port to a payment provider. Test-environment tenants always get the sandbox; live
 * tenants get the live provider (none is configured yet: it refuses to charge, never pretends).
 */
export interface PaymentProvider {
  readonly provider: string;
  /** False for a provider that is not configured: callers refuse before writing anything. */
  readonly ready: boolean;
  createCharge(request: ChargeRequest): Promise<ChargeResult>;
  /** Makes a pending pix or boleto unpayable. */
  cancel(gatewayPayId: number): Promise<void>;
  refund(gatewayPayId: number, amountCentavos: number): Promise<{ refundId: string }>;
  status(gatewayPayId: number): Promise<ChargeStatus | null>;
  health(): Promise<GatewayHealth>;
}

/** Chooses the provider of a tenant: sandbox for test, the live provider for live. */
export interface GatewayRouter {
  forEnvironment(environment: Tenant['environment']): PaymentProvider;
  /** The provider that signed a notification, by name. */
  byName(provider: string): PaymentProvider | undefined;
}
