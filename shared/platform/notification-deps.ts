import type { Container } from './container';

/**
 * What applying a provider's notification needs, whoever received it: the sandbox's signed route
 * (functions/transactions), Asaas's webhook route (functions/provider-connections) and the
 * subscription job that asks the provider about a debit whose notification never came
 * (shared/jobs). The sale's repositories, plus those of everything a transaction can be linked to:
 * the follow-up map (shared/domain/transactions/follow-ups.ts) moves them.
 */
export function notificationDeps(c: Container) {
  return {
    transactions: c.repos.transactions,
    payments: c.payments,
    clock: c.clock,
    ids: c.ids,
    products: c.repos.products,
    customers: c.repos.customers,
    affiliations: c.repos.affiliations,
    paymentMethods: c.repos.paymentMethods,
    scheduler: c.scheduler,
    sessions: c.repos.checkoutSessions,
    subscriptions: c.repos.subscriptions,
    atomically: c.atomically,
    scheduledCharges: c.repos.scheduledCharges,
    installmentPlans: c.repos.installmentPlans,
    reporter: c.reporter,
  };
}
