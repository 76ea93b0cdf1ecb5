import type { ChargeMethod, ChargeResult, PixAuthorizationStatus } from '#shared/domain/payments/gateway';

/** Which of the provider's environments a seller's account lives in. */
export type ProviderEnvironment = 'sandbox' | 'production';

/** What a live provider adapter needs to call the provider for one seller; never logged. */
export interface ProviderCredentials {
  apiKey: string;
  environment: ProviderEnvironment;
}

/** Finds the credentials of a seller's connected account (decrypted); null when not connected. */
export type CredentialsResolver = (sellerId: number) => Promise<ProviderCredentials | null>;

/** Encrypts a seller's provider secret at rest: KMS on AWS, a local key file in the local runtime. */
export interface SecretCipher {
  encrypt(plaintext: string, context: Record<string, string>): Promise<string>;
  decrypt(ciphertext: string, context: Record<string, string>): Promise<string>;
}

/**
 * A consent pix charge's `providerPaymentId` until its first payment exists: the provider's
 * authorization id behind this prefix (the payment is created by the provider when the QR is paid).
 */
export const PIX_AUTHORIZATION_LINK_PREFIX = 'pixauth:';

/** Our numeric gateway id ↔ the provider's payment id, and whose charge it is. */
export interface ProviderChargeLink {
  gatewayPayId: number;
  providerPaymentId: string;
  sellerId: number;
  method: ChargeMethod;
  amountCentavos: number;
}

/**
 * A Pix Automático authorization a live provider issued with one of our pix charges: whose it is,
 * the charge whose QR code carries it, and what its webhooks last said of it.
 */
export interface ProviderPixAuthorization {
  authorizationId: string;
  sellerId: number;
  /** The provider account environment it was issued in. */
  account: string;
  /** The provider's customer (the payer) the authorization binds. */
  customerId: string;
  /** Our gateway id of the first (immediate QR) charge. */
  gatewayPayId: number;
  /** The immediate QR code's conciliation id, which the first payment carries. */
  conciliationId: string;
  maxAmountCentavos: number;
  status: PixAuthorizationStatus;
}

/**
 * What a live provider adapter remembers between calls: the provider's customer of a buyer (created
 * once, reused by document), each charge's link, and the first answer to a saved-card debit key.
 */
export interface ProviderLinks {
  customerId(sellerId: number, account: string, document: string): Promise<string | null>;
  saveCustomer(sellerId: number, account: string, document: string, customerId: string): Promise<void>;
  /** Reserves a gateway id; throws ConditionFailedError (a redraw) when the id is taken. */
  reserveCharge(link: ProviderChargeLink): Promise<void>;
  /** Records the provider's payment id once the provider created the charge. */
  linkCharge(gatewayPayId: number, providerPaymentId: string): Promise<void>;
  charge(gatewayPayId: number): Promise<ProviderChargeLink | null>;
  replayed(sellerId: number, idempotencyKey: string): Promise<ChargeResult | null>;
  /**
   * Writes ahead the reference a debit key charges under, before the charge: the first writer's
   * reference wins and is answered (a retry of the key finds the charge a crashed run made).
   */
  reserveKey(sellerId: number, idempotencyKey: string, gatewayPayId: number): Promise<number>;
  remember(sellerId: number, idempotencyKey: string, result: ChargeResult): Promise<void>;
  /**
   * The IP address the buyer saved a card from (Asaas asks every card payment for the buyer's
   * `remoteIp`; a renewal on the saved token sends this one). Keyed by the token's SHA-256.
   */
  rememberCardIp(sellerId: number, tokenHash: string, ip: string): Promise<void>;
  cardIp(sellerId: number, tokenHash: string): Promise<string | null>;
  /** Stores a new authorization with the pointer from its QR code's conciliation id. */
  savePixAuthorization(authorization: ProviderPixAuthorization): Promise<void>;
  pixAuthorization(authorizationId: string): Promise<ProviderPixAuthorization | null>;
  pixAuthorizationOfConciliation(conciliationId: string): Promise<ProviderPixAuthorization | null>;
  /** Records the status a webhook or a query reported; a revoked one stays revoked. */
  setPixAuthorizationStatus(authorizationId: string, status: PixAuthorizationStatus): Promise<void>;
}

/** A seller's connected account at a live provider; the API key only encrypted. */
export interface ProviderConnection {
  sellerId: number;
  provider: string;
  environment: ProviderEnvironment;
  encryptedApiKey: string;
  /** The last 4 characters of the key, so the seller recognises which one is stored. */
  apiKeyLast4: string;
  accountName: string;
  /** SHA-256 (hex) of the token the provider sends in its webhooks' header; the token is shown once. */
  webhookTokenHash: string;
  connectedAt: string;
}

export interface ProviderConnectionRepository {
  get(sellerId: number, provider: string): Promise<ProviderConnection | null>;
  /** Stores (or replaces) the connection and the pointer of its webhook token; the old token stops working. */
  save(connection: ProviderConnection): Promise<void>;
  /**
   * Deletes the connection as read and its token pointer: false when it is gone; ConflictError
   * (reason `changed`) when it was replaced since the read.
   */
  remove(connection: ProviderConnection): Promise<boolean>;
  sellerOfWebhookToken(provider: string, tokenHash: string): Promise<number | null>;
  /** The sellers connected to `provider`, a page at a time (`cursor` from the previous page). */
  connectedSellers(provider: string, cursor?: string): Promise<{ sellerIds: number[]; cursor?: string }>;
}

/** Checks a key at the provider: the account's name, or a refusal. */
export interface ProviderAccounts {
  /** Throws ProviderKeyRefused for a key the provider does not accept; a 503 when it is unavailable. */
  accountName(credentials: ProviderCredentials): Promise<string>;
}
