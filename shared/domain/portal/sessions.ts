import * as z from 'zod';
import { redirectUrlProblem } from '#shared/domain/checkout/schemas';
import type { Deps } from '#shared/domain/deps';
import { CUSTOMER_NOT_FOUND } from '#shared/domain/payment-methods/payment-method';
import { PRODUCT_NOT_FOUND } from '#shared/domain/products/products';
import type { Tenant } from '#shared/domain/tenant';
import { NotFoundError, ValidationError } from '#shared/errors';
import {
  PORTAL_TOKEN_LENGTH,
  PORTAL_TOKEN_PREFIX,
  PORTAL_TOKEN_TTL_MS,
  type PortalSession,
  portalTokenHash,
} from './session';

/** Numeric ids stay far below 15 digits (the counters); larger numbers name nothing. */
const MAX_ID = 999_999_999_999_999;

const idField = (field: string, what: string) =>
  z
    .number({
      error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be ${what}`),
    })
    .int(`${field} must be ${what}`)
    .min(1, `${field} must be ${what}`)
    .max(MAX_ID, `${field} must be ${what}`);

/** POST /api/portal/sessions. */
export const createPortalSessionSchema = z
  .object({
    customerId: idField('customerId', 'a customer id (a positive integer)'),
    productId: idField('productId', 'a product id (a positive integer)').optional(),
    returnUrl: z
      .string({ error: 'returnUrl must be a URL' })
      .max(2048, 'returnUrl must be at most 2048 characters long')
      .refine((v) => URL.canParse(v), 'returnUrl must be a valid URL')
      .optional(),
  })
  .strict();

export type CreatePortalSessionInput = z.output<typeof createPortalSessionSchema>;

/** Plain-HTTP return URLs to this machine are accepted in the local runtime only (`allowLocalHttp`, as a checkout's). */
export type PortalSessionDeps = Pick<
  Deps,
  'portalSessions' | 'customers' | 'products' | 'clock' | 'ids' | 'publicBaseUrl' | 'allowLocalHttp'
>;

export const portalUrlOf = (baseUrl: string, token: string) =>
  `${baseUrl.replace(/\/$/, '')}/portal?token=${encodeURIComponent(token)}`;

/**
 * POST /api/portal/sessions: a one-hour token for one customer of the seller (Stripe's billing
 * portal session). The token appears once, in this answer and its portal URL; only its SHA-256 is
 * stored. Each call makes a new session (the spec: a new token on each customer visit).
 */
export async function createPortalSession(
  deps: PortalSessionDeps,
  tenant: Tenant,
  input: CreatePortalSessionInput,
) {
  const problem = input.returnUrl
    ? redirectUrlProblem('returnUrl', input.returnUrl, deps.allowLocalHttp)
    : null;
  if (problem) throw new ValidationError([problem]);
  const [customer, product] = await Promise.all([
    deps.customers.findRefById(tenant, input.customerId),
    input.productId === undefined ? null : deps.products.get(tenant, input.productId),
  ]);
  if (!customer) throw new NotFoundError(CUSTOMER_NOT_FOUND);
  // Any product of the seller, archived ones included: their subscribers still manage subscriptions.
  if (input.productId !== undefined && !product) throw new NotFoundError(PRODUCT_NOT_FOUND);
  const now = deps.clock.now();
  const token = deps.ids.prefixed(PORTAL_TOKEN_PREFIX, PORTAL_TOKEN_LENGTH);
  const session: PortalSession = {
    id: await deps.portalSessions.nextId(),
    tokenHash: portalTokenHash(token),
    tenant,
    customer: { id: customer.id, uuid: customer.uuid },
    productId: product?.id ?? null,
    returnUrl: input.returnUrl ?? null,
    expiresAt: new Date(now.getTime() + PORTAL_TOKEN_TTL_MS).toISOString(),
    createdAt: now.toISOString(),
  };
  await deps.portalSessions.create(session);
  return {
    sessionId: session.id,
    token,
    expiresAt: session.expiresAt,
    portalUrl: portalUrlOf(deps.publicBaseUrl, token),
  };
}
