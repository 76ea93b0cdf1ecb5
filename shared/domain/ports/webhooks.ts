import type { Tenant } from '#shared/domain/tenant';
import type { WebhookDelivery } from '#shared/domain/webhooks/deliveries';
import type { EndpointPatch, WebhookEndpoint } from '#shared/domain/webhooks/endpoints';

export interface WebhookEndpointRepository {
  /** Fails with WebhookEndpointLimitError when the tenant already has `max` endpoints. */
  create(endpoint: WebhookEndpoint, max?: number): Promise<void>;
  get(tenant: Tenant, id: string): Promise<WebhookEndpoint | null>;
  list(
    tenant: Tenant,
    page: { limit: number; cursor?: string },
  ): Promise<{ items: WebhookEndpoint[]; cursor?: string }>;
  /** Every endpoint of the tenant (the fan-out filters them by event). */
  all(tenant: Tenant): Promise<WebhookEndpoint[]>;
  update(tenant: Tenant, id: string, patch: EndpointPatch): Promise<WebhookEndpoint | null>;
  /** Throws NotFoundError when the tenant has no such endpoint. */
  delete(tenant: Tenant, id: string): Promise<void>;
}

export interface DeliveryRef {
  tenant: Tenant;
  id: string;
  endpointId: string;
}

export interface DeliveryWithEndpoint {
  delivery: WebhookDelivery | null;
  endpoint: WebhookEndpoint | null;
}

export interface DeliveryRepository {
  /** Creates the delivery unless it exists: returns the stored one either way. */
  createIfAbsent(delivery: WebhookDelivery): Promise<WebhookDelivery>;
  /**
   * Writes a delivery with its first attempt's outcome (nothing is stored before the first attempt);
   * throws ConflictError (reason `changed`) when the delivery exists: that attempt was recorded first.
   */
  recordFirstAttempt(delivery: WebhookDelivery): Promise<void>;
  get(tenant: Tenant, id: string): Promise<WebhookDelivery | null>;
  /** The delivery and its endpoint in one read. */
  getWithEndpoint(
    tenant: Tenant,
    id: string,
    endpointId: string,
  ): Promise<{ delivery: WebhookDelivery | null; endpoint: WebhookEndpoint | null }>;
  /**
   * The deliveries and their endpoints of a queue batch in one read, answered in the
   * order asked; a pair asked twice is read once.
   */
  getManyWithEndpoints(refs: readonly DeliveryRef[]): Promise<DeliveryWithEndpoint[]>;
  listByEndpoint(
    tenant: Tenant,
    endpointId: string,
    page: { limit: number; cursor?: string },
  ): Promise<{ items: WebhookDelivery[]; cursor?: string }>;
  /**
   * Writes an attempt's outcome if nobody recorded that attempt first; throws ConflictError
   * (reason `changed`) when someone did.
   */
  recordAttempt(
    tenant: Tenant,
    id: string,
    expected: { scheduledAttempts: number; manualAttempts: number },
    changes: Partial<WebhookDelivery>,
  ): Promise<void>;
}

export interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /**
   * The answer's first characters (the seller's endpoint's words: shown to its seller, never
   * logged); null when no body came or no answer.
   */
  responseExcerpt: string | null;
}

/**
 * Where a delivery goes: its URL, and the addresses its host was resolved to and checked against
 * when the attempt began. The sender connects to one of these and never resolves the host again
 * (a second answer could be another address: DNS rebinding); the URL's host still names the
 * server (Host header, TLS server name and certificate check).
 */
export interface WebhookTarget {
  url: string;
  addresses: readonly string[];
}

export interface WebhookSender {
  post(
    target: WebhookTarget,
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
  ): Promise<AttemptResult>;
}

export type Resolver = (host: string) => Promise<string[]>;

/** Where webhooks may go: checkWebhookUrl applies it when an endpoint is saved and before every delivery. */
export interface UrlPolicy {
  /** True only in the local runtime. */
  allowLocalHttp: boolean;
  resolve: Resolver;
}
