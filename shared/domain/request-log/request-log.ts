import * as z from 'zod';
import { limitQuery } from '#shared/domain/paging';
import type { RequestLogEntry, RequestLogStore } from '#shared/domain/ports/request-log';
import type { Tenant } from '#shared/domain/tenant';

/** Entries are kept this long (their TTL), so no list reaches further back. */
export const REQUEST_LOG_RETENTION_DAYS = 7;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const listRequestLogsQuery = z.object({
  status: z.coerce
    .number({ error: 'status must be an HTTP status from 100 to 599' })
    .int('status must be an HTTP status from 100 to 599')
    .min(100, 'status must be an HTTP status from 100 to 599')
    .max(599, 'status must be an HTTP status from 100 to 599')
    .optional()
    .describe('Only requests answered with this status, e.g. `400`'),
  method: z
    .enum(METHODS, { error: `method must be one of: ${METHODS.join(', ')}` })
    .optional()
    .describe('Only requests of this method'),
  limit: limitQuery,
  cursor: z.string().max(2048).optional(),
});

/** A request as the list shows it: no body, header, token or query string was ever kept. */
export const toRequestLogView = (e: RequestLogEntry) => ({
  id: e.requestId,
  method: e.method,
  path: e.path,
  status: e.status,
  latencyMs: e.latencyMs,
  idempotencyKey: e.idempotencyKey,
  environment: e.tenant.environment,
  authenticatedWith: e.via,
  timestamp: e.at,
});

/** A tenant's API requests of the last 7 days, newest first, filtered by status and method. */
export async function listRequestLogs(
  deps: { requestLogs: RequestLogStore },
  tenant: Tenant,
  query: z.output<typeof listRequestLogsQuery>,
) {
  const page = await deps.requestLogs.list(tenant, query);
  return { data: page.items.map(toRequestLogView), nextCursor: page.cursor ?? null };
}

/** The writer function's use case: the entries a batch of log lines carried, kept as they came. */
export async function appendRequestLogs(
  deps: { requestLogs: RequestLogStore },
  entries: readonly RequestLogEntry[],
): Promise<void> {
  if (entries.length > 0) await deps.requestLogs.append(entries);
}
