import type { RequestLogEntry } from '#shared/domain/ports/request-log';
import { REQUEST_LOG_RETENTION_DAYS } from '#shared/domain/request-log/request-log';
import { keys } from '../keys';
import { defineEntity } from './entity';

/**
 * One API request of a seller (GET /api/request-logs): method, route template, status, latency,
 * idempotency key; never a body, header value or token. Kept 7 days by its TTL.
 */
export const requestLogEntity = defineEntity({
  entity: 'request-log',
  version: 1,
  key: (e: RequestLogEntry) => keys.requestLog(e.tenant, e.at, e.requestId),
  patterns: {},
  attributes: (e) => ({
    tenant: e.tenant,
    requestId: e.requestId,
    method: e.method,
    path: e.path,
    status: e.status,
    latencyMs: e.latencyMs,
    idempotencyKey: e.idempotencyKey,
    via: e.via,
    at: e.at,
    ttl: Math.floor(Date.parse(e.at) / 1000) + REQUEST_LOG_RETENTION_DAYS * 86_400,
  }),
  fromItem: (item): RequestLogEntry => ({
    tenant: item.tenant as RequestLogEntry['tenant'],
    requestId: item.requestId as string,
    method: item.method as string,
    path: item.path as string,
    status: item.status as number,
    latencyMs: item.latencyMs as number,
    idempotencyKey: (item.idempotencyKey as string | null | undefined) ?? null,
    via: item.via as RequestLogEntry['via'],
    at: item.at as string,
  }),
});
