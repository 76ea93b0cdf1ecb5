import { saoPauloDate } from '#shared/dates';
import {
  type CardDeclineCode,
  type CardOutcome,
  cardBrand,
  last4,
  SANDBOX_CARDS,
  sandboxCardOutcome,
} from '#shared/domain/payments/cards';
import type { CardInput, SavedCardToken } from '#shared/domain/payments/gateway';
import type { SandboxCardBehaviour } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { NotFoundError } from '#shared/errors';
import { randomBase62 } from '#shared/ids';
import { keys } from '../dynamodb/keys';
import { ConditionFailedError, type Item, type Table } from '../dynamodb/table';

/** The sandbox's saved cards: how a card is verified, what its token keeps, how it answers later charges. */

export const SAVED_CARD_NOT_FOUND = 'Saved card not found';

/**
 * Test numbers whose payment with the buyer is approved but whose saved card is declined when
 * charged later (Stripe's 4000000000000341): how recurring-charge failures are tried in the sandbox.
 */
export const SAVED_CARD_LATER_DECLINES: Readonly<Record<string, CardDeclineCode>> = Object.freeze({
  '4000000000000341': 'card_declined',
  '4000000000009987': 'insufficient_funds',
});
/** The approving test card those numbers stand in for at their first payment (Visa, 3-digit CVV). */
const APPROVING_STAND_IN = '4111111111111111';

/**
 * What a saved card's token remembers of how its number behaves (never the number or the CVV);
 * the outcome test helper overwrites it.
 */
export type OutcomeClass = SandboxCardBehaviour;

/** How a saved card answers a charge (a failure code a test helper chose is any code). */
export type SavedCardOutcome =
  | { outcome: 'approved' }
  | { outcome: 'declined' | 'error'; failureCode: string; failureReason: string };

function outcomeClassOf(number: string): OutcomeClass {
  const later = SAVED_CARD_LATER_DECLINES[number];
  if (later) return { outcome: 'declined', failureCode: later };
  const scripted: CardOutcome | undefined = SANDBOX_CARDS[number];
  if (!scripted) return { outcome: 'declined', failureCode: 'card_declined' };
  if (scripted.outcome === 'approved') return { outcome: 'approved' };
  return { outcome: scripted.outcome, failureCode: scripted.failureCode };
}

/** A failure's sentence, as the sandbox's card outcomes word it. */
function reasonOf(failureCode: string, outcome: 'declined' | 'error' = 'declined'): string {
  const scripted = Object.values(SANDBOX_CARDS).find(
    (o) => o.outcome !== 'approved' && o.failureCode === failureCode,
  );
  if (scripted && scripted.outcome !== 'approved') return scripted.failureReason;
  return outcome === 'error'
    ? 'An error occurred while processing the card; the payment was not completed.'
    : 'The card was declined.';
}

/**
 * The outcome of charging a saved card on `today` (Sao Paulo): past its expiry month it is declined
 * `expired_card`, as any acquirer does; otherwise it behaves as its number did (no CVV is asked).
 */
export function savedCardOutcome(
  token: { expiryMonth: number; expiryYear: number; outcomeClass: OutcomeClass },
  today: string,
): SavedCardOutcome {
  const [year, month] = today.split('-').map(Number);
  if (token.expiryYear * 12 + token.expiryMonth < year * 12 + month) {
    return { outcome: 'declined', failureCode: 'expired_card', failureReason: reasonOf('expired_card') };
  }
  const c = token.outcomeClass;
  if (c.outcome === 'approved') return { outcome: 'approved' };
  return {
    outcome: c.outcome,
    failureCode: c.failureCode,
    failureReason: reasonOf(c.failureCode, c.outcome),
  };
}

/**
 * What the acquirer and issuer answer for a card with the buyer: the scripted test numbers, expiry
 * and CVV. A later-decline number answers like the approving card it stands in for.
 */
export function verifyCard(card: CardInput, now: Date) {
  const summary = { brand: cardBrand(card.number), last4: last4(card.number) };
  const number = SAVED_CARD_LATER_DECLINES[card.number] ? APPROVING_STAND_IN : card.number;
  return { summary, outcome: sandboxCardOutcome({ ...card, number, today: saoPauloDate(now) }) };
}

/** The token record of an approved card: brand, last 4, expiry and its outcome class only. */
export function tokenRecord(
  tenant: Tenant,
  card: CardInput,
  summary: { brand: string; last4: string },
  now: Date,
): { card: SavedCardToken; item: Item } {
  const token = `tok_${randomBase62(24)}`;
  const expiryYear = card.expiryYear < 100 ? 2000 + card.expiryYear : card.expiryYear;
  const saved: SavedCardToken = { token, ...summary, expiryMonth: card.expiryMonth, expiryYear };
  const item: Item = {
    ...keys.sandboxCardToken(token),
    entity: 'sandbox-card-token',
    version: 1,
    ...saved,
    outcomeClass: outcomeClassOf(card.number),
    sellerId: tenant.sellerId,
    environment: tenant.environment,
    createdAt: now.toISOString(),
  };
  return { card: saved, item };
}

/** A token record of this account; another seller's token is as unknown as a missing one. */
export async function tokenItem(table: Table, tenant: Tenant, token: string): Promise<Item> {
  const item = await table.get<Item>(keys.sandboxCardToken(token), { consistent: true });
  if (!item || item.sellerId !== tenant.sellerId || item.environment !== tenant.environment) {
    throw new NotFoundError(SAVED_CARD_NOT_FOUND);
  }
  return item;
}

/** The test helper's override: the token answers its later charges this way from now on. */
export async function setSavedCardOutcome(
  table: Table,
  tenant: Tenant,
  token: string,
  behaviour: SandboxCardBehaviour,
): Promise<void> {
  const outcomeClass: OutcomeClass =
    behaviour.outcome === 'approved'
      ? { outcome: 'approved' }
      : { outcome: behaviour.outcome, failureCode: behaviour.failureCode };
  try {
    await table.update({
      Key: keys.sandboxCardToken(token),
      UpdateExpression: 'SET outcomeClass = :c, version = version + :one',
      ConditionExpression: 'sellerId = :s AND environment = :e',
      ExpressionAttributeValues: {
        ':c': outcomeClass,
        ':one': 1,
        ':s': tenant.sellerId,
        ':e': tenant.environment,
      },
    });
  } catch (error) {
    // Missing (the condition fails on an absent item too) or another seller's.
    if (!(error instanceof ConditionFailedError)) throw error;
    throw new NotFoundError(SAVED_CARD_NOT_FOUND);
  }
}
