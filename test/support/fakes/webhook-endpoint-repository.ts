import type { WebhookEndpointRepository } from '../../../shared/domain/ports';
import type { Tenant } from '../../../shared/domain/tenant';
import {
  type EndpointPatch,
  WEBHOOK_ENDPOINT_NOT_FOUND,
  type WebhookEndpoint,
} from '../../../shared/domain/webhooks/endpoints';
import { ConflictError, NotFoundError } from '../../../shared/errors';

const keyOf = (tenant: Tenant, id: string) => `${tenant.sellerId}#${tenant.environment}#${id}`;
const ofTenant = (tenant: Tenant) => (e: WebhookEndpoint) =>
  e.tenant.sellerId === tenant.sellerId && e.tenant.environment === tenant.environment;

/** Endpoints in a map, each visible to its own tenant only; delete of a missing one is a NotFoundError. */
export class FakeWebhookEndpointRepository implements WebhookEndpointRepository {
  readonly items = new Map<string, WebhookEndpoint>();

  async create(endpoint: WebhookEndpoint): Promise<void> {
    const key = keyOf(endpoint.tenant, endpoint.id);
    if (this.items.has(key)) {
      throw new ConflictError('The webhook endpoint already exists', 'already_exists', {
        reason: 'already_exists',
      });
    }
    this.items.set(key, structuredClone(endpoint));
  }

  async get(tenant: Tenant, id: string): Promise<WebhookEndpoint | null> {
    const found = this.items.get(keyOf(tenant, id));
    return found ? structuredClone(found) : null;
  }

  async list(
    tenant: Tenant,
    page: { limit: number; cursor?: string },
  ): Promise<{ items: WebhookEndpoint[]; cursor?: string }> {
    const mine = [...this.items.values()].filter(ofTenant(tenant)).sort((a, b) => a.id.localeCompare(b.id));
    const start = page.cursor ? mine.findIndex((e) => e.id === page.cursor) + 1 : 0;
    const items = mine.slice(start, start + page.limit);
    const more = start + page.limit < mine.length;
    return { items, cursor: more ? items.at(-1)?.id : undefined };
  }

  async all(tenant: Tenant): Promise<WebhookEndpoint[]> {
    return [...this.items.values()].filter(ofTenant(tenant));
  }

  async update(tenant: Tenant, id: string, patch: EndpointPatch): Promise<WebhookEndpoint | null> {
    const key = keyOf(tenant, id);
    const stored = this.items.get(key);
    if (!stored) return null;
    const next = { ...stored, ...patch };
    this.items.set(key, next);
    return structuredClone(next);
  }

  async delete(tenant: Tenant, id: string): Promise<void> {
    if (!this.items.delete(keyOf(tenant, id))) throw new NotFoundError(WEBHOOK_ENDPOINT_NOT_FOUND);
  }
}
