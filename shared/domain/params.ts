import * as z from 'zod';
import { NUMERIC_ID, UUID_SHAPE } from '#shared/ids';

/**
 * Path parameter shapes. A value that fails its shape can name no resource, so the pipeline
 * answers the route's 404 before anything is read; the bound on length also keeps keys small.
 */
/** Prefixed random ids (`key_…`, `we_…`, `whd_…`): base62 after the prefix. */
const OPAQUE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const numericIdString = z.string().regex(NUMERIC_ID);
export const uuidString = z
  .string()
  .regex(UUID_SHAPE)
  .transform((v) => v.toLowerCase());
export const opaqueId = z.string().regex(OPAQUE_ID);

/** `{id}`: an integer id or a UUID (products accept both; the domain tells them apart). */
export const numericOrUuidParam = z.object({ id: z.union([numericIdString, uuidString]) });
export const numericIdParam = z.object({ id: numericIdString });
export const uuidParam = z.object({ uuid: uuidString });
export const opaqueIdParam = z.object({ id: opaqueId });
export const gatewayPayIdParam = z.object({ gatewayPayId: numericIdString.transform(Number) });
/** The hosted checkout page's reference: a session id (`cs_…`) or a product uuid. */
export const checkoutRefParam = z.object({ ref: z.union([uuidString, opaqueId]) });
export const checkoutPaymentParam = z.object({ ref: checkoutRefParam.shape.ref, paymentId: uuidString });
/** A customer's saved payment method. */
export const paymentMethodParams = z.object({ uuid: uuidString, id: numericIdString.transform(Number) });
