import type { PaymentAttempt } from '#shared/domain/attempts/attempt';
import { dueSortKey } from '../due-buckets';
import { keys } from '../keys';
import { fromTenantAttributes, tenantAttributes } from '../tenant-fields';
import { defineEntity } from './entity';

const DATA_FIELDS = [
  'id',
  'kind',
  'status',
  'provider',
  'gatewayPayId',
  'plan',
  'dueAt',
  'outcome',
  'createdAt',
  'updatedAt',
  'version',
] as const;

/**
 * A payment attempt in its tenant's partition; `version` is its optimistic lock. Only a pending
 * attempt sits on the due index, where the heartbeat's sweep finds what its schedule missed.
 */
export const paymentAttemptEntity = defineEntity({
  entity: 'payment-attempt',
  key: (a: PaymentAttempt) => keys.paymentAttempt(a.tenant, a.id),
  patterns: {
    byDueHour: {
      index: 'gsi3',
      doc: "`DUE#ATT#<YYYY-MM-DDTHH>` / `<dueAt>#<job id>`: pending payment attempts by the hour the reconciler looks at them (the heartbeat's sweep); only while pending",
      at: (a) =>
        a.status === 'pending' && a.dueAt
          ? { pk: keys.attemptDueBucket(a.dueAt), sk: dueSortKey(a.dueAt, a.tenant, a.id) }
          : null,
    },
  },
  attributes: (a) => tenantAttributes(a, DATA_FIELDS),
  fromItem: (item): PaymentAttempt => fromTenantAttributes<PaymentAttempt>(item, DATA_FIELDS),
});
