import {
  CARD_ALREADY_SAVED,
  PAYMENT_METHOD_LIST_LIMIT,
  type PaymentMethod,
} from '#shared/domain/payment-methods/payment-method';
import type { PaymentMethodRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';
import { dueJobIds } from './due-buckets';
import { paymentMethodEntity } from './entities/payment-method';
import { keys } from './keys';
import { outboxPut } from './outbox';
import {
  alreadyExists,
  type ConditionFailedError,
  type Item,
  orConflict,
  type Table,
  type TransactItem,
} from './table';

const ENTITY = paymentMethodEntity.entity;
const { byCustomer, byExpiryMonth } = paymentMethodEntity.patterns;

const cardGuard = (pm: PaymentMethod) =>
  keys.paymentMethodCard(pm.tenant, {
    customerUuid: pm.customer.uuid,
    provider: pm.provider,
    brand: pm.brand,
    last4: pm.last4,
    expiry: `${pm.expiryYear}-${String(pm.expiryMonth).padStart(2, '0')}`,
  });

const toItem = paymentMethodEntity.toItem;
export const toPaymentMethod = paymentMethodEntity.fromItem;

const changed = (cause: ConditionFailedError) =>
  new ConflictError('The payment method changed at the same time; retry', 'concurrent_update', {
    reason: 'changed',
    cause,
  });

/** The month `back` months before the month of `now` (UTC), as YYYY-MM. */
function monthBefore(now: Date, back: number): string {
  const index = now.getUTCFullYear() * 12 + now.getUTCMonth() - back;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** Index of the card guard among paymentMethodCreateWrites: a failed condition there is a card already saved. */
export const CARD_GUARD_INDEX = 1;

/**
 * A new payment method's writes for a TransactWriteItems: its item, then (CARD_GUARD_INDEX) the
 * guard that keeps one method per customer and card, which hands back its holder on a failure.
 */
export function paymentMethodCreateWrites(pm: PaymentMethod): TransactItem[] {
  return [
    { Put: { Item: toItem(pm), ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Put: {
        Item: { ...cardGuard(pm), entity: 'payment-method-card', version: 1, id: pm.id },
        ConditionExpression: 'attribute_not_exists(pk)',
        // The method that holds the card comes back with the failure.
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    } as TransactItem,
  ];
}

/** The conflict of a card the customer already has saved; `current` is the holder when it was read. */
export const cardAlreadySaved = (cause: ConditionFailedError, current?: PaymentMethod) =>
  new ConflictError('The customer already has this card saved', CARD_ALREADY_SAVED, {
    reason: 'already_exists',
    current,
    cause,
  });

export function createPaymentMethodRepository(table: Table): PaymentMethodRepository {
  const get = async (tenant: Tenant, id: number) => {
    const item = await table.get<Item>(keys.paymentMethod(tenant, id), { consistent: true });
    return item ? toPaymentMethod(item) : null;
  };

  return {
    nextId: () => table.nextId('payment-method', { block: 20 }),

    get,

    async create(pm) {
      try {
        await table.write({
          items: paymentMethodCreateWrites(pm),
          toError: (failure) =>
            failure.failedIndexes.includes(CARD_GUARD_INDEX)
              ? cardAlreadySaved(failure)
              : alreadyExists('The payment method')(failure),
        });
      } catch (error) {
        // Written alone (inside `atomically` the unit of work throws it, without the holder).
        if (!(error instanceof ConflictError) || error.code !== CARD_ALREADY_SAVED) throw error;
        const failure = error.cause as ConditionFailedError;
        const holder = failure.itemAt(CARD_GUARD_INDEX);
        const current = holder ? await get(pm.tenant, Number(holder.id)) : null;
        // The holder was deleted between the two writes: the caller may simply try again.
        if (!current)
          throw new ConflictError(
            'The card is being changed by another request; retry',
            'concurrent_update',
            {
              reason: 'contended',
              cause: failure,
            },
          );
        throw cardAlreadySaved(failure, current);
      }
    },

    async listByCustomer(tenant, customerUuid) {
      const page = await table.query<Item>({
        IndexName: byCustomer.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': byCustomer.partitionKey },
        ExpressionAttributeValues: { ':pk': keys.paymentMethodsOfCustomer(tenant, customerUuid) },
        ScanIndexForward: false,
        Limit: PAYMENT_METHOD_LIST_LIMIT,
      });
      return page.items.map(toPaymentMethod);
    },

    async save(next, previous, events) {
      await orConflict(
        table.transact([
          {
            Put: {
              Item: toItem(next),
              ConditionExpression: 'attribute_exists(pk) AND version = :v',
              ExpressionAttributeValues: { ':v': previous.version },
            },
          },
          ...events.map(outboxPut),
        ]),
        changed,
      );
    },

    async delete(current) {
      await orConflict(
        table.transact([
          {
            Delete: {
              Key: keys.paymentMethod(current.tenant, current.id),
              ConditionExpression: 'attribute_exists(pk) AND version = :v',
              ExpressionAttributeValues: { ':v': current.version },
            },
          },
          { Delete: { Key: cardGuard(current) } },
        ]),
        changed,
      );
    },

    dueExpirySteps(now, monthsBack) {
      const buckets: string[] = [];
      for (let back = monthsBack; back >= 0; back--)
        buckets.push(keys.paymentMethodExpiryBucket(monthBefore(now, back)));
      return dueJobIds(table, byExpiryMonth, buckets, now, { accept: (item) => item.entity === ENTITY });
    },
  };
}
