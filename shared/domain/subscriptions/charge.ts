import { type DomainEvent, newEvent } from '#shared/domain/events/events';
import type { PaymentMethod } from '#shared/domain/payment-methods/payment-method';
import { type ChargeResult, PROVIDER_NOT_CONFIGURED } from '#shared/domain/payments/gateway';
import { providerReady } from '#shared/domain/payments/provider-ready';
import { chargeSavedCard, NOT_CONFIGURED } from '#shared/domain/payments/saved-card';
import type { PaymentProvider } from '#shared/domain/ports';
import { eventsOf, statusOf } from '#shared/domain/transactions/create';
import {
  paymentSucceededData,
  sellerNet,
  type Transaction,
  type TransactionStatus,
} from '#shared/domain/transactions/transaction';
import { NotFoundError } from '#shared/errors';
import type { SubscriptionDeps } from './deps';
import type { PendingCharge, Subscription } from './subscription';

/**
 * `pending`: a Pix Automático debit the provider schedules for a later day (a live provider); the
 * charge stays claimed until the payment's notification settles it (settleAwaitedCharge).
 */
export type CollectOutcome = 'paid' | 'declined' | 'error' | 'pending';

/** A charge that did not reach the provider, or its answer. */
export interface Charged {
  outcome: CollectOutcome;
  transaction: Transaction | null;
  failureCode: string | null;
  failureReason: string | null;
  /** A pending charge's transaction, already stored, that its notification settled (not written again). */
  settled?: Transaction;
}

const notCharged = (outcome: 'declined' | 'error', failureCode: string, failureReason: string): Charged => ({
  outcome,
  transaction: null,
  failureCode,
  failureReason,
});

function chargeRecord(
  deps: SubscriptionDeps,
  s: Subscription,
  pc: PendingCharge,
  provider: PaymentProvider,
  result: ChargeResult,
  at: string,
): Transaction {
  const method = s.collectionMethod === 'card' ? 'creditcard' : 'pix';
  // A Pix Automático debit is a paid pix, like a pix the buyer paid; a saved card is captured.
  const status: TransactionStatus =
    method === 'pix' && result.outcome === 'approved' ? 'payedPix' : statusOf(result, method);
  const failed = result.outcome === 'declined' || result.outcome === 'error';
  const amount = s.price.unitAmount;
  return {
    id: pc.transactionId,
    uuid: deps.ids.uuid(),
    tenant: s.tenant,
    provider: provider.provider,
    gatewayPayId: result.gatewayPayId,
    status,
    paymentMethod: method,
    value: amount,
    valueSeller: sellerNet(method, amount, 1),
    installments: 1,
    // The subscription keeps no phone: the charge shows none rather than a stale one.
    customer: { ...s.customer, phone: '' },
    product: { ...s.price.product, value: amount },
    pix: null,
    boleto: null,
    card: method === 'creditcard' && result.outcome !== 'pending' ? result.card : null,
    failureCode: failed ? result.failureCode : null,
    failureReason: failed ? result.failureReason : null,
    refunds: [],
    refundedAmount: 0,
    paidAt: status === 'captured' || status === 'payedPix' ? at : null,
    canceledAt: null,
    deadline: null,
    metadata: s.metadata,
    checkoutSessionId: null,
    clientReferenceId: null,
    affiliate: null,
    recurring: { subscriptionId: s.id, billingCycle: pc.cycle, method: s.collectionMethod },
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
}

/** The same events a sale's transaction gets; eventsOf names only a captured card as succeeded. */
export function transactionEvents(deps: SubscriptionDeps, t: Transaction): DomainEvent[] {
  const events = eventsOf(deps, t);
  if (t.status === 'payedPix')
    events.push(newEvent(deps, t.tenant, 'transaction.payment.succeeded', paymentSucceededData(t)));
  return events;
}

/** The provider's answer as the subscription's charge. */
function answered(
  deps: SubscriptionDeps,
  s: Subscription,
  pc: PendingCharge,
  provider: PaymentProvider,
  result: ChargeResult,
): Charged {
  const transaction = chargeRecord(deps, s, pc, provider, result, deps.clock.now().toISOString());
  if (result.outcome === 'pending') {
    // Only a pix debit is scheduled by the provider; a card answers at once.
    if (s.collectionMethod === 'card') throw new Error('a saved-card charge cannot be pending');
    return { outcome: 'pending', transaction, failureCode: null, failureReason: null };
  }
  return result.outcome === 'approved'
    ? { outcome: 'paid', transaction, failureCode: null, failureReason: null }
    : {
        outcome: result.outcome,
        transaction,
        failureCode: result.failureCode,
        failureReason: result.failureReason,
      };
}

/**
 * Calls the provider for the claimed charge: a card through the shared saved-card charge (an
 * expired or missing card is not charged at all), a Pix Automático debit through its authorization.
 */
export async function charge(
  deps: SubscriptionDeps,
  s: Subscription,
  pc: PendingCharge,
  /** The saved card as the caller just read it (a new subscription's), else it is read here. */
  paymentMethod?: PaymentMethod,
): Promise<Charged> {
  if (s.collectionMethod === 'card') {
    const card = await chargeSavedCard(deps, {
      paymentMethod,
      tenant: s.tenant,
      customer: s.customer,
      paymentMethodId: s.paymentMethod?.id ?? null,
      transactionId: pc.transactionId,
      amountCentavos: s.price.unitAmount,
      description: s.price.product.name,
      idempotencyKey: pc.idempotencyKey,
      missingCardReason: 'The subscription has no saved card to charge.',
    });
    if (!card.charged) return notCharged(card.outcome, card.failureCode, card.failureReason);
    return answered(deps, s, pc, card.provider, card.result);
  }
  const provider = deps.payments.forEnvironment(s.tenant.environment);
  if (!(await providerReady(provider, s.tenant)))
    return notCharged('error', NOT_CONFIGURED, PROVIDER_NOT_CONFIGURED);
  if (!s.pixAuthorizationId)
    return notCharged(
      'declined',
      'authorization_missing',
      'The subscription has no Pix Automático authorization.',
    );
  let result: ChargeResult;
  try {
    result = await provider.chargePixAutomatic({
      tenant: s.tenant,
      transactionId: pc.transactionId,
      amountCentavos: s.price.unitAmount,
      description: s.price.product.name,
      idempotencyKey: pc.idempotencyKey,
      authorizationId: s.pixAuthorizationId,
    });
  } catch (error) {
    // The provider does not know the authorization: nothing was charged, and retrying it cannot
    // succeed. Anything else is left to a rerun with the same key.
    if (!(error instanceof NotFoundError)) throw error;
    return notCharged(
      'declined',
      'authorization_missing',
      'The provider does not know the Pix Automático authorization.',
    );
  }
  return answered(deps, s, pc, provider, result);
}
