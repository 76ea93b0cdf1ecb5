import type { Environment } from '#shared/domain/tenant';

/**
 * The 32-byte key that seals magic links: Secrets Manager on AWS (read once per container), a
 * file in the data folder locally, memory in tests.
 */
export interface MagicLinkKeyring {
  key(): Promise<Uint8Array>;
}

/** Global customers found by the e-mail they were registered with (lower case), per environment. */
export interface CustomerDirectory {
  documentsByEmail(environment: Environment, email: string): Promise<string[]>;
}
