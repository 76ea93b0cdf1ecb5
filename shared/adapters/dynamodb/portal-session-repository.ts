import type { PortalSessionRepository } from '#shared/domain/ports';
import { portalSessionEntity } from './entities/portal-session';
import { keys } from './keys';
import { countRequest } from './rate-counter';
import { alreadyExists, type Item, orConflict, type Table } from './table';

const toItem = portalSessionEntity.toItem;

export function createPortalSessionRepository(table: Table): PortalSessionRepository {
  return {
    nextId: () => table.nextId('portal-session', { block: 20 }),

    async create(session) {
      await orConflict(
        table.put(toItem(session), { ConditionExpression: 'attribute_not_exists(pk)' }),
        alreadyExists('The portal session'),
      );
    },

    async findByTokenHash(tokenHash) {
      const item = await table.get<Item>(keys.portalSession(tokenHash), { consistent: true });
      return item ? portalSessionEntity.fromItem(item) : null;
    },

    async authenticate(tokenHash, at, window) {
      // ISO instants of one format order as strings: `expiresAt > now` is the Clock's "not expired".
      const now = at.toISOString();
      const result = await countRequest({
        table,
        key: keys.portalSession(tokenHash),
        window,
        now: at,
        guard: 'attribute_exists(pk) AND expiresAt > :gNow',
        guardValues: { ':gNow': now },
        guardHolds: (existing) => existing !== undefined && String(existing.expiresAt) > now,
      });
      if (!result) return null;
      return { session: portalSessionEntity.fromItem(result.item), count: result.count };
    },
  };
}
