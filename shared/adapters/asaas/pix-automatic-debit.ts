import type {
  ChargeResult,
  PixAuthorizationStatus,
  PixAutomaticChargeRequest,
} from '#shared/domain/payments/gateway';
import { PIX_AUTHORIZATION_NOT_FOUND } from '#shared/domain/payments/sandbox-helpers';
import type { ProviderPixAuthorization } from '#shared/domain/ports/provider-connections';
import { NotFoundError } from '#shared/errors';
import { AsaasRefusal, AsaasUnavailable, Reais } from './client';
import { freshStatus, ownAuthorization, type PixAutomaticContext, saoPauloDay } from './pix-automatic';

/** A renewal on a Pix Automático authorization at Asaas (docs.asaas.com/docs/implementation, step 2). */

/**
 * Days between a renewal's instruction and its debit. BCB's rule is that an instruction reaches the
 * payer's bank 2 to 10 days before the due date; Asaas refuses (400) a payment outside that window,
 * and its pages read the 2 as business days: 5 calendar days always hold 2 business days and stay
 * far from 10.
 */
export const DEBIT_LEAD_DAYS = 5;

const NO_CARD = { brand: 'pix', last4: '' };

const REASONS = {
  pending: 'The Pix Automático authorization is not active: the first pix has not been paid.',
  revoked: 'The payer revoked the Pix Automático authorization (or it was cancelled or expired).',
  amount_above_limit: 'The amount is above the value the payer authorized.',
} as const;

/**
 * A renewal on an active authorization: POST /payments, billingType PIX, linked by
 * `pixAutomaticAuthorizationId`, due DEBIT_LEAD_DAYS ahead. Asaas debits it on the due date, so the
 * answer is `pending`; the payment's PAYMENT_RECEIVED (or PAYMENT_OVERDUE) webhook settles it. An
 * authorization that is not active declines `authorization_revoked` without a call, as the sandbox.
 * Asaas has no idempotency key: the first answer per (seller, key) is kept, except an errored one.
 */
export async function chargeOnAuthorization(
  ctx: PixAutomaticContext,
  request: PixAutomaticChargeRequest,
): Promise<ChargeResult> {
  const { sellerId } = request.tenant;
  const replay = await ctx.links.replayed(sellerId, request.idempotencyKey);
  if (replay) return replay;
  const own = await ownAuthorization(ctx, request.tenant, request.authorizationId);
  if (!own) throw new NotFoundError(PIX_AUTHORIZATION_NOT_FOUND);
  let status: PixAuthorizationStatus | null;
  try {
    status = await freshStatus(ctx, own);
  } catch (error) {
    // Whether the payer still consents is unknown: errored (retried), never a false decline.
    if (error instanceof AsaasUnavailable)
      return unknownOutcome(await ctx.reserveId(sellerId, request.amountCentavos), error);
    throw error;
  }
  if (status === null) throw new NotFoundError(PIX_AUTHORIZATION_NOT_FOUND);
  const refusal =
    status !== 'active'
      ? { failureCode: 'authorization_revoked', failureReason: REASONS[status] }
      : request.amountCentavos > own.maxAmountCentavos
        ? { failureCode: 'amount_above_limit', failureReason: REASONS.amount_above_limit }
        : null;
  const gatewayPayId = await ctx.reserveId(sellerId, request.amountCentavos);
  let result: ChargeResult;
  if (refusal) {
    result = {
      outcome: 'declined',
      gatewayPayId,
      card: NO_CARD,
      ...refusal,
      gatewayFailureCode: `asaas_authorization_${status}`,
    };
  } else {
    result = await debit(ctx, own, request, gatewayPayId);
  }
  if (result.outcome !== 'error') await ctx.links.remember(sellerId, request.idempotencyKey, result);
  return result;
}

async function debit(
  ctx: PixAutomaticContext,
  own: ProviderPixAuthorization,
  request: PixAutomaticChargeRequest,
  gatewayPayId: number,
): Promise<ChargeResult> {
  const credentials = await ctx.credentialsOf(own.sellerId);
  const dueDate = saoPauloDay(new Date(ctx.clock.now().getTime() + DEBIT_LEAD_DAYS * 86_400_000));
  try {
    const payment = await ctx.client.request<{ id: string }>(credentials, 'POST', '/payments', {
      customer: own.customerId,
      billingType: 'PIX',
      value: new Reais(request.amountCentavos),
      dueDate,
      description: request.description,
      externalReference: String(gatewayPayId),
      pixAutomaticAuthorizationId: own.authorizationId,
    });
    await ctx.links.linkCharge(gatewayPayId, payment.id);
    return { outcome: 'pending', gatewayPayId };
  } catch (error) {
    if (error instanceof AsaasUnavailable) return unknownOutcome(gatewayPayId, error);
    if (error instanceof AsaasRefusal && error.status !== 401) {
      const first = error.errors[0];
      return {
        outcome: 'declined',
        gatewayPayId,
        card: NO_CARD,
        failureCode: 'pix_automatic_refused',
        failureReason: first?.description || `The provider refused the debit (HTTP ${error.status}).`,
        gatewayFailureCode: first?.code ?? `http_${error.status}`,
      };
    }
    throw ctx.failureOf(error);
  }
}

const unknownOutcome = (gatewayPayId: number, error: AsaasUnavailable): ChargeResult => ({
  outcome: 'error',
  gatewayPayId,
  card: NO_CARD,
  failureCode: 'processing_error',
  failureReason: 'The payment provider did not answer; the outcome is unknown and nothing was confirmed.',
  gatewayFailureCode: error.reason,
});
