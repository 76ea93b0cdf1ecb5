import { type DomainEvent, type EventsOf, newEvent, type TrialEvent } from '#shared/domain/events/events';
import type {
  Atomically,
  Clock,
  ClockScope,
  CustomerRepository,
  GatewayRouter,
  Ids,
  PaymentMethodRepository,
  Reporter,
  Scheduler,
  SubscriptionRepository,
  TransactionRepository,
} from '#shared/domain/ports';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { type Subscription, toSubscriptionEventData } from './subscription';

/** What the subscription engine (charges, due jobs) needs; the API's use cases extend it. */
export interface SubscriptionDeps {
  subscriptions: SubscriptionRepository;
  /**
   * Ids for charges, a look at one already written (a concurrent run finished it), and a charge's
   * transaction written with the subscription (in one Atomically).
   */
  transactions: Pick<TransactionRepository, 'nextId' | 'get' | 'create'>;
  atomically: Atomically;
  /** A start whose customer snapshot came from a copy of the profile checks it in its write. */
  customers: Pick<CustomerRepository, 'confirmUnchanged'>;
  /** The saved card a renewal charges (an expired card is never charged), and a card saved with a change. */
  paymentMethods: Pick<PaymentMethodRepository, 'get' | 'create'>;
  payments: GatewayRouter;
  scheduler: Scheduler;
  clock: Clock;
  /** The sandbox test clock the work runs on (a subscription is created on its customer's). */
  clockScope?: ClockScope;
  ids: Ids;
  /**
   * What must not fail the subscription's saved change: a failed schedule (the heartbeat's sweep
   * is the backstop), a subscription that cannot advance (the sweep goes on, retried next beat).
   */
  reporter: Reporter;
  /**
   * Applies what the provider reports of an awaited Pix Automático debit whose notification never
   * came, exactly as that notification would (the transaction's transition and its follow-ups,
   * which settle the subscription). Absent: the due job only asks again later.
   */
  settleDebit?: (transaction: Transaction, status: 'paid' | 'failed' | 'canceled') => Promise<unknown>;
}

/** A subscription.* or customer.trial_* webhook: the subscription as the API shows it (toSubscriptionEventData). */
export function subscriptionEvent(
  deps: { ids: Ids; clock: Clock },
  subscription: Subscription,
  name: EventsOf<'subscription'> | TrialEvent,
): DomainEvent {
  return newEvent(deps, subscription.tenant, name, toSubscriptionEventData(subscription));
}
