import type { GatewayHealth } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';

/**
 * The one port to a payment provider. Test-environment tenants always get the sandbox; live
 * tenants get the live provider (none is configured yet: it refuses to charge, never pretends).
 */
export type ChargeMethod = 'pix' | 'boleto' | 'creditcard';

export interface CardInput {
  number: string;
  holderName: string;
  expiryMonth: number;
  expiryYear: number;
  cvv: string;
}

export interface ChargeRequest {
  tenant: Tenant;
  transactionId: number;
  method: ChargeMethod;
  amountCentavos: number;
  installments: number;
  description: string;
  customer: { name: string; document: string; email: string };
  card?: CardInput;
  /** Boleto due date (YYYY-MM-DD, Sao Paulo). */
  dueDate?: string;
  /** When a pix charge stops being payable. */
  expiresAt?: string;
}

export interface PixArtifact {
  qrCode: string;
  txid: string;
  expiresAt: string;
}

export interface BoletoArtifact {
  barcode: string;
  digitableLine: string;
  formattedLine: string;
  dueDate: string;
  pdfUrl: string;
}

export interface CardSummary {
  brand: string;
  last4: string;
}

export type ChargeResult =
  | { outcome: 'pending'; gatewayPayId: number; pix?: PixArtifact; boleto?: BoletoArtifact }
  | { outcome: 'approved'; gatewayPayId: number; card: CardSummary; authorizationCode: string }
  | {
      outcome: 'declined' | 'error';
      gatewayPayId: number;
      card: CardSummary;
      failureCode: string;
      failureReason: string;
      gatewayFailureCode: string;
    };

export type ChargeStatus = 'pending' | 'paid' | 'failed' | 'canceled' | 'refunded' | 'charged_back';

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

export const PROVIDER_NOT_CONFIGURED =
  'No payment provider is configured for live payments; nothing was charged. Use a sk_test_ key for sandbox payments.';

/** Chooses the provider of a tenant: sandbox for test, the live provider for live. */
export interface GatewayRouter {
  forEnvironment(environment: Tenant['environment']): PaymentProvider;
  /** The provider that signed a notification, by name. */
  byName(provider: string): PaymentProvider | undefined;
}
