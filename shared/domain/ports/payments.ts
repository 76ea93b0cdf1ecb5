import type {
  ChargeLookupHint,
  ChargeMethod,
  ChargeRequest,
  ChargeResult,
  ChargeStatus,
  PaidWith,
  PixAuthorizationStatus,
  PixAutomaticChargeRequest,
  SandboxAction,
  SandboxCharge,
  SavedCardChargeRequest,
  TokenizeCardRequest,
  TokenizeResult,
} from '#shared/domain/payments/gateway';
import type { Tenant } from '#shared/domain/tenant';

/**
 * The 32-byte key of the card-testing defences (keyed card fingerprints, signed proof-of-work
 * challenges): Secrets Manager on AWS (read once per container), a file in the data folder locally.
 */
export interface CardTestingKeyring {
  key(): Promise<Uint8Array>;
}

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
  /**
   * Whether this tenant can be charged now, for a provider that works per seller (a live seller
   * with a connected account). Absent: `ready` says it all.
   */
  connected?(tenant: Tenant): Promise<boolean>;
  /**
   * A fresh reference (our gateway id) for a charge about to be attempted: written with the attempt
   * before the charge, sent with it (ChargeRequest.gatewayPayId) as the provider's external reference.
   */
  reserveReference(tenant: Tenant, method: ChargeMethod, amountCentavos: number): Promise<number>;
  /**
   * What the provider holds under a reference, answered as its charge would have been; null when it
   * holds nothing (the charge never reached it, or a card was refused before any payment existed).
   */
  lookupCharge(tenant: Tenant, gatewayPayId: number, hint: ChargeLookupHint): Promise<ChargeResult | null>;
  createCharge(request: ChargeRequest): Promise<ChargeResult>;
  /**
   * Charges a card saved by an earlier approved charge (`saveCard`), without the buyer: approved,
   * declined or error like a card charge. Throws NotFoundError for a token this tenant does not own.
   */
  chargeSavedCard(request: SavedCardChargeRequest): Promise<ChargeResult>;
  /** Verifies and tokenizes a card without charging it (a trial start, a portal card change). */
  tokenizeCard(request: TokenizeCardRequest): Promise<TokenizeResult>;
  /**
   * Debits a Pix Automático authorization: approved (paid), or declined (`authorization_revoked`,
   * `insufficient_funds`) or error, like a saved-card charge; one debit per idempotency key.
   */
  chargePixAutomatic(request: PixAutomaticChargeRequest): Promise<ChargeResult>;
  /** The authorization's state at the provider; null for one it never issued (or another tenant's). */
  pixAuthorizationStatus(tenant: Tenant, authorizationId: string): Promise<PixAuthorizationStatus | null>;
  /** Forgets a saved card at the provider; a token already gone is not an error. */
  detachSavedCard(tenant: Tenant, token: string): Promise<void>;
  /** Makes a pending pix or boleto unpayable. */
  cancel(gatewayPayId: number): Promise<void>;
  /**
   * Refunds part or all of a paid charge. `reference` (our refund's id) is kept with the refund at
   * the provider: a refund already made under it is not made again, and `refundHeld` finds it.
   */
  refund(gatewayPayId: number, amountCentavos: number, reference?: string): Promise<{ refundId: string }>;
  /** Whether the provider holds a refund made under `reference` on this charge. */
  refundHeld(gatewayPayId: number, reference: string): Promise<boolean>;
  status(gatewayPayId: number): Promise<ChargeStatus | null>;
  /**
   * What a paid pix or boleto cleared and how it was paid, as the provider reports it (a late
   * boleto's fine and interest included): what a notification that never came would have said. Null
   * when the provider holds no paid pix or boleto under the reference.
   */
  paidDetails?(gatewayPayId: number): Promise<PaidDetails | null>;
  health(): Promise<GatewayHealth>;
  /**
   * Every payment the provider holds for the tenant created on `day` (YYYY-MM-DD, Sao Paulo), as the
   * daily reconciliation compares them with our transactions. Throws like any call when the
   * provider cannot answer (nothing is compared then).
   */
  listPayments(tenant: Tenant, day: string): Promise<ProviderPayment[]>;
}

export interface PaidDetails {
  /** Centavos that cleared; absent when the provider does not say. */
  amountCentavos?: number;
  paidWith?: PaidWith;
}

/** One payment as the provider lists it (one row per provider payment: a card's installments each). */
export interface ProviderPayment {
  /** The provider's own id (Asaas `pay_…`, the sandbox's gateway id). */
  providerPaymentId: string;
  /** Our gateway id: the payment's external reference (or its link); null when it names none of ours. */
  gatewayPayId: number | null;
  /** Centavos of the charge itself (before a late boleto's fine and interest). */
  amountCentavos: number;
  status: ChargeStatus;
}

/** Chooses the provider of a tenant: sandbox for test, the live provider for live. */
export interface GatewayRouter {
  forEnvironment(environment: Tenant['environment']): PaymentProvider;
  /** The provider that signed a notification, by name. */
  byName(provider: string): PaymentProvider | undefined;
}

/** What only the sandbox does: serve its boleto documents and play the payer or the bank. */
export interface SandboxOperations {
  /** Whether the token of a boleto document link is the one the sandbox issued for it. */
  validPdfToken(gatewayPayId: number, token: string | undefined): Promise<boolean>;
  charge(gatewayPayId: number): Promise<SandboxCharge | null>;
  /**
   * Pays, fails or charges back a charge and sends the signed notification a provider would.
   * `paidAmount` (pay of a boleto): the centavos the bank cleared (fine and interest above face
   * value); `notify: false`: the bank moves the charge but the notification never arrives.
   */
  simulate(
    gatewayPayId: number,
    action: SandboxAction,
    failureCode?: string,
    options?: SimulateOptions,
  ): Promise<void>;
  /**
   * How a saved card answers its later charges from now on (an expired card still declines
   * `expired_card`). Throws NotFoundError for a token this tenant does not own.
   */
  setSavedCardOutcome(tenant: Tenant, token: string, behaviour: SandboxCardBehaviour): Promise<void>;
  /**
   * Plays the buyer's bank on a Pix Automático authorization: `approve` makes a pending one active
   * without a payment (an active one stays active), `revoke` revokes it. Answers the status after;
   * NotFoundError for an authorization this tenant does not own; ConflictError to approve a revoked one.
   */
  setPixAuthorization(
    tenant: Tenant,
    authorizationId: string,
    action: 'approve' | 'revoke',
  ): Promise<PixAuthorizationStatus>;
}

export interface SimulateOptions {
  paidAmount?: number;
  notify?: boolean;
  /** pay of a hybrid boleto: the payer used its pix (default: the boleto itself). */
  paidWith?: PaidWith;
}

/** What a sandbox saved card does when charged: approve, or decline / error with a failure code. */
export type SandboxCardBehaviour =
  | { outcome: 'approved' }
  | { outcome: 'declined' | 'error'; failureCode: string };
