import type { Tenant } from '#shared/domain/tenant';

/**
 * One API request of a seller, as its request log keeps it: what was called and how it answered,
 * never a body, a header value, a token or a query string.
 */
export interface RequestLogEntry {
  tenant: Tenant;
  requestId: string;
  method: string;
  /** The route's template (`/api/products/{id}`), never the concrete path with its ids or secrets. */
  path: string;
  status: number;
  latencyMs: number;
  /** The X-Idempotency-Key the request sent, if any (a key the seller chose, not a secret). */
  idempotencyKey: string | null;
  /** `apiKey` or `jwt`: the scheme the request was authenticated with. */
  via: 'apiKey' | 'jwt';
  /** ISO instant (real time) at which the request arrived. */
  at: string;
}

export interface RequestLogQuery {
  /** ISO instant: entries at or after it (the retention's start). */
  from: string;
  status?: number;
  method?: string;
  limit: number;
  cursor?: string;
}

/** The kept entries, 7 days by their TTL. */
export interface RequestLogStore {
  append(entries: readonly RequestLogEntry[]): Promise<void>;
  /** Newest first; `cursor` is absent on the last page. */
  list(tenant: Tenant, query: RequestLogQuery): Promise<{ items: RequestLogEntry[]; cursor?: string }>;
}

/**
 * Where the HTTP pipeline hands each entry when the answer is ready. It never waits and never
 * fails the request: on AWS a log line a subscription filter carries to the writer function, on
 * the local runtime a buffer its timeline flushes through the same function.
 */
export interface RequestLogSink {
  record(entry: RequestLogEntry): void;
}
