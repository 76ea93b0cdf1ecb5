import type { Environment } from '#shared/domain/tenant';
import type { SecretKey } from './system';

/** The key that seals magic links (the `magicLink` secret). */
export type MagicLinkKeyring = SecretKey;

/** Global customers found by the e-mail they were registered with (lower case), per environment. */
export interface CustomerDirectory {
  documentsByEmail(environment: Environment, email: string): Promise<string[]>;
  /** The sellers with a profile of the global customer (registered since issue 15), by seller id. */
  sellersOf(environment: Environment, document: string): Promise<CustomerSellerLink[]>;
  /** The seller's display name (its account name), or null when it has none. */
  sellerName(sellerId: number): Promise<string | null>;
}

export interface CustomerSellerLink {
  sellerId: number;
  /** The seller's profile of the customer: its numeric id and uuid. */
  customerId: number;
  uuid: string;
}

/**
 * Holds an answer until a minimum wall time has passed since `begin`, so an answer's timing does not
 * tell what the request found (the magic-link request: a match sends an e-mail, a miss does not).
 */
export interface ResponsePacer {
  begin(floorMs: number): () => Promise<void>;
}
