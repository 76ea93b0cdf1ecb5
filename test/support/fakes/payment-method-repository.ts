import type { DomainEvent } from '#shared/domain/events/events';
import { expiryJobId } from '#shared/domain/payment-methods/expiry';
import { PAYMENT_METHOD_LIST_LIMIT, type PaymentMethod } from '#shared/domain/payment-methods/payment-method';
import type { PaymentMethodRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';
import { FakeOutbox } from './outbox';
import { writeOrStage } from './unit-of-work';

const keyOf = (tenant: Tenant, id: number) => `${tenant.sellerId}#${tenant.environment}#${id}`;
const cardOf = (pm: PaymentMethod) =>
  [
    pm.tenant.sellerId,
    pm.tenant.environment,
    pm.customer.uuid,
    pm.provider,
    pm.brand,
    pm.last4,
    pm.expiryYear,
    pm.expiryMonth,
  ].join('#');

const changed = () =>
  new ConflictError('The payment method changed at the same time; retry', 'concurrent_update', {
    reason: 'changed',
  });

/** The month index (UTC) of an instant, as the DynamoDB adapter buckets the next expiry step. */
const monthIndex = (iso: string) => Number(iso.slice(0, 4)) * 12 + Number(iso.slice(5, 7)) - 1;

/**
 * Payment methods in a map, with the DynamoDB repository's rules: one method per customer and card
 * (ConflictError `already_exists` with `current`), writes on the version read (ConflictError
 * `changed`), a method and its events written together, and the sweep's view of the index (next
 * steps due by now in this month and `monthsBack` before, at most 100 per month).
 */
export class FakePaymentMethodRepository implements PaymentMethodRepository {
  readonly items = new Map<string, PaymentMethod>();
  readonly cards = new Map<string, string>();
  readonly outbox = new FakeOutbox();
  private lastId = 0;

  async nextId(): Promise<number> {
    return ++this.lastId;
  }

  /** As the adapter: alone now, inside `atomically` with the unit's other writes. */
  async create(pm: PaymentMethod): Promise<void> {
    await writeOrStage({ check: () => this.refuseTaken(pm), apply: () => this.store(pm) });
  }

  private refuseTaken(pm: PaymentMethod): void {
    const key = keyOf(pm.tenant, pm.id);
    if (this.items.has(key))
      throw new ConflictError('The payment method already exists', 'already_exists', {
        reason: 'already_exists',
      });
    const holder = this.cards.get(cardOf(pm));
    if (holder) {
      throw new ConflictError('The customer already has this card saved', 'payment_method_exists', {
        reason: 'already_exists',
        current: structuredClone(this.items.get(holder)),
      });
    }
  }

  private store(pm: PaymentMethod): void {
    const key = keyOf(pm.tenant, pm.id);
    this.items.set(key, structuredClone(pm));
    this.cards.set(cardOf(pm), key);
  }

  async get(tenant: Tenant, id: number): Promise<PaymentMethod | null> {
    const found = this.items.get(keyOf(tenant, id));
    return found ? structuredClone(found) : null;
  }

  /** As the adapter: the method as it was when the joined read ran. */
  async listByCustomer(tenant: Tenant, customerUuid: string): Promise<PaymentMethod[]> {
    return [...this.items.values()]
      .filter(
        (pm) =>
          pm.tenant.sellerId === tenant.sellerId &&
          pm.tenant.environment === tenant.environment &&
          pm.customer.uuid === customerUuid,
      )
      .sort((a, b) => b.id - a.id)
      .slice(0, PAYMENT_METHOD_LIST_LIMIT)
      .map((pm) => structuredClone(pm));
  }

  async save(next: PaymentMethod, previous: PaymentMethod, events: DomainEvent[]): Promise<void> {
    const key = keyOf(previous.tenant, previous.id);
    if (this.items.get(key)?.version !== previous.version) throw changed();
    this.items.set(key, structuredClone(next));
    this.outbox.write(events);
  }

  async delete(current: PaymentMethod): Promise<void> {
    const key = keyOf(current.tenant, current.id);
    if (this.items.get(key)?.version !== current.version) throw changed();
    this.items.delete(key);
    this.cards.delete(cardOf(current));
  }

  async dueExpirySteps(now: Date, monthsBack: number): Promise<string[]> {
    const nowIso = now.toISOString();
    const current = monthIndex(nowIso);
    const due = [...this.items.values()].filter((pm) => {
      // A card on a test clock is in its clock's due index, not the sweep's months.
      if (pm.testClockId || !pm.nextExpiryStepAt || pm.nextExpiryStepAt > nowIso) return false;
      const month = monthIndex(pm.nextExpiryStepAt);
      return month <= current && month >= current - monthsBack;
    });
    const byMonth = new Map<number, PaymentMethod[]>();
    for (const pm of due.sort((a, b) => ((a.nextExpiryStepAt ?? '') < (b.nextExpiryStepAt ?? '') ? -1 : 1))) {
      const month = monthIndex(pm.nextExpiryStepAt ?? '');
      byMonth.set(month, [...(byMonth.get(month) ?? []), pm]);
    }
    return [...byMonth.keys()]
      .sort((a, b) => a - b)
      .flatMap((m) => (byMonth.get(m) ?? []).slice(0, 100))
      .map((pm) => expiryJobId(pm.tenant, pm.id));
  }
}
