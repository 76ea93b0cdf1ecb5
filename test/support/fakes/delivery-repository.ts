import type {
  DeliveryRef,
  DeliveryRepository,
  DeliveryWithEndpoint,
  WebhookEndpointRepository,
} from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import type { WebhookDelivery } from '#shared/domain/webhooks/deliveries';
import type { WebhookEndpoint } from '#shared/domain/webhooks/endpoints';
import { ConflictError, ValidationError } from '#shared/errors';

const keyOf = (tenant: Tenant, id: string) => `${tenant.sellerId}#${tenant.environment}#${id}`;

/**
 * Deliveries in a map. recordAttempt writes only if the stored attempt counters are still the
 * expected ones, and recordFirstAttempt only if the delivery is not stored, as the DynamoDB
 * conditions do; otherwise each throws the repository's ConflictError
 * (`attempt_already_recorded`, reason `changed`). Endpoints are read from the
 * endpoint repository the fake is given, as the repository's batch read does.
 */
export class FakeDeliveryRepository implements DeliveryRepository {
  readonly items = new Map<string, WebhookDelivery>();
  /** Every recordAttempt call and whether it was written. */
  readonly recorded: { id: string; changes: Partial<WebhookDelivery>; written: boolean }[] = [];

  constructor(private readonly endpoints: WebhookEndpointRepository) {}

  seed(delivery: WebhookDelivery): WebhookDelivery {
    this.items.set(keyOf(delivery.tenant, delivery.id), structuredClone(delivery));
    return delivery;
  }

  stored(tenant: Tenant, id: string): WebhookDelivery | undefined {
    return this.items.get(keyOf(tenant, id));
  }

  async createIfAbsent(delivery: WebhookDelivery): Promise<WebhookDelivery> {
    const key = keyOf(delivery.tenant, delivery.id);
    const existing = this.items.get(key);
    if (existing) return structuredClone(existing);
    this.items.set(key, structuredClone(delivery));
    return delivery;
  }

  async recordFirstAttempt(delivery: WebhookDelivery): Promise<void> {
    const key = keyOf(delivery.tenant, delivery.id);
    const written = !this.items.has(key);
    if (written) this.items.set(key, structuredClone(delivery));
    const { tenant: _tenant, id: _id, ...changes } = delivery;
    this.recorded.push({ id: delivery.id, changes, written });
    if (!written) {
      throw new ConflictError('The attempt was already recorded', 'attempt_already_recorded', {
        reason: 'changed',
      });
    }
  }

  async get(tenant: Tenant, id: string): Promise<WebhookDelivery | null> {
    const found = this.items.get(keyOf(tenant, id));
    return found ? structuredClone(found) : null;
  }

  async getWithEndpoint(
    tenant: Tenant,
    id: string,
    endpointId: string,
  ): Promise<{ delivery: WebhookDelivery | null; endpoint: WebhookEndpoint | null }> {
    return { delivery: await this.get(tenant, id), endpoint: await this.endpoints.get(tenant, endpointId) };
  }

  async getManyWithEndpoints(refs: readonly DeliveryRef[]): Promise<DeliveryWithEndpoint[]> {
    return Promise.all(refs.map((r) => this.getWithEndpoint(r.tenant, r.id, r.endpointId)));
  }

  async listByEndpoint(
    tenant: Tenant,
    endpointId: string,
    page: { limit: number; cursor?: string },
  ): Promise<{ items: WebhookDelivery[]; cursor?: string }> {
    const mine = [...this.items.values()]
      .filter((d) => d.tenant.sellerId === tenant.sellerId && d.tenant.environment === tenant.environment)
      .filter((d) => d.endpointId === endpointId)
      .sort((a, b) => `${b.createdAt}#${b.id}`.localeCompare(`${a.createdAt}#${a.id}`));
    const start = page.cursor ? mine.findIndex((d) => d.id === page.cursor) + 1 : 0;
    // As the DynamoDB cursor check: a cursor that names no position in this list is a 400.
    if (page.cursor && start === 0) throw new ValidationError(['cursor is not valid']);
    const items = mine.slice(start, start + page.limit);
    const more = start + page.limit < mine.length;
    return { items, cursor: more ? items.at(-1)?.id : undefined };
  }

  async recordAttempt(
    tenant: Tenant,
    id: string,
    expected: { scheduledAttempts: number; manualAttempts: number },
    changes: Partial<WebhookDelivery>,
  ): Promise<void> {
    const key = keyOf(tenant, id);
    const stored = this.items.get(key);
    const written =
      stored !== undefined &&
      stored.scheduledAttempts === expected.scheduledAttempts &&
      stored.manualAttempts === expected.manualAttempts;
    if (written) {
      const { tenant: _tenant, id: _id, ...fields } = changes;
      this.items.set(key, { ...stored, ...fields });
    }
    this.recorded.push({ id, changes, written });
    if (!written) {
      throw new ConflictError('The attempt was already recorded', 'attempt_already_recorded', {
        reason: 'changed',
      });
    }
  }
}
