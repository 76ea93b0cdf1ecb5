import { createApiKeyRepository } from './api-key-repository';
import { createHealthRepository } from './health-repository';
import { createIdempotencyRepository } from './idempotency-repository';
import { createRateLimitRepository } from './rate-limit-repository';
import { createSellerRepository } from './seller-repository';
import type { Table } from './table';

/** Every repository, built once per container from the one table. */
export function createRepositories(table: Table) {
  return {
    health: createHealthRepository(table),
    apiKeys: createApiKeyRepository(table),
    rateLimits: createRateLimitRepository(table),
    idempotency: createIdempotencyRepository(table),
    sellers: createSellerRepository(table),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
