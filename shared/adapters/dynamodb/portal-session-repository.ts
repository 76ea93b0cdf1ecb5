import type { PortalSession } from '#shared/domain/portal/session';
import type { PortalSessionRepository } from '#shared/domain/ports';
import { keys } from './keys';
import { countRequest } from './rate-counter';
import { alreadyExists, type Item, orConflict, type Table } from './table';
import { TABLE } from './table-definition';
import { fromTenantAttributes, tenantAttributes } from './tenant-fields';

const ENTITY = 'portal-session';
/** TTL deletion may lag for days, so callers check `expiresAt`; the day of margin only keeps it tidy. */
const TTL_MARGIN_SECONDS = 86_400;

const DATA_FIELDS = [
  'id',
  'tokenHash',
  'customer',
  'productId',
  'returnUrl',
  'expiresAt',
  'createdAt',
] as const;

function toItem(s: PortalSession): Item {
  return {
    ...keys.portalSession(s.tokenHash),
    entity: ENTITY,
    version: 1,
    ...tenantAttributes(s, DATA_FIELDS),
    [TABLE.ttlAttribute]: Math.floor(Date.parse(s.expiresAt) / 1000) + TTL_MARGIN_SECONDS,
  };
}

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
      return item ? fromTenantAttributes<PortalSession>(item, DATA_FIELDS) : null;
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
      return { session: fromTenantAttributes<PortalSession>(result.item, DATA_FIELDS), count: result.count };
    },
  };
}
