import type { ExpiryStage } from '#shared/domain/payment-methods/expiry';
import type { PaymentMethod } from '#shared/domain/payment-methods/payment-method';
import { dueSortKey, testClockDuePlace } from '../due-buckets';
import { keys } from '../keys';
import { fromTenantAttributes, ON_A_CLOCK, tenantAttributes } from '../tenant-fields';
import { defineEntity } from './entity';

const DATA_FIELDS = [
  'id',
  'uuid',
  'customer',
  'type',
  'brand',
  'last4',
  'expiryMonth',
  'expiryYear',
  'status',
  'provider',
  'token',
  'expiryNotices',
  'nextExpiryStepAt',
  'expiredAt',
  'createdAt',
  'updatedAt',
  'version',
] as const;

/** A saved card, in its tenant's partition under its numeric id; `version` is its optimistic lock. */
export const paymentMethodEntity = defineEntity({
  entity: 'payment-method',
  key: (pm: PaymentMethod) => keys.paymentMethod(pm.tenant, pm.id),
  patterns: {
    byCustomer: {
      index: 'gsi1',
      doc: "`SELLER#<id>#<env>#PAYMETHODS#<customer uuid>` / id: a customer's saved cards, newest first",
      at: (pm) => ({
        pk: keys.paymentMethodsOfCustomer(pm.tenant, pm.customer.uuid),
        sk: keys.numeric(pm.id),
      }),
    },
    byExpiryMonth: {
      index: 'gsi2',
      doc: "`DUE#CARD#<YYYY-MM>` / `<nextExpiryStepAt>#<job id>`: saved cards in real time by the month of their next expiry step (the heartbeat's sweep); only while a step is due",
      // Only a method waiting for a step is in the sweep's index; an expired one leaves it, and one
      // on a test clock is never in it (its clock's due index holds it).
      at: (pm) =>
        pm.nextExpiryStepAt && !pm.testClockId
          ? {
              pk: keys.paymentMethodExpiryBucket(pm.nextExpiryStepAt),
              sk: dueSortKey(pm.nextExpiryStepAt, pm.tenant, pm.id),
            }
          : null,
    },
    byTestClock: {
      index: 'gsi6',
      doc: "`SELLER#<id>#<env>#CLOCKDUE#<clockId>` / `<nextExpiryStepAt>#<job id>`: the saved cards on a sandbox test clock with an expiry step ahead (the clock's advance); never in the sweep's months",
      at: (pm) => testClockDuePlace({ ...pm, dueAt: pm.nextExpiryStepAt }, pm.id),
    },
  },
  attributes: (pm) => tenantAttributes(pm, DATA_FIELDS, ON_A_CLOCK),
  fromItem: (item) => {
    const pm = fromTenantAttributes<PaymentMethod>(item, DATA_FIELDS, ON_A_CLOCK);
    return {
      ...pm,
      expiryNotices: ((pm.expiryNotices as number[] | null) ?? []).map(Number) as ExpiryStage[],
    };
  },
});
