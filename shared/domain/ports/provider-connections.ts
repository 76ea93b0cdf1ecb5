import type { ChargeMethod, ChargeResult } from '#shared/domain/payments/gateway';

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

/** Our numeric gateway id ↔ the provider's payment id, and whose charge it is. */
export interface ProviderChargeLink {
  gatewayPayId: number;
  providerPaymentId: string;
  sellerId: number;
  method: ChargeMethod;
  amountCentavos: number;
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
  remember(sellerId: number, idempotencyKey: string, result: ChargeResult): Promise<void>;
}
