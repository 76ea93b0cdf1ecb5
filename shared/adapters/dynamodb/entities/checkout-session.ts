import type { CheckoutSession } from '#shared/domain/checkout/session';
import { keys } from '../keys';
import { fromTenantAttributes, tenantAttributes } from '../tenant-fields';
import { defineEntity } from './entity';

const DATA_FIELDS = [
  'id',
  'status',
  'productId',
  'productUuid',
  'priceId',
  'price',
  'customer',
  'paymentMethods',
  'metadata',
  'successUrl',
  'cancelUrl',
  'clientReferenceId',
  'affiliateId',
  'transactionId',
  'subscriptionId',
  'payments',
  'expiresAt',
  'completedAt',
  'expiredAt',
  'createdAt',
  'updatedAt',
  'version',
] as const;

/** Newest first within every list partition, and a created_at range is a key condition. */
const listed = (pk: string, s: CheckoutSession) => ({ pk, sk: `${s.createdAt}#${s.id}` });

/**
 * A checkout session, keyed by its id alone (the hosted page reads a session without a tenant);
 * `version` is its optimistic lock. A tenant's lists read its four patterns, each sorted by
 * creation time.
 */
export const checkoutSessionEntity = defineEntity({
  entity: 'checkout-session',
  key: (s: CheckoutSession) => keys.checkoutSession(s.id),
  patterns: {
    byTenant: {
      index: 'gsi1',
      doc: "`SELLER#<id>#<env>#SESSIONS` / `<createdAt>#<id>`: a tenant's checkout sessions by creation time",
      at: (s) => listed(keys.sessionsOfTenant(s.tenant), s),
    },
    byStatus: {
      index: 'gsi2',
      doc: '`…#SESSIONS#<status>` / `<createdAt>#<id>`: checkout sessions per status by creation time',
      at: (s) => listed(keys.sessionsByStatus(s.tenant, s.status), s),
    },
    byProduct: {
      index: 'gsi4',
      doc: '`…#SESSPRODUCT#<productId>` / `<createdAt>#<id>`: checkout sessions of one product by creation time',
      at: (s) => listed(keys.sessionsOfProduct(s.tenant, s.productId), s),
    },
    byEmail: {
      index: 'gsi5',
      doc: '`…#SESSEMAIL#<lower-case e-mail>` / `<createdAt>#<id>`: checkout sessions by prefilled e-mail by creation time (only those with one)',
      at: (s) => (s.customer.email ? listed(keys.sessionsOfEmail(s.tenant, s.customer.email), s) : null),
    },
  },
  attributes: (s) => tenantAttributes(s, DATA_FIELDS),
  fromItem: (item): CheckoutSession => {
    const session = fromTenantAttributes<CheckoutSession>(item, DATA_FIELDS);
    return { ...session, payments: session.payments ?? [] };
  },
});
