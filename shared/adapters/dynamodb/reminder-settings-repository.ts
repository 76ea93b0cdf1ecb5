import type { ReminderSettingsRepository } from '#shared/domain/ports';
import { customerRemindersEntity, optOutEntity, sellerRemindersEntity } from './entities/reminder-settings';
import { sellerEntity } from './entities/seller';
import { keys } from './keys';
import { ConditionFailedError, type Item, type Table } from './table';

const setField = (
  entity: { entity: string; version: number | 'optimistic' },
  field: string,
  value: unknown,
  now: string,
) => ({
  UpdateExpression:
    value === null
      ? 'SET #e = :e, #v = :v, updatedAt = :now REMOVE #f'
      : 'SET #e = :e, #v = :v, updatedAt = :now, #f = :f',
  ExpressionAttributeNames: { '#e': 'entity', '#v': 'version', '#f': field },
  ExpressionAttributeValues: {
    ':e': entity.entity,
    ':v': entity.version,
    ':now': now,
    ...(value === null ? {} : { ':f': value }),
  },
});

/**
 * Reminder settings: the seller's item (schedule, whatsapp, sms), each customer's (override,
 * opt-outs, tokens) and one pointer per opt-out token. A reminder reads the seller's profile and
 * both items in one BatchGetItem.
 */
export function createReminderSettingsRepository(table: Table): ReminderSettingsRepository {
  return {
    async read(tenant, customerId) {
      const wanted = [
        keys.seller(tenant.sellerId),
        keys.sellerReminders(tenant),
        ...(customerId !== undefined ? [keys.customerReminders(tenant, customerId)] : []),
      ];
      const items = await table.batchGet<Item>(wanted, { consistent: true });
      const at = (k: { pk: string; sk: string }) => items.find((i) => i.pk === k.pk && i.sk === k.sk);
      const profile = at(wanted[0]);
      const seller = at(wanted[1]);
      const customer = customerId !== undefined ? at(wanted[2]) : undefined;
      const business = profile ? sellerEntity.fromItem(profile) : null;
      return {
        businessName: business?.name ?? '',
        businessLogoUrl: business?.logoUrl ?? null,
        businessColor: business?.brandColor ?? null,
        seller: seller ? sellerRemindersEntity.fromItem(seller) : null,
        customer: customer ? customerRemindersEntity.fromItem(customer) : null,
      };
    },

    async putSellerSchedule(tenant, schedule, now) {
      await table.update({
        Key: keys.sellerReminders(tenant),
        ...setField(sellerRemindersEntity, 'schedule', schedule, now),
      });
    },

    async putChannel(tenant, channel, settings, now) {
      await table.update({
        Key: keys.sellerReminders(tenant),
        ...setField(sellerRemindersEntity, channel, settings, now),
      });
    },

    async putCustomerSchedule(tenant, customerId, schedule, now) {
      await table.update({
        Key: keys.customerReminders(tenant, customerId),
        ...setField(customerRemindersEntity, 'schedule', schedule, now),
      });
    },

    async optOutToken(tenant, customerId, channel, fresh, now) {
      const key = keys.customerReminders(tenant, customerId);
      try {
        // A map's key can be set only once the map exists: made first, then the token set on condition.
        await table.update({
          Key: key,
          UpdateExpression:
            'SET #e = :e, #v = :v, updatedAt = :now, optOutTokens = if_not_exists(optOutTokens, :empty)',
          ExpressionAttributeNames: { '#e': 'entity', '#v': 'version' },
          ExpressionAttributeValues: {
            ':e': customerRemindersEntity.entity,
            ':v': customerRemindersEntity.version,
            ':now': now,
            ':empty': {},
          },
        });
        await table.transact([
          {
            Update: {
              Key: key,
              UpdateExpression: 'SET optOutTokens.#c = :t',
              ConditionExpression: 'attribute_not_exists(optOutTokens.#c)',
              ExpressionAttributeNames: { '#c': channel },
              ExpressionAttributeValues: { ':t': fresh },
            },
          },
          {
            Put: {
              Item: optOutEntity.toItem({ tenant, customerId, channel, token: fresh }),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ]);
        return fresh;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        const item = await table.get<Item>(key, { consistent: true });
        const stored = item ? customerRemindersEntity.fromItem(item).optOutTokens[channel] : undefined;
        if (!stored) throw error;
        return stored;
      }
    },

    async findOptOut(token) {
      const item = await table.get<Item>(keys.reminderOptOut(token), { consistent: true });
      return item ? optOutEntity.fromItem(item) : null;
    },

    async optOut(ref, now) {
      try {
        await table.update({
          Key: keys.customerReminders(ref.tenant, ref.customerId),
          UpdateExpression:
            'SET updatedAt = :now, optedOut = list_append(if_not_exists(optedOut, :empty), :c)',
          ConditionExpression: 'attribute_not_exists(optedOut) OR NOT contains(optedOut, :ch)',
          ExpressionAttributeValues: { ':now': now, ':empty': [], ':c': [ref.channel], ':ch': ref.channel },
        });
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
      }
    },
  };
}
