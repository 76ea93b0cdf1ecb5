import * as z from 'zod';
import type { Assert, Equals } from '#shared/domain/type-assert';
import type { resendDelivery, toDeliveryView } from './deliveries';
import type {
  createEndpoint,
  deleteEndpoint,
  rotateSecret,
  toView,
  updateEndpoint,
  WebhookEndpointView,
} from './endpoints';

const endpointFields = {
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()).describe('Event names, or ["*"] for every event'),
  description: z.string().nullable(),
  status: z.enum(['enabled', 'disabled']),
  environment: z.enum(['test', 'live']),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};

/** GET /api/webhook-endpoints/{id}, PATCH, and the items of the list: never the secret. */
export const webhookEndpointResponse = z.lazy(() =>
  z
    .object(endpointFields)
    .meta({ id: 'WebhookEndpoint', description: 'A webhook endpoint (its signing secret is not shown)' }),
);

/** POST /api/webhook-endpoints (201): the endpoint and its signing secret, shown this once. */
export const webhookEndpointCreatedResponse = z.lazy(() =>
  z
    .object({ ...endpointFields, secret: z.string().describe('The signing secret (whsec_…)') })
    .meta({ id: 'WebhookEndpointCreated', description: 'A new webhook endpoint with its signing secret' }),
);

/** POST /api/webhook-endpoints/{id}/rotate-secret: the new secret, and until when the old one signs. */
export const webhookEndpointRotatedResponse = z.lazy(() =>
  z
    .object({
      ...endpointFields,
      secret: z.string().describe('The new signing secret'),
      previousSecretExpiresAt: z.iso
        .datetime()
        .nullable()
        .describe('Until then deliveries are signed with both secrets'),
    })
    .meta({
      id: 'WebhookEndpointRotated',
      description: 'A webhook endpoint with its new signing secret (the previous one signs too for 24 hours)',
    }),
);

/** GET /api/webhook-endpoints: cursor pages. */
export const webhookEndpointListResponse = z.lazy(() =>
  z
    .object({
      data: z.array(webhookEndpointResponse),
      nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last'),
    })
    .meta({ id: 'WebhookEndpointList', description: 'A page of webhook endpoints' }),
);

/** DELETE /api/webhook-endpoints/{id}. */
export const webhookEndpointDeletedResponse = z.lazy(() =>
  z
    .object({ id: z.string(), deleted: z.boolean().describe('Always true') })
    .meta({ id: 'WebhookEndpointDeleted', description: 'A deleted webhook endpoint' }),
);

/** An item of GET /api/webhook-endpoints/{id}/deliveries, and POST /api/webhook-deliveries/{id}/resend. */
export const webhookDeliveryResponse = z.lazy(() =>
  z
    .object({
      id: z.string(),
      endpointId: z.string(),
      eventId: z.string().describe('The same on every retry and resend'),
      event: z.string().describe('The event name'),
      status: z.enum(['pending', 'succeeded', 'failed']),
      attemptCount: z.number().describe('Scheduled and manual attempts made'),
      lastStatusCode: z
        .number()
        .nullable()
        .describe('HTTP status of the last attempt; null before one or when no answer came'),
      lastDurationMs: z.number().nullable(),
      lastError: z.string().nullable(),
      lastResponseExcerpt: z
        .string()
        .nullable()
        .describe(
          "The first characters (at most 500) of the last attempt's answer body, control characters removed; null when it had no body or no answer came",
        ),
      lastAttemptAt: z.iso.datetime().nullable(),
      nextAttemptAt: z.iso.datetime().nullable().describe('null unless the delivery is pending'),
      createdAt: z.iso.datetime(),
      updatedAt: z.iso.datetime(),
    })
    .meta({ id: 'WebhookDelivery', description: 'One event sent to one endpoint, with its last attempt' }),
);

/** GET /api/webhook-endpoints/{id}/deliveries: cursor pages, newest first. */
export const webhookDeliveryListResponse = z.lazy(() =>
  z
    .object({
      data: z.array(webhookDeliveryResponse),
      nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last'),
    })
    .meta({ id: 'WebhookDeliveryList', description: "A page of an endpoint's delivery log" }),
);

type Out<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

type _View = Assert<Equals<z.output<typeof webhookEndpointResponse>, WebhookEndpointView>>;
type _ToView = Assert<Equals<z.output<typeof webhookEndpointResponse>, ReturnType<typeof toView>>>;
type _Update = Assert<Equals<z.output<typeof webhookEndpointResponse>, Out<typeof updateEndpoint>>>;
type _Created = Assert<Equals<z.output<typeof webhookEndpointCreatedResponse>, Out<typeof createEndpoint>>>;
type _Rotated = Assert<Equals<z.output<typeof webhookEndpointRotatedResponse>, Out<typeof rotateSecret>>>;
type _Deleted = Assert<Equals<z.output<typeof webhookEndpointDeletedResponse>, Out<typeof deleteEndpoint>>>;
type _Delivery = Assert<Equals<z.output<typeof webhookDeliveryResponse>, ReturnType<typeof toDeliveryView>>>;
type _Resend = Assert<Equals<z.output<typeof webhookDeliveryResponse>, Out<typeof resendDelivery>>>;
