import * as z from 'zod';

/**
 * The spec names card payments `creditcard` (a Transaction's `paymentMethod`) and `card` (webhook
 * payloads, checkout sessions, scheduled charges). Every route that takes a payment method accepts
 * both names; what it stores and answers keeps the name the spec gives that resource.
 */
export const CARD_NAMES = ['creditcard', 'card'] as const;

const isCardName = (value: string): boolean => (CARD_NAMES as readonly string[]).includes(value);

/**
 * A payment-method field of `values` (one of which is the card under the name this resource uses)
 * that also accepts the card's other name, answered as `values` names it.
 */
export function methodField<const T extends string>(values: readonly T[], options?: { error?: string }) {
  const card = values.find(isCardName);
  if (!card) throw new Error('a payment-method field names the card');
  const accepted = [...values, ...CARD_NAMES.filter((name) => name !== card)] as [string, ...string[]];
  return z.enum(accepted, options).transform((value) => (isCardName(value) ? card : value) as T);
}
