import type { PortalSession } from '#shared/domain/portal/session';
import { keys } from '../keys';
import { TABLE } from '../table-definition';
import { fromTenantAttributes, tenantAttributes } from '../tenant-fields';
import { defineEntity } from './entity';

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

/**
 * A customer portal session, found by the SHA-256 of its token (no tenant in the request). It also
 * holds the token's rate-limit slots, moved by its authentication.
 */
export const portalSessionEntity = defineEntity({
  entity: 'portal-session',
  version: 1,
  key: (s: PortalSession) => keys.portalSession(s.tokenHash),
  patterns: {},
  attributes: (s) => ({
    ...tenantAttributes(s, DATA_FIELDS),
    [TABLE.ttlAttribute]: Math.floor(Date.parse(s.expiresAt) / 1000) + TTL_MARGIN_SECONDS,
  }),
  fromItem: (item) => fromTenantAttributes<PortalSession>(item, DATA_FIELDS),
});
