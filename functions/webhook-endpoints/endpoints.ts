import * as z from 'zod';
import { resendDelivery, toDeliveryView } from '#shared/domain/webhooks/deliveries';
import {
  createEndpoint,
  createEndpointSchema,
  deleteEndpoint,
  getEndpoint,
  MAX_PAGE,
  rotateSecret,
  toView,
  updateEndpoint,
  updateEndpointSchema,
} from '#shared/domain/webhooks/endpoints';
import { tenantOf } from '#shared/http/tenant';
import { type HttpRequest, ok } from '#shared/http/types';
import { parseInput } from '#shared/validation';

const deps = (req: HttpRequest) => ({
  endpoints: req.deps.repos.webhookEndpoints,
  clock: req.deps.clock,
  ids: req.deps.ids,
  urlPolicy: req.deps.urlPolicy,
});

const deliveryDeps = (req: HttpRequest) => ({
  ...deps(req),
  deliveries: req.deps.repos.deliveries,
  queue: req.deps.queue,
  sender: req.deps.sender,
  metrics: req.deps.metrics,
});

const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(20),
  cursor: z.string().optional(),
});

export const create = async (req: HttpRequest) =>
  ok(await createEndpoint(deps(req), tenantOf(req), parseInput(createEndpointSchema, req.body)), 201);

export async function list(req: HttpRequest) {
  const page = parseInput(pageQuery, req.query);
  const out = await req.deps.repos.webhookEndpoints.list(tenantOf(req), page);
  return ok({ data: out.items.map(toView), nextCursor: out.cursor ?? null });
}

export const get = async (req: HttpRequest) =>
  ok(toView(await getEndpoint(deps(req), tenantOf(req), req.pathParams.id)));

export const update = async (req: HttpRequest) =>
  ok(
    await updateEndpoint(
      deps(req),
      tenantOf(req),
      req.pathParams.id,
      parseInput(updateEndpointSchema, req.body),
    ),
  );

export const remove = async (req: HttpRequest) =>
  ok(await deleteEndpoint(deps(req), tenantOf(req), req.pathParams.id));

export const rotate = async (req: HttpRequest) =>
  ok(await rotateSecret(deps(req), tenantOf(req), req.pathParams.id));

export async function deliveries(req: HttpRequest) {
  const tenant = tenantOf(req);
  const page = parseInput(pageQuery, req.query);
  const out = await req.deps.repos.deliveries.listByEndpoint(tenant, req.pathParams.id, page);
  // The log is read first; only an empty one needs the endpoint read that tells "none yet" from 404.
  if (out.items.length === 0 && !page.cursor) await getEndpoint(deps(req), tenant, req.pathParams.id);
  return ok({ data: out.items.map(toDeliveryView), nextCursor: out.cursor ?? null });
}

export const resend = async (req: HttpRequest) =>
  ok(await resendDelivery(deliveryDeps(req), tenantOf(req), req.pathParams.id));
