import * as z from 'zod';
import type { Deps } from '#shared/domain/deps';
import type { PaidWith } from '#shared/domain/payments/gateway';
import { PIX_AUTHORIZATION_NOT_FOUND } from '#shared/domain/payments/sandbox-helpers';
import { PIX_AUTHORIZATION_LINK_PREFIX } from '#shared/domain/ports/provider-connections';
import type { ProviderNotification } from '#shared/domain/transactions/notifications';
import { TRANSACTION_NOT_FOUND } from '#shared/domain/transactions/transaction';
import { NotFoundError, UnauthorizedError, ValidationError } from '#shared/errors';
import { reaisToCentavos } from '#shared/money';
import { describeIssue } from '#shared/validation';
import {
  ASAAS_AUTHORIZATION_EVENTS,
  ASAAS_EVENTS,
  asaasPaidDetails,
  EVENT_FAILURE,
  refundedTotal,
} from './asaas-events';
import { ASAAS, hashWebhookToken } from './connections';

/** The provider's event object (docs: "Receive Asaas events"): the id is the idempotency key. */
const asaasEventSchema = z.object({
  id: z.string().min(1).max(200),
  event: z.string().min(1).max(100),
  dateCreated: z.string().optional(),
  payment: z
    .object({
      id: z.string().min(1).max(100),
      externalReference: z.string().max(100).nullish(),
      billingType: z.string().max(40).nullish(),
      value: z.number().nonnegative().nullish(),
      refunds: z
        .array(z.object({ value: z.number().nonnegative(), status: z.string().max(60).nullish() }).loose())
        .max(1000)
        .nullish(),
    })
    .loose()
    .optional(),
  authorization: z
    .object({ id: z.string().min(1).max(100), status: z.string().max(60).nullish() })
    .loose()
    .optional(),
});

export type AsaasNotificationDeps = Pick<Deps, 'connections' | 'links' | 'clock'> & {
  /** Applies the notification as a sandbox one (transitions, checkout, subscriptions, cycles). */
  apply: (n: ProviderNotification) => Promise<unknown>;
};

/**
 * POST /api/provider-connections/asaas/notifications. The seller is the one whose webhook token
 * arrived in `asaas-access-token` (checked before the body is read); a payment of another seller
 * answers like a missing one. Events that move nothing are acknowledged with 200, as the provider
 * pauses a queue after repeated failures.
 */
export async function receiveAsaasNotification(
  deps: AsaasNotificationDeps,
  token: string | undefined,
  rawBody: string,
) {
  const sellerId = token ? await deps.connections.sellerOfWebhookToken(ASAAS, hashWebhookToken(token)) : null;
  if (sellerId === null) throw new UnauthorizedError('Invalid or missing asaas-access-token');
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    throw new ValidationError(['body must be JSON']);
  }
  const parsed = asaasEventSchema.safeParse(json, { reportInput: true });
  if (!parsed.success) throw new ValidationError(parsed.error.issues.map(describeIssue));
  const { id, event, payment, authorization } = parsed.data;
  const authorizationStatus = ASAAS_AUTHORIZATION_EVENTS[event];
  if (authorizationStatus && authorization)
    return applyAuthorizationEvent(deps, sellerId, authorization.id, authorizationStatus);
  const type = ASAAS_EVENTS[event];
  if (!type || !payment) return { received: true, applied: false, reason: `event ${event} changes nothing` };
  const gatewayPayId =
    (await firstPixAutomaticPayment(deps, sellerId, payment)) ?? Number(payment.externalReference);
  const link =
    Number.isSafeInteger(gatewayPayId) && gatewayPayId > 0 ? await deps.links.charge(gatewayPayId) : null;
  if (!link || link.sellerId !== sellerId || link.providerPaymentId !== payment.id)
    throw new NotFoundError(TRANSACTION_NOT_FOUND);
  let amount: number | undefined;
  let paidWith: PaidWith | undefined;
  if (type === 'charge.paid' && link.method !== 'creditcard') {
    ({ amountCentavos: amount, paidWith } = asaasPaidDetails(payment, reaisToCentavos));
  }
  if (type === 'charge.refunded') {
    const total = refundedTotal(event, payment.refunds, reaisToCentavos);
    if (total === null)
      return { received: true, applied: false, reason: `event ${event} names no refund amount` };
    amount = total;
  }
  return deps.apply({
    id,
    ...(amount !== undefined ? { amount } : {}),
    ...(paidWith ? { paidWith } : {}),
    provider: ASAAS,
    type,
    gatewayPayId,
    occurredAt: deps.clock.now().toISOString(),
    ...(EVENT_FAILURE[event] ?? {}),
  });
}

/** An authorization event of this seller's authorization: its status recorded (a revoked one stays so). */
async function applyAuthorizationEvent(
  deps: AsaasNotificationDeps,
  sellerId: number,
  authorizationId: string,
  status: 'active' | 'revoked',
) {
  const known = await deps.links.pixAuthorization(authorizationId);
  if (!known || known.sellerId !== sellerId) throw new NotFoundError(PIX_AUTHORIZATION_NOT_FOUND);
  await deps.links.setPixAuthorizationStatus(authorizationId, status);
  // A revoked authorization stays revoked whatever arrives after (a late activation).
  const now = known.status === 'revoked' ? 'revoked' : status;
  return { received: true, applied: known.status !== now, authorizationId, status: now };
}

/**
 * The first payment of a Pix Automático authorization is created by Asaas when the buyer pays the
 * composite QR: it carries no externalReference of ours, but its `pixQrCodeId` is the immediate
 * QR's conciliation id we kept (docs: "Implementation", conciliation identifier). That leads to our
 * charge, which is linked to the payment on its first event. Null for any other payment.
 */
async function firstPixAutomaticPayment(
  deps: AsaasNotificationDeps,
  sellerId: number,
  payment: { id: string; externalReference?: string | null; pixQrCodeId?: unknown },
): Promise<number | null> {
  if (payment.externalReference || typeof payment.pixQrCodeId !== 'string' || !payment.pixQrCodeId)
    return null;
  const authorization = await deps.links.pixAuthorizationOfConciliation(payment.pixQrCodeId);
  if (!authorization || authorization.sellerId !== sellerId) return null;
  const link = await deps.links.charge(authorization.gatewayPayId);
  if (link?.providerPaymentId === `${PIX_AUTHORIZATION_LINK_PREFIX}${authorization.authorizationId}`)
    await deps.links.linkCharge(link.gatewayPayId, payment.id);
  return authorization.gatewayPayId;
}
