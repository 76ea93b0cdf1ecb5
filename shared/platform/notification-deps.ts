import type { notificationFollowUps } from '#shared/domain/payments/paid-follow-ups';
import type { Logger } from '#shared/logger';
import type { Container } from './container';

/**
 * What applying a provider's notification needs, whoever received it: the sandbox's signed route
 * (functions/transactions), Asaas's webhook route (functions/provider-connections) and the
 * subscription job that asks the provider about a debit whose notification never came
 * (shared/jobs). The sale's repositories, plus the follow-ups every applied notification runs: the
 * checkout and subscription ones (in the notification use case) and the scheduled-charge cycle and
 * carnê installment ones (`afterPayment`). The caller passes `notificationFollowUps` from the
 * use-case chunk it already loads, so this module adds nothing to a cold start.
 */
export function notificationDeps(c: Container, log: Logger, followUps: typeof notificationFollowUps) {
  const saleDeps = {
    transactions: c.repos.transactions,
    payments: c.payments,
    clock: c.clock,
    ids: c.ids,
    products: c.repos.products,
    customers: c.repos.customers,
    affiliations: c.repos.affiliations,
    paymentMethods: c.repos.paymentMethods,
    scheduler: c.scheduler,
  };
  return {
    ...saleDeps,
    sessions: c.repos.checkoutSessions,
    // A paid Pix Automático first payment activates its subscription; a debit settles its renewal.
    subscriptions: c.repos.subscriptions,
    onScheduleError: (error: unknown) => log.error('could not schedule a subscription job', { error }),
    // A paid transaction of a scheduled-charge cycle pays the cycle; of a carnê's boleto, the installment.
    afterPayment: followUps(
      {
        ...saleDeps,
        scheduledCharges: c.repos.scheduledCharges,
        installmentPlans: c.repos.installmentPlans,
      },
      log,
    ),
  };
}
