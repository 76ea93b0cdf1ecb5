import * as z from 'zod';
import { limitQuery } from '#shared/domain/paging';
import type { RequestLogEntry, RequestLogStore } from '#shared/domain/ports/request-log';
import type { Clock } from '#shared/domain/ports/system';
import type { Tenant } from '#shared/domain/tenant';

/** The key a request-log line carries its entry under (the subscription filter matches on it). */
export const REQUEST_LOG_FIELD = 'requestLog';

/** What a log line must hold to be kept: anything else on a function's log group is not an entry. */
const entrySchema = z.object({
  tenant: z.object({ sellerId: z.number().int(), environment: z.enum(['test', 'live']) }),
  requestId: z.string().min(1).max(200),
  method: z.string().max(10),
  path: z.string().max(500),
  status: z.number().int(),
  latencyMs: z.number().int().min(0),
  idempotencyKey: z.string().max(255).nullable(),
  via: z.enum(['apiKey', 'jwt']),
  at: z.iso.datetime(),
});

/** The entries among a batch of log lines; lines that are not entries are skipped. */
export function entriesOfLines(lines: readonly string[]): RequestLogEntry[] {
  const entries: RequestLogEntry[] = [];
  for (const message of lines) {
    let line: unknown;
    try {
      line = JSON.parse(message);
    } catch {
      continue;
    }
    const parsed = entrySchema.safeParse((line as Record<string, unknown> | null)?.[REQUEST_LOG_FIELD]);
    if (parsed.success) entries.push(parsed.data);
  }
  return entries;
}

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
  deps: { requestLogs: RequestLogStore; wallClock: Clock },
  tenant: Tenant,
  query: z.output<typeof listRequestLogsQuery>,
) {
  // TTL deletes within days, not on the second: what is past its 7 days is not shown meanwhile.
  const from = new Date(
    deps.wallClock.now().getTime() - REQUEST_LOG_RETENTION_DAYS * 86_400_000,
  ).toISOString();
  const page = await deps.requestLogs.list(tenant, { ...query, from });
  return { data: page.items.map(toRequestLogView), nextCursor: page.cursor ?? null };
}

/** The writer function's use case: the entries a batch of log lines carried, kept as they came. */
export async function appendRequestLogs(
  deps: { requestLogs: RequestLogStore },
  entries: readonly RequestLogEntry[],
): Promise<void> {
  if (entries.length > 0) await deps.requestLogs.append(entries);
}
