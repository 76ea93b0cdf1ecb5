import {
  IDEMPOTENCY_TTL_SECONDS,
  IN_PROGRESS_LEASE_SECONDS,
  type StoredResponse,
} from '#shared/domain/idempotency';
import type { BeginOutcome } from '#shared/domain/ports';
import { keys } from '../keys';
import { defineEntity } from './entity';

const epoch = (d: Date) => Math.floor(d.getTime() / 1000);

/** A request's claim of its idempotency key, as the request that wins it writes it. */
export interface IdempotencyClaim {
  scope: string;
  key: string;
  fingerprint: string;
  now: Date;
}

/**
 * An idempotency key of a scope (a tenant, or an IP), kept 24 h: claimed `in_progress` with a
 * lease (epoch seconds, like `ttl`), then `completed` with the stored answer by an update. It
 * reads back as what a later request with the same key meets (never `started`).
 */
export const idempotencyEntity = defineEntity({
  entity: 'idempotency',
  version: 1,
  key: (c: IdempotencyClaim) => keys.idempotency(c.scope, c.key),
  patterns: {},
  attributes: (c) => ({
    state: 'in_progress',
    fingerprint: c.fingerprint,
    leaseUntil: epoch(c.now) + IN_PROGRESS_LEASE_SECONDS,
    ttl: epoch(c.now) + IDEMPOTENCY_TTL_SECONDS,
    createdAt: c.now.toISOString(),
  }),
  fromItem: (item): Exclude<BeginOutcome, { state: 'started' }> =>
    item.state === 'completed'
      ? {
          state: 'completed',
          fingerprint: String(item.fingerprint),
          response: item.response as StoredResponse,
        }
      : { state: 'in_progress', fingerprint: String(item.fingerprint) },
});
