import type { PaymentMethod } from '#shared/domain/payment-methods/payment-method';
import { providerReady } from '#shared/domain/payments/provider-ready';
import type { GatewayRouter, PaymentMethodRepository, PaymentProvider } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { NotFoundError } from '#shared/errors';
import { type CardSummary, type ChargeResult, PROVIDER_NOT_CONFIGURED } from './gateway';

/**
 * A saved card charged without the buyer: a subscription's renewal and retries, a scheduled
 * charge's silent charge and retries. One module so both engines charge, refuse and retry alike.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Waits after the 1st, 2nd and 3rd failed attempt of a cycle, from that attempt. A decline is the
 * issuer's answer (funds, limits): it changes over days, around paydays. An error is technical
 * (provider or network): it usually clears within hours.
 */
export const RETRY_DELAYS_MS: Record<'declined' | 'error', readonly number[]> = {
  declined: [3 * DAY_MS, 5 * DAY_MS, 7 * DAY_MS],
  error: [HOUR_MS, 6 * HOUR_MS, 24 * HOUR_MS],
};
/** Attempts per billing cycle (the charge and its three retries); then the cycle has failed. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.declined.length + 1;

/**
 * When the next attempt of a cycle is due after its `failedAttempts`-th failure (counting this
 * one), or null when that was the last one (MAX_ATTEMPTS).
 */
export function nextRetryAt(outcome: 'declined' | 'error', failedAttempts: number, now: Date): string | null {
  if (failedAttempts >= MAX_ATTEMPTS) return null;
  return new Date(now.getTime() + RETRY_DELAYS_MS[outcome][failedAttempts - 1]).toISOString();
}

/**
 * The provider's key of one claimed charge. The transaction id makes every claim's key new, so a
 * cycle charged again (after a pause voided it, or a reactivation) never gets an older answer.
 */
export const savedCardIdempotencyKey = (
  owner: string,
  cycle: number,
  attempt: number,
  transactionId: number,
): string => `${owner}_c${cycle}_a${attempt}_t${transactionId}`;

/** Canonical failure codes of a charge that never reached the provider. */
export const NO_CARD = 'expired_card';
export const NOT_CONFIGURED = 'provider_not_configured';

export interface SavedCardChargeInput {
  tenant: Tenant;
  /** The card's owner: a method of another customer is never charged. */
  customer: { id: number; name: string; document: string; email: string };
  /** The saved method's id (null: none saved). */
  paymentMethodId: number | null;
  transactionId: number;
  amountCentavos: number;
  description: string;
  idempotencyKey: string;
  /** The sentence of a refusal for a missing card (`The subscription has no saved card to charge.`). */
  missingCardReason: string;
  /** The method as the caller read it a moment ago (a new subscription's card): not read again. */
  paymentMethod?: PaymentMethod;
}

/** The provider answered (approved, declined or error), or nothing reached it. */
export type SavedCardCharge =
  | {
      charged: true;
      provider: PaymentProvider;
      result: Exclude<ChargeResult, { outcome: 'pending' }>;
      paymentMethod: PaymentMethod;
    }
  | {
      charged: false;
      outcome: 'declined' | 'error';
      failureCode: string;
      failureReason: string;
      /** The method read (an expired one), or null when none could be. */
      paymentMethod: PaymentMethod | null;
    };

const notCharged = (
  outcome: 'declined' | 'error',
  failureCode: string,
  failureReason: string,
  paymentMethod: PaymentMethod | null = null,
): SavedCardCharge => ({ charged: false, outcome, failureCode, failureReason, paymentMethod });

/**
 * Charges the saved card once per idempotency key (a rerun of a claimed charge repeats the same
 * call and gets the first answer). A missing, another customer's or expired card is not charged:
 * a decline `expired_card`; a provider that no longer knows the token likewise. Any other throw is
 * left to a rerun with the same key.
 */
export async function chargeSavedCard(
  deps: { payments: GatewayRouter; paymentMethods: Pick<PaymentMethodRepository, 'get'> },
  input: SavedCardChargeInput,
): Promise<SavedCardCharge> {
  const provider = deps.payments.forEnvironment(input.tenant.environment);
  if (!(await providerReady(provider, input.tenant)))
    return notCharged('error', NOT_CONFIGURED, PROVIDER_NOT_CONFIGURED);
  const pm = !input.paymentMethodId
    ? null
    : input.paymentMethod?.id === input.paymentMethodId
      ? input.paymentMethod
      : await deps.paymentMethods.get(input.tenant, input.paymentMethodId);
  if (!pm || pm.customer.id !== input.customer.id)
    return notCharged('declined', NO_CARD, input.missingCardReason);
  if (pm.status === 'expired') return notCharged('declined', NO_CARD, 'The saved card has expired.', pm);
  let result: ChargeResult;
  try {
    result = await provider.chargeSavedCard({
      tenant: input.tenant,
      transactionId: input.transactionId,
      amountCentavos: input.amountCentavos,
      installments: 1,
      description: input.description,
      customer: { name: input.customer.name, document: input.customer.document, email: input.customer.email },
      token: pm.token,
      idempotencyKey: input.idempotencyKey,
    });
  } catch (error) {
    // The provider no longer knows the card: nothing was charged, and the same token cannot succeed.
    if (!(error instanceof NotFoundError)) throw error;
    return notCharged('declined', NO_CARD, 'The provider no longer keeps the saved card.', pm);
  }
  if (result.outcome === 'pending') throw new Error('a charge without the buyer cannot be pending');
  return { charged: true, provider, result, paymentMethod: pm };
}

/** The card shown on an attempt or a transaction: the provider's answer, else the saved method's. */
export function cardOf(charge: SavedCardCharge): CardSummary | null {
  if (charge.charged) return charge.result.card;
  return charge.paymentMethod
    ? { brand: charge.paymentMethod.brand, last4: charge.paymentMethod.last4 }
    : null;
}
