import { createHash } from 'node:crypto';
import { signatureHeader } from '#events/signing';
import type { Deps } from '#shared/domain/deps';
import type { BusDetail } from '#shared/domain/events/events';
import type { AttemptResult, DeliveryWithEndpoint } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { isConflict, NotFoundError } from '#shared/errors';
import { getEndpoint, signingSecrets, subscribes, type WebhookEndpoint } from './endpoints';
import { resolveWebhookUrl } from './url-policy';

/** Waits after each failed attempt (spec Events, delivery rule 3): 1m, 5m, 30m, 2h, 8h, 16h. */
export const RETRY_DELAYS_SECONDS = [60, 300, 1_800, 7_200, 28_800, 57_600] as const;
/** The first attempt plus six retries. */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
export const DELIVERY_TIMEOUT_MS = 5_000;
/** SQS DelaySeconds stops at 15 minutes; longer waits are reached in hops of at most this. */
export const MAX_HOP_SECONDS = 900;
export const USER_AGENT = 'payment-service-webhooks/1.0';
/** The metric counted when a delivery fails for good; the stack's alarm watches it. */
export const DELIVERY_FAILED_METRIC = 'WebhookDeliveriesFailed';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDelivery {
  id: string;
  tenant: Tenant;
  endpointId: string;
  eventId: string;
  eventName: string;
  /** The envelope exactly as sent (and signed) on every attempt. */
  body: string;
  status: DeliveryStatus;
  /** Attempts made by the schedule (at most MAX_ATTEMPTS). */
  scheduledAttempts: number;
  /** Attempts asked for with resend. */
  manualAttempts: number;
  lastStatusCode: number | null;
  lastDurationMs: number | null;
  lastError: string | null;
  /** The last answer's first characters (see AttemptResult): shown to the seller, never logged. */
  lastResponseExcerpt: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryMessage {
  deliveryId: string;
  sellerId: number;
  environment: Tenant['environment'];
  /** The scheduled attempt this message is for (1 = first). */
  attempt: number;
  /**
   * The delivery itself, on the first attempt's message: the fan-out stores nothing, the first
   * attempt writes the record with its outcome (later attempts read the record).
   */
  first?: FirstAttempt;
}

/** What the first attempt needs of a delivery that is not stored yet. */
export interface FirstAttempt {
  eventId: string;
  eventName: string;
  /** The envelope exactly as it will be sent (and signed). */
  body: string;
  createdAt: string;
}

export type DeliveryDeps = Pick<
  Deps,
  'deliveries' | 'endpoints' | 'queue' | 'clock' | 'wallClock' | 'sender' | 'urlPolicy' | 'metrics'
> & {
  /** Told about every scheduled attempt made (the delivery function logs one line per call). */
  onAttempt?: (attempt: AttemptReport) => void;
};

/** What is known about one attempt: identifiers and outcome, never the body or the endpoint secret. */
export interface AttemptReport {
  deliveryId: string;
  eventId: string;
  endpointId: string;
  attempt: number;
  statusCode: number | null;
  durationMs: number;
  /** succeeded, failed (for good), retry (another attempt is queued) or duplicate (recorded first by another run). */
  outcome: 'succeeded' | 'failed' | 'retry' | 'duplicate';
  error: string | null;
}

/**
 * One delivery per (event, endpoint): a fan-out that runs twice makes the same id. The id carries
 * its endpoint's id, so a resend reads the delivery and its endpoint in one batch.
 */
export function deliveryIdOf(eventId: string, endpointId: string): string {
  const hash = createHash('sha256').update(`${eventId}\n${endpointId}`).digest('hex').slice(0, 16);
  return `whd_${endpointId.replace(/^we_/, '')}_${hash}`;
}

/** The endpoint id inside a delivery id, or null for a malformed id. */
export function endpointIdOf(deliveryId: string): string | null {
  const m = /^whd_([0-9A-Za-z]+)_[0-9a-f]{16}$/.exec(deliveryId);
  return m ? `we_${m[1]}` : null;
}

/** The message of an attempt; a delivery not stored yet travels in it (`first`). */
const messageOf = (d: WebhookDelivery, attempt: number, stored = true): string =>
  JSON.stringify({
    deliveryId: d.id,
    sellerId: d.tenant.sellerId,
    environment: d.tenant.environment,
    attempt,
    ...(stored
      ? {}
      : { first: { eventId: d.eventId, eventName: d.eventName, body: d.body, createdAt: d.createdAt } }),
  } satisfies DeliveryMessage);

/** A delivery that nothing attempted yet, as its first attempt's message describes it. */
function unstoredDelivery(
  tenant: Tenant,
  id: string,
  endpointId: string,
  first: FirstAttempt,
): WebhookDelivery {
  return {
    id,
    tenant,
    endpointId,
    eventId: first.eventId,
    eventName: first.eventName,
    body: first.body,
    status: 'pending',
    scheduledAttempts: 0,
    manualAttempts: 0,
    lastStatusCode: null,
    lastDurationMs: null,
    lastError: null,
    lastResponseExcerpt: null,
    lastAttemptAt: null,
    nextAttemptAt: first.createdAt,
    createdAt: first.createdAt,
    updatedAt: first.createdAt,
  };
}

/**
 * Finds the tenant's endpoints subscribed to the event and queues one delivery for each: one query
 * (none when the caller read the endpoints), then one send per endpoint. Nothing is written: the
 * message carries the delivery, and its first attempt writes the record with the outcome. A fan-out
 * that runs twice sends the same delivery id twice; the attempt that finds it recorded drops it.
 */
export async function fanOut(
  deps: Omit<DeliveryDeps, 'sender' | 'urlPolicy' | 'metrics' | 'wallClock'>,
  detail: BusDetail,
  /** The tenant's endpoints when the caller read them already (a batch reads each tenant's once). */
  tenantEndpoints?: readonly WebhookEndpoint[],
) {
  const endpoints = (tenantEndpoints ?? (await deps.endpoints.all(detail.tenant))).filter((e) =>
    subscribes(e, detail.envelope.event),
  );
  const now = deps.clock.now().toISOString();
  const first: FirstAttempt = {
    eventId: detail.envelope.id,
    eventName: detail.envelope.event,
    body: JSON.stringify(detail.envelope),
    createdAt: now,
  };
  const queueOne = async (endpoint: WebhookEndpoint) => {
    const id = deliveryIdOf(detail.envelope.id, endpoint.id);
    await deps.queue.send({
      body: messageOf(unstoredDelivery(detail.tenant, id, endpoint.id, first), 1, false),
    });
  };
  await Promise.all(endpoints.map(queueOne));
  return { endpoints: endpoints.length };
}

/**
 * The fan-out of one queue batch of bus events: each tenant's endpoints are read once for the
 * batch, then every event is fanned out as `fanOut` does. Answers the indexes of the events that
 * failed (their tenant's read or their own queueing), to return to the queue; the others are done.
 */
export async function fanOutBatch(
  deps: Omit<DeliveryDeps, 'sender' | 'urlPolicy' | 'metrics' | 'wallClock'>,
  details: readonly BusDetail[],
): Promise<number[]> {
  const tenantKey = (t: Tenant) => `${t.sellerId}#${t.environment}`;
  const reads = new Map<string, Promise<WebhookEndpoint[]>>();
  for (const detail of details) {
    const key = tenantKey(detail.tenant);
    if (!reads.has(key)) reads.set(key, deps.endpoints.all(detail.tenant));
  }
  const outcomes = await Promise.allSettled(
    details.map(async (detail) =>
      fanOut(deps, detail, await (reads.get(tenantKey(detail.tenant)) as Promise<WebhookEndpoint[]>)),
    ),
  );
  return outcomes.flatMap((o, i) => (o.status === 'rejected' ? [i] : []));
}

/** An attempt that sent nothing, for the reason given. */
const notSent = (error: string): AttemptResult => ({
  statusCode: null,
  durationMs: 0,
  error,
  responseExcerpt: null,
});

async function attempt(
  deps: DeliveryDeps,
  delivery: WebhookDelivery,
  endpoint: WebhookEndpoint | null,
): Promise<AttemptResult> {
  const now = deps.clock.now();
  if (!endpoint) return notSent('endpoint was deleted');
  if (endpoint.status !== 'enabled') return notSent('endpoint is disabled');
  const target = await resolveWebhookUrl(endpoint.url, deps.urlPolicy);
  if (target.problem !== undefined) return notSent(`refused: ${target.problem}`);
  const timestamp = Math.floor(deps.wallClock.now().getTime() / 1000);
  return deps.sender.post(
    { url: endpoint.url, addresses: target.addresses },
    delivery.body,
    {
      'content-type': 'application/json',
      'x-signature': signatureHeader(signingSecrets(endpoint, now), timestamp, delivery.body),
      'x-event-id': delivery.eventId,
      'x-event-type': delivery.eventName,
      'user-agent': USER_AGENT,
    },
    DELIVERY_TIMEOUT_MS,
  );
}

const succeeded = (r: AttemptResult) => r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;

/**
 * Handles one queue message: hops while the attempt is not due, else posts the event and records
 * the outcome. The next attempt's message is sent before the outcome is recorded, so a crash in
 * between repeats an attempt (same event id) instead of losing the retry.
 */
export async function processDeliveryMessage(
  deps: DeliveryDeps,
  message: DeliveryMessage,
  /** The delivery and its endpoint when the caller read them already (a queue batch reads all at once). */
  loaded?: DeliveryWithEndpoint,
): Promise<string> {
  const tenant: Tenant = { sellerId: message.sellerId, environment: message.environment };
  // The delivery and its endpoint in one round trip: an attempt costs this read and its record.
  const endpointId = endpointIdOf(message.deliveryId);
  if (!endpointId) return 'dropped';
  const { delivery: stored, endpoint } =
    loaded ?? (await deps.deliveries.getWithEndpoint(tenant, message.deliveryId, endpointId));
  // Not stored yet: the first attempt's message carries it (a later attempt without a record is dropped).
  const delivery =
    stored ??
    (message.attempt === 1 && message.first
      ? unstoredDelivery(tenant, message.deliveryId, endpointId, message.first)
      : null);
  if (delivery?.status !== 'pending') return 'dropped';
  if (message.attempt !== delivery.scheduledAttempts + 1) return 'dropped';
  const now = deps.clock.now();
  const dueAt = delivery.nextAttemptAt ? Date.parse(delivery.nextAttemptAt) : now.getTime();
  if (dueAt > now.getTime()) {
    const wait = Math.min(MAX_HOP_SECONDS, Math.ceil((dueAt - now.getTime()) / 1000));
    await deps.queue.send({
      body: messageOf(delivery, message.attempt, stored !== null),
      delaySeconds: wait,
    });
    return 'hop';
  }
  const result = await attempt(deps, delivery, endpoint);
  const made = delivery.scheduledAttempts + 1;
  const changes: Partial<WebhookDelivery> = {
    scheduledAttempts: made,
    lastStatusCode: result.statusCode,
    lastDurationMs: result.durationMs,
    lastError: result.error,
    lastResponseExcerpt: result.responseExcerpt,
    lastAttemptAt: now.toISOString(),
    updatedAt: deps.clock.now().toISOString(),
  };
  if (succeeded(result)) {
    Object.assign(changes, { status: 'succeeded', nextAttemptAt: null });
  } else if (made >= MAX_ATTEMPTS || !endpoint) {
    Object.assign(changes, { status: 'failed', nextAttemptAt: null });
  } else {
    // Measured from when this attempt was due, so the schedule does not drift by the time spent.
    const next = new Date(dueAt + RETRY_DELAYS_SECONDS[made - 1] * 1000);
    changes.nextAttemptAt = next.toISOString();
    const wait = Math.min(
      MAX_HOP_SECONDS,
      Math.max(0, Math.ceil((next.getTime() - deps.clock.now().getTime()) / 1000)),
    );
    await deps.queue.send({ body: messageOf(delivery, made + 1), delaySeconds: wait });
  }
  const report = (outcome: AttemptReport['outcome']) =>
    deps.onAttempt?.({
      deliveryId: delivery.id,
      eventId: delivery.eventId,
      endpointId: delivery.endpointId,
      attempt: made,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      outcome,
      error: result.error,
    });
  try {
    if (stored) await deps.deliveries.recordAttempt(tenant, delivery.id, delivery, changes);
    else await deps.deliveries.recordFirstAttempt({ ...delivery, ...changes });
  } catch (error) {
    // Someone recorded this attempt first (a redelivered message): this one is dropped.
    if (isConflict(error, 'changed')) {
      report('duplicate');
      return 'dropped';
    }
    throw error;
  }
  report(changes.status === 'succeeded' || changes.status === 'failed' ? changes.status : 'retry');
  if (changes.status === 'failed') deps.metrics.count(DELIVERY_FAILED_METRIC);
  return String(changes.status ?? 'retry');
}

/** A manual attempt now, with the same event id; the scheduled retries are not disturbed. */
export async function resendDelivery(deps: DeliveryDeps, tenant: Tenant, id: string) {
  const endpointId = endpointIdOf(id);
  const found = endpointId ? await deps.deliveries.getWithEndpoint(tenant, id, endpointId) : null;
  if (!found?.delivery) throw new NotFoundError('Webhook delivery not found');
  const { delivery, endpoint } = found;
  const now = deps.clock.now();
  const result = await attempt(deps, delivery, endpoint);
  const changes: Partial<WebhookDelivery> = {
    manualAttempts: delivery.manualAttempts + 1,
    lastStatusCode: result.statusCode,
    lastDurationMs: result.durationMs,
    lastError: result.error,
    lastResponseExcerpt: result.responseExcerpt,
    lastAttemptAt: now.toISOString(),
    updatedAt: deps.clock.now().toISOString(),
  };
  if (succeeded(result)) Object.assign(changes, { status: 'succeeded', nextAttemptAt: null });
  // A scheduled attempt recorded at the same moment keeps the record; the answer shows this attempt.
  await deps.deliveries.recordAttempt(tenant, id, delivery, changes).catch((error: unknown) => {
    if (!isConflict(error, 'changed')) throw error;
  });
  return toDeliveryView({ ...delivery, ...changes });
}

export function toDeliveryView(d: WebhookDelivery) {
  return {
    id: d.id,
    endpointId: d.endpointId,
    eventId: d.eventId,
    event: d.eventName,
    status: d.status,
    attemptCount: d.scheduledAttempts + d.manualAttempts,
    lastStatusCode: d.lastStatusCode,
    lastDurationMs: d.lastDurationMs,
    lastError: d.lastError,
    lastResponseExcerpt: d.lastResponseExcerpt,
    lastAttemptAt: d.lastAttemptAt,
    nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt : null,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}

/**
 * An endpoint's delivery log, newest first. The log is read first; only an empty first page
 * needs the endpoint read that tells "none yet" from 404.
 */
export async function listDeliveries(
  deps: Pick<DeliveryDeps, 'deliveries' | 'endpoints'>,
  tenant: Tenant,
  endpointId: string,
  page: { limit: number; cursor?: string },
) {
  const out = await deps.deliveries.listByEndpoint(tenant, endpointId, page);
  if (out.items.length === 0 && !page.cursor) await getEndpoint(deps, tenant, endpointId);
  return { data: out.items.map(toDeliveryView), nextCursor: out.cursor ?? null };
}
