import type { Deps } from '#shared/domain/deps';
import type { SavedCardToken } from '#shared/domain/payments/gateway';
import type { Tenant } from '#shared/domain/tenant';
import { onTestClock } from '#shared/domain/test-clocks/on-clock';
import { isConflict } from '#shared/errors';
import { nextExpiryStep, scheduleNextExpiryStep } from './expiry';
import { type PaymentMethod, type PaymentMethodView, toPaymentMethodView } from './payment-method';

/**
 * Saving never fails because a schedule or a provider clean-up did: `reporter` takes them.
 * `customers`, `testClocks` and `clockScope`: a sandbox customer's test clock, which the card lives on.
 */
export type SaveCardDeps = Pick<
  Deps,
  'paymentMethods' | 'payments' | 'scheduler' | 'clock' | 'ids' | 'reporter' | 'customers'
> &
  Partial<Pick<Deps, 'testClocks' | 'clockScope'>>;

export interface SaveCardInput {
  tenant: Tenant;
  /**
   * The seller's customer who paid (the transaction's customer id and uuid), and its test clock when
   * the caller has read it (null: none); left out, a sandbox save reads the customer for it.
   */
  customer: { id: number; uuid: string; testClockId?: string | null };
  /** The provider that approved the charge and holds the token (`provider.provider`). */
  provider: string;
  /** `savedCard` of the approved ChargeResult. */
  savedCard: SavedCardToken;
}

/** A saved card from a provider is trusted data: a malformed one is a programming error, not a 400. */
function checkSavedCard(card: SavedCardToken): SavedCardToken {
  const expiryYear = card.expiryYear < 100 ? 2000 + card.expiryYear : card.expiryYear;
  if (!card.token || !card.brand) throw new Error('a saved card needs its token and brand');
  if (!/^\d{4}$/.test(card.last4)) throw new Error('a saved card has 4 last digits');
  if (!Number.isInteger(card.expiryMonth) || card.expiryMonth < 1 || card.expiryMonth > 12)
    throw new Error('a saved card expiry month is 1 to 12');
  if (!Number.isInteger(expiryYear) || expiryYear < 2000 || expiryYear > 2100)
    throw new Error('a saved card expiry year is 2000 to 2100');
  return { ...card, expiryYear };
}

/**
 * Keeps the card an approved payment tokenized (`saveCard`) as the customer's payment method and
 * schedules its first expiry step. The same card saved again for the same customer (same provider,
 * brand, last 4 and expiry) answers the method already kept, so a repeated call, or a second
 * purchase with the same card, creates nothing (and a second token is forgotten at the provider).
 */
export async function saveCard(deps: SaveCardDeps, input: SaveCardInput): Promise<PaymentMethodView> {
  return toPaymentMethodView(await saveCardRecord(deps, input));
}

/**
 * The test clock a card saved now for the customer lives on: the clock whose time the work runs in,
 * or else (a sale, a pay link, the portal: real-time requests) the sandbox customer's own clock.
 * Live customers never have one, and are not read.
 */
async function clockOfCard(
  deps: Pick<SaveCardDeps, 'customers' | 'clockScope'>,
  input: SaveCardInput,
): Promise<{ id: string; inScope: boolean } | null> {
  const current = deps.clockScope?.current();
  if (current) return { id: current, inScope: true };
  if (input.tenant.environment !== 'test') return null;
  const known = input.customer.testClockId;
  const id =
    known === undefined
      ? (await deps.customers.findProfile(input.tenant, input.customer.uuid))?.testClockId
      : known;
  return id ? { id, inScope: false } : null;
}

/**
 * The payment method saveCardRecord keeps, built but not written: for a use case that writes it in
 * its own transaction (the subscription change of the portal's add-card-and-update), and schedules
 * its first expiry step with scheduleNextExpiryStep once written. A sandbox customer's card on a
 * test clock is built in the clock's time (its creation and first expiry step) and carries the
 * clock, whose advance runs its expiry; a clock that was deleted refuses it, as its other new work.
 */
export async function newCardRecord(
  deps: Pick<SaveCardDeps, 'paymentMethods' | 'clock' | 'ids' | 'customers' | 'testClocks' | 'clockScope'>,
  input: SaveCardInput,
): Promise<PaymentMethod> {
  const clock = await clockOfCard(deps, input);
  if (!clock || clock.inScope) return buildCard(deps, input, clock?.id ?? null);
  return onTestClock(deps, input.tenant, clock.id, () => buildCard(deps, input, clock.id));
}

async function buildCard(
  deps: Pick<SaveCardDeps, 'paymentMethods' | 'clock' | 'ids'>,
  input: SaveCardInput,
  testClockId: string | null,
): Promise<PaymentMethod> {
  const card = checkSavedCard(input.savedCard);
  const at = deps.clock.now().toISOString();
  const pm: PaymentMethod = {
    id: await deps.paymentMethods.nextId(),
    uuid: deps.ids.uuid(),
    tenant: input.tenant,
    customer: { id: input.customer.id, uuid: input.customer.uuid },
    type: 'card',
    brand: card.brand,
    last4: card.last4,
    expiryMonth: card.expiryMonth,
    expiryYear: card.expiryYear,
    status: 'active',
    provider: input.provider,
    token: card.token,
    expiryNotices: [],
    nextExpiryStepAt: null,
    expiredAt: null,
    ...(testClockId ? { testClockId } : {}),
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  pm.nextExpiryStepAt = nextExpiryStep(pm)?.at.toISOString() ?? null;
  return pm;
}

/** saveCard, answering the stored card itself (a caller that goes on to use it need not read it again). */
export async function saveCardRecord(deps: SaveCardDeps, input: SaveCardInput): Promise<PaymentMethod> {
  const pm = await newCardRecord(deps, input);
  try {
    await deps.paymentMethods.create(pm);
  } catch (error) {
    if (!isConflict<PaymentMethod>(error, 'already_exists') || !error.current) throw error;
    const kept = error.current;
    if (kept.token !== pm.token) {
      await deps.payments
        .forEnvironment(input.tenant.environment)
        .detachSavedCard(input.tenant, pm.token)
        .catch((e) => deps.reporter.error('could not forget a second token of a saved card', e));
    }
    return kept;
  }
  await scheduleNextExpiryStep(deps, pm);
  return pm;
}
