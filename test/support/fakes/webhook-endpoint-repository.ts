import type { WebhookEndpointRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import {
  type EndpointPatch,
  WEBHOOK_ENDPOINT_NOT_FOUND,
  type WebhookEndpoint,
  WebhookEndpointLimitError,
} from '#shared/domain/webhooks/endpoints';
import { ConflictError, NotFoundError, ValidationError } from '#shared/errors';

const keyOf = (tenant: Tenant, id: string) => `${tenant.sellerId}#${tenant.environment}#${id}`;
const ofTenant = (tenant: Tenant) => (e: WebhookEndpoint) =>
  e.tenant.sellerId === tenant.sellerId && e.tenant.environment === tenant.environment;

/**
 * Endpoints in a map, each visible to its own tenant only; delete of a missing one is a NotFoundError;
 * create past `max` endpoints of the tenant is a WebhookEndpointLimitError.
 */
export class FakeWebhookEndpointRepository implements WebhookEndpointRepository {
  readonly items = new Map<string, WebhookEndpoint>();

  async create(endpoint: WebhookEndpoint, max?: number): Promise<void> {
    if (max !== undefined && (await this.all(endpoint.tenant)).length >= max)
      throw new WebhookEndpointLimitError(max);
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
    // Id order as DynamoDB sorts keys (by code unit, so `we_Z…` before `we_a…`).
    const mine = [...this.items.values()].filter(ofTenant(tenant)).sort((a, b) => (a.id < b.id ? -1 : 1));
    // The cursor names the tenant and the last id shown, as a start key does; another list's is a 400.
    const prefix = `${tenant.sellerId}#${tenant.environment}#`;
    if (page.cursor !== undefined && !page.cursor.startsWith(prefix))
      throw new ValidationError(['cursor is not valid']);
    const after = page.cursor?.slice(prefix.length);
    const rest = after === undefined ? mine : mine.filter((e) => e.id > after);
    const items = rest.slice(0, page.limit);
    const more = rest.length > page.limit;
    return { items, cursor: more ? keyOf(tenant, items.at(-1)?.id as string) : undefined };
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
