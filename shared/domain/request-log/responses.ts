import * as z from 'zod';
import type { Assert, Equals } from '#shared/domain/type-assert';
import type { listRequestLogs } from './request-log';

export const requestLogResponse = z.lazy(() =>
  z
    .object({
      id: z.string().describe('The request id (the `x-request-id` of its answer)'),
      method: z.string(),
      path: z.string().describe('The route template, e.g. `/api/products/{id}` (no ids, no query string)'),
      status: z.number().int().describe('The HTTP status it was answered with'),
      latencyMs: z.number().int().describe('Time inside the service, in milliseconds'),
      idempotencyKey: z.string().nullable().describe('The X-Idempotency-Key it sent, if any'),
      environment: z.enum(['test', 'live']),
      authenticatedWith: z.enum(['apiKey', 'jwt']).describe('An API key or a dashboard session'),
      timestamp: z.iso.datetime().describe('When the request arrived (real time)'),
    })
    .meta({ id: 'RequestLog', description: 'An API request of the seller, kept 7 days; never its body' }),
);

export const requestLogListResponse = z.lazy(() =>
  z
    .object({
      data: z.array(requestLogResponse),
      nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last'),
    })
    .meta({ id: 'RequestLogList', description: 'A page of API requests, newest first' }),
);

type _List = Assert<
  Equals<z.output<typeof requestLogListResponse>, Awaited<ReturnType<typeof listRequestLogs>>>
>;
