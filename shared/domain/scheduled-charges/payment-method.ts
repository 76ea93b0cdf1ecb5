import * as z from 'zod';
import { PAYMENT_METHOD_NOT_FOUND } from '#shared/domain/payment-methods/payment-method';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, isConflict, NotFoundError, ValidationError } from '#shared/errors';
import type { ScheduledCharge } from './charge';
import type { ScheduledChargeDeps } from './deps';
import { findCharge, toChargeDetail } from './queries';
import { draftOf, finish, isOpen, saveCharge } from './state';

/**
 * The seller changes or clears the card a charge's card cycles are charged on (docs/decisions.md,
 * "Scheduled charges (issue 13)"): `payment_method_changed` / `payment_method_cleared`. Cleared, the
 * next card cycle is paid by the customer on its link (which saves the card again).
 */

export type PaymentMethodDeps = Pick<
  ScheduledChargeDeps,
  | 'scheduledCharges'
  | 'paymentMethods'
  | 'transactions'
  | 'scheduler'
  | 'clock'
  | 'ids'
  | 'publicBaseUrl'
  | 'reporter'
>;

/** PUT /api/v1/scheduled-charges/{id}/payment-method. */
export const changePaymentMethodSchema = z
  .object({
    paymentMethodId: z
      .number({ error: 'paymentMethodId must be a saved card id (a positive integer)' })
      .int('paymentMethodId must be a saved card id (a positive integer)')
      .min(1, 'paymentMethodId must be a saved card id (a positive integer)'),
  })
  .strict();

const CLOSED = ['canceled', 'recurrence_canceled', 'paid'];

/** Refusals shared by both actions: a closed charge, no card among its methods, a card charge in flight. */
function refuse(charge: ScheduledCharge, action: string): void {
  if (CLOSED.includes(charge.status))
    throw new ConflictError(
      `Scheduled charge cannot be ${action} in status ${charge.status}`,
      'invalid_transition',
    );
  if (!charge.methods.includes('card'))
    throw new ConflictError(
      `Scheduled charge cannot be ${action}: card is not among its methods`,
      'invalid_transition',
    );
  // The in-flight charge must be repeated with the card it claimed (same key): no change under it.
  const claimed = charge.cycles.find((c) => c.claim !== null);
  if (claimed)
    throw new ConflictError(
      `Scheduled charge cannot be ${action} while a card charge of cycle ${claimed.number} is in progress`,
      'charge_in_progress',
    );
}

/** Reads, changes and saves on the version read; a concurrent write is retried on the fresh charge. */
async function update(
  deps: PaymentMethodDeps,
  tenant: Tenant,
  id: string,
  change: (charge: ScheduledCharge) => ReturnType<typeof draftOf> | null,
  read?: ScheduledCharge,
) {
  for (let tries = 1; ; tries++) {
    // The caller's read serves the first try; a retry reads the charge again.
    const charge = tries === 1 && read ? read : await findCharge(deps, tenant, id);
    const draft = change(charge);
    if (!draft) return toChargeDetail(deps, charge);
    const { next, changes } = finish(deps, charge, draft);
    try {
      return toChargeDetail(deps, await saveCharge(deps, next, charge, changes));
    } catch (error) {
      if (!isConflict(error, 'changed') || tries >= 3) throw error;
    }
  }
}

/** PUT /api/v1/scheduled-charges/{id}/payment-method: a saved card of the charge's customer. The same card again changes nothing. */
export async function changeChargePaymentMethod(
  deps: PaymentMethodDeps,
  tenant: Tenant,
  id: string,
  input: { paymentMethodId: number },
) {
  const [charge, card] = await Promise.all([
    findCharge(deps, tenant, id),
    deps.paymentMethods.get(tenant, input.paymentMethodId),
  ]);
  if (!card || card.customer.id !== charge.customer.id) throw new NotFoundError(PAYMENT_METHOD_NOT_FOUND);
  if (card.status !== 'active') throw new ValidationError(['paymentMethodId names an expired card']);
  const changeTo = (current: ScheduledCharge) => {
    refuse(current, 'given a payment method');
    if (current.paymentMethod?.id === card.id) return null;
    const draft = draftOf({
      ...current,
      paymentMethod: { id: card.id, cardLast4: card.last4, cardBrand: card.brand },
    });
    draft.timeline.push({
      kind: 'payment_method_changed',
      cycleNumber: null,
      data: {
        from: current.paymentMethod?.id ?? null,
        to: card.id,
        cardLast4: card.last4,
        cardBrand: card.brand,
      },
    });
    draft.webhooks.push({ name: 'scheduled_charge.payment_method_changed' });
    return draft;
  };
  return update(deps, tenant, id, changeTo, charge);
}

/** DELETE /api/v1/scheduled-charges/{id}/payment-method: 409 when no card is saved on the charge. */
export async function clearChargePaymentMethod(deps: PaymentMethodDeps, tenant: Tenant, id: string) {
  return update(deps, tenant, id, (current) => {
    refuse(current, 'cleared of its payment method');
    if (!current.paymentMethod)
      throw new ConflictError('Scheduled charge has no payment method to clear', 'invalid_transition');
    // Planned retries would only find no card: those cycles wait for the customer on their links.
    const cycles = current.cycles.map((c) =>
      isOpen(c) && c.nextRetryAt !== null ? { ...c, nextRetryAt: null } : c,
    );
    const draft = draftOf({ ...current, paymentMethod: null, cycles });
    draft.timeline.push({
      kind: 'payment_method_cleared',
      cycleNumber: null,
      data: { paymentMethodId: current.paymentMethod.id },
    });
    draft.webhooks.push({ name: 'scheduled_charge.payment_method_cleared' });
    return draft;
  });
}
