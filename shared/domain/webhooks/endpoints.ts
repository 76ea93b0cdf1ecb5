import * as z from 'zod';
import { EVENTS_BY_NAME, LEGACY_EVENTS, WILDCARD_EVENTS } from '#events/catalog';
import type { Deps } from '#shared/domain/deps';
import { limitQuery } from '#shared/domain/paging';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, NotFoundError, ValidationError } from '#shared/errors';
import { randomBase62 } from '#shared/ids';
import { textField } from '#shared/validation';
import { WEBHOOK_ENDPOINT_NOT_FOUND } from './not-found';
import { checkWebhookUrl } from './url-policy';

/** The previous secret keeps signing for this long after a rotation. */
export const ROTATION_OVERLAP_SECONDS = 86_400;
/** Endpoints a seller may register in one environment (Stripe stops at 16); each event fans out to all. */
export const MAX_WEBHOOK_ENDPOINTS = 20;

export class WebhookEndpointLimitError extends ConflictError {
  constructor(max: number) {
    super(
      `A seller may have at most ${max} webhook endpoints in each environment; delete one before creating another`,
      'limit_reached',
      { reason: 'invalid_state' },
    );
  }
}
export { WEBHOOK_ENDPOINT_NOT_FOUND };

export interface WebhookEndpoint {
  id: string;
  tenant: Tenant;
  url: string;
  events: string[];
  description: string | null;
  status: 'enabled' | 'disabled';
  secret: string;
  previousSecret: { secret: string; expiresAt: string } | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookEndpointView {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  status: 'enabled' | 'disabled';
  environment: Tenant['environment'];
  createdAt: string;
  updatedAt: string;
}

export interface EndpointPatch {
  url?: string;
  events?: string[];
  description?: string | null;
  status?: 'enabled' | 'disabled';
  secret?: string;
  previousSecret?: WebhookEndpoint['previousSecret'];
  updatedAt: string;
}

export type EndpointDeps = Pick<Deps, 'endpoints' | 'clock' | 'ids' | 'urlPolicy'>;

export const toView = (e: WebhookEndpoint): WebhookEndpointView => ({
  id: e.id,
  url: e.url,
  events: e.events,
  description: e.description,
  status: e.status,
  environment: e.tenant.environment,
  createdAt: e.createdAt,
  updatedAt: e.updatedAt,
});

const newSecret = () => `whsec_${randomBase62(32)}`;

/**
 * Event names are checked by validateEvents (one sentence for every unknown name); the OpenAPI
 * document lists them, the deprecated ones marked `deprecated`.
 */
const eventName = z.string().meta({
  description:
    'An event name of the catalog, or `*` for every event but the deprecated ones (`*` may be listed with deprecated names only).',
  anyOf: [
    { enum: ['*', ...WILDCARD_EVENTS] },
    ...LEGACY_EVENTS.map((name) => ({
      const: name,
      deprecated: true,
      description: `Deprecated: use ${EVENTS_BY_NAME.get(name)?.deprecated?.replacedBy}. Sent only to endpoints that name it.`,
    })),
  ],
});

const eventsField = z
  .array(eventName, { error: 'events must be an array of event names' })
  .min(1, 'events must name at least one event');

const description = textField('description', { max: 500, multiline: true });

export const createEndpointSchema = z
  .object({
    url: z.string({ error: 'url must be a string' }).max(2048),
    events: eventsField,
    description: description.nullish(),
  })
  .strict();

export const updateEndpointSchema = z
  .object({
    url: z.string().max(2048).optional(),
    events: eventsField.optional(),
    description: description.nullable().optional(),
    status: z.enum(['enabled', 'disabled']).optional(),
  })
  .strict();

/**
 * Unknown names are listed. `*` stands alone, or with deprecated names only (it does not include
 * them: an endpoint that wants every event and the legacy transaction.failed lists both).
 */
export function validateEvents(events: string[]): string[] {
  if (events.includes('*')) {
    const others = events.filter((e) => e !== '*');
    if (others.some((e) => !LEGACY_EVENTS.includes(e)))
      throw new ValidationError([
        'events must be either ["*"] (optionally with deprecated event names) or a list of event names',
      ]);
    return ['*', ...new Set(others)];
  }
  const unknown = events.filter((e) => !EVENTS_BY_NAME.has(e));
  if (unknown.length > 0)
    throw new ValidationError([`events contains unknown event names: ${unknown.join(', ')}`]);
  return [...new Set(events)];
}

async function validateUrl(url: string, deps: EndpointDeps) {
  const problem = await checkWebhookUrl(url, deps.urlPolicy);
  if (problem) throw new ValidationError([problem]);
}

export function subscribes(endpoint: WebhookEndpoint, event: string): boolean {
  if (endpoint.status !== 'enabled') return false;
  if (endpoint.events.includes(event)) return true;
  return endpoint.events.includes('*') && WILDCARD_EVENTS.includes(event);
}

/** The secrets that sign a delivery now: the current one, plus the previous during its overlap. */
export function signingSecrets(endpoint: WebhookEndpoint, now: Date): string[] {
  const previous = endpoint.previousSecret;
  if (previous && Date.parse(previous.expiresAt) > now.getTime()) return [endpoint.secret, previous.secret];
  return [endpoint.secret];
}

export async function createEndpoint(
  deps: EndpointDeps,
  tenant: Tenant,
  input: z.output<typeof createEndpointSchema>,
) {
  const events = validateEvents(input.events);
  await validateUrl(input.url, deps);
  const now = deps.clock.now().toISOString();
  const endpoint: WebhookEndpoint = {
    id: deps.ids.prefixed('we', 20),
    tenant,
    url: input.url,
    events,
    description: input.description ?? null,
    status: 'enabled',
    secret: newSecret(),
    previousSecret: null,
    createdAt: now,
    updatedAt: now,
  };
  await deps.endpoints.create(endpoint, MAX_WEBHOOK_ENDPOINTS);
  return { ...toView(endpoint), secret: endpoint.secret };
}

export async function getEndpoint(deps: Pick<EndpointDeps, 'endpoints'>, tenant: Tenant, id: string) {
  const endpoint = await deps.endpoints.get(tenant, id);
  if (!endpoint) throw new NotFoundError(WEBHOOK_ENDPOINT_NOT_FOUND);
  return endpoint;
}

export async function updateEndpoint(
  deps: EndpointDeps,
  tenant: Tenant,
  id: string,
  input: z.output<typeof updateEndpointSchema>,
) {
  const patch: EndpointPatch = { updatedAt: deps.clock.now().toISOString() };
  if (input.events) patch.events = validateEvents(input.events);
  if (input.url !== undefined) {
    await validateUrl(input.url, deps);
    patch.url = input.url;
  }
  if (input.description !== undefined) patch.description = input.description;
  if (input.status) patch.status = input.status;
  const updated = await deps.endpoints.update(tenant, id, patch);
  if (!updated) throw new NotFoundError(WEBHOOK_ENDPOINT_NOT_FOUND);
  return toView(updated);
}

export async function rotateSecret(deps: EndpointDeps, tenant: Tenant, id: string) {
  const current = await getEndpoint(deps, tenant, id);
  const now = deps.clock.now();
  const secret = newSecret();
  const updated = await deps.endpoints.update(tenant, id, {
    secret,
    previousSecret: {
      secret: current.secret,
      expiresAt: new Date(now.getTime() + ROTATION_OVERLAP_SECONDS * 1000).toISOString(),
    },
    updatedAt: now.toISOString(),
  });
  if (!updated) throw new NotFoundError(WEBHOOK_ENDPOINT_NOT_FOUND);
  return { ...toView(updated), secret, previousSecretExpiresAt: updated.previousSecret?.expiresAt ?? null };
}

export async function deleteEndpoint(deps: Pick<EndpointDeps, 'endpoints'>, tenant: Tenant, id: string) {
  // A missing endpoint throws NotFoundError from the repository (a conditional delete).
  await deps.endpoints.delete(tenant, id);
  return { id, deleted: true };
}

/** A page of endpoints: `limit` 1–100, `cursor` from the previous page's nextCursor. */
export const pageQuerySchema = z.object({
  limit: limitQuery,
  cursor: z.string().max(2048).optional(),
});

export async function listEndpoints(
  deps: Pick<EndpointDeps, 'endpoints'>,
  tenant: Tenant,
  page: z.output<typeof pageQuerySchema>,
) {
  const out = await deps.endpoints.list(tenant, page);
  return { data: out.items.map(toView), nextCursor: out.cursor ?? null };
}
