import type {
  CustomerReminderSettings,
  OptOutRef,
  SellerReminderSettings,
} from '#shared/domain/ports/reminders';
import type { ReminderChannel, ReminderSchedule } from '#shared/domain/reminders/schedule';
import type { Tenant } from '#shared/domain/tenant';
import { keys } from '../keys';
import type { Item } from '../table';
import { defineEntity } from './entity';

const scheduleOf = (value: unknown) => (value ? (value as ReminderSchedule) : null);

/** A seller's reminder schedule and channels (the WhatsApp token only sealed); fields set one by one. */
export const sellerRemindersEntity = defineEntity({
  entity: 'seller-reminders',
  version: 1,
  key: (s: { tenant: Tenant }) => keys.sellerReminders(s.tenant),
  patterns: {},
  attributes: () => ({}),
  fromItem: (item: Item): SellerReminderSettings => ({
    schedule: scheduleOf(item.schedule),
    whatsapp: (item.whatsapp as SellerReminderSettings['whatsapp']) ?? null,
    sms: (item.sms as SellerReminderSettings['sms']) ?? null,
  }),
});

/** A customer's override of the schedule, the channels it stopped and its opt-out tokens. */
export const customerRemindersEntity = defineEntity({
  entity: 'customer-reminders',
  version: 1,
  key: (c: { tenant: Tenant; customerId: number }) => keys.customerReminders(c.tenant, c.customerId),
  patterns: {},
  attributes: () => ({}),
  fromItem: (item: Item): CustomerReminderSettings => ({
    schedule: scheduleOf(item.schedule),
    optedOut: Array.isArray(item.optedOut) ? (item.optedOut as ReminderChannel[]) : [],
    optOutTokens: (item.optOutTokens as CustomerReminderSettings['optOutTokens']) ?? {},
  }),
});

/** An opt-out link's token → the customer and channel it stops (the public route has no tenant). */
export const optOutEntity = defineEntity({
  entity: 'reminder-opt-out',
  version: 1,
  key: (o: OptOutRef & { token: string }) => keys.reminderOptOut(o.token),
  patterns: {},
  attributes: (o) => ({
    sellerId: o.tenant.sellerId,
    environment: o.tenant.environment,
    customerId: o.customerId,
    channel: o.channel,
  }),
  fromItem: (item: Item): OptOutRef => ({
    tenant: { sellerId: Number(item.sellerId), environment: item.environment === 'live' ? 'live' : 'test' },
    customerId: Number(item.customerId),
    channel: item.channel as ReminderChannel,
  }),
});
