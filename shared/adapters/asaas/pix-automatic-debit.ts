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
  // Written ahead, as a saved-card debit: the key's reference exists before the debit, so a rerun
  // of the key after a lost answer asks Asaas what it holds under it instead of debiting again.
  const reserved = await ctx.reserveId(sellerId, request.amountCentavos);
  const gatewayPayId = await ctx.links.reserveKey(sellerId, request.idempotencyKey, reserved);
  if (gatewayPayId !== reserved) {
    const held = await heldDebit(ctx, own, gatewayPayId);
    if (held) {
      await ctx.links.remember(sellerId, request.idempotencyKey, held);
      return held;
    }
  }
  let status: PixAuthorizationStatus | null;
  try {
    status = await freshStatus(ctx, own);
  } catch (error) {
    // Whether the payer still consents is unknown: errored (retried), never a false decline.
    if (error instanceof AsaasUnavailable) return unknownOutcome(gatewayPayId, error);
    throw error;
  }
  if (status === null) throw new NotFoundError(PIX_AUTHORIZATION_NOT_FOUND);
  const refusal =
    status !== 'active'
      ? { failureCode: 'authorization_revoked', failureReason: REASONS[status] }
      : request.amountCentavos > own.maxAmountCentavos
        ? { failureCode: 'amount_above_limit', failureReason: REASONS.amount_above_limit }
        : null;
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
    // A 5xx or a timeout may have been carried out: the debit's job reruns the key (its claim),
    // which finds it under the reference. Only a call never carried out (a 429, an open circuit)
    // could be answered as an error, and a rerun costs nothing more then.
    if (error instanceof AsaasUnavailable) throw ctx.failureOf(error);
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

/** The debit Asaas holds under our reference (a lost answer), linked; null when it holds none. */
async function heldDebit(
  ctx: PixAutomaticContext,
  own: ProviderPixAuthorization,
  gatewayPayId: number,
): Promise<ChargeResult | null> {
  const credentials = await ctx.credentialsOf(own.sellerId);
  const found = await ctx.call<{
    data?: { id: string; externalReference?: string | null; deleted?: boolean }[];
  }>(credentials, 'GET', `/payments?externalReference=${gatewayPayId}`);
  const payment = (found.data ?? []).find(
    (p) => p.externalReference === String(gatewayPayId) && p.deleted !== true,
  );
  if (!payment) return null;
  await ctx.links.linkCharge(gatewayPayId, payment.id);
  return { outcome: 'pending', gatewayPayId };
}

const unknownOutcome = (gatewayPayId: number, error: AsaasUnavailable): ChargeResult => ({
  outcome: 'error',
  gatewayPayId,
  card: NO_CARD,
  failureCode: 'processing_error',
  failureReason: 'The payment provider did not answer; the outcome is unknown and nothing was confirmed.',
  gatewayFailureCode: error.reason,
});
