import { checkoutPayment, checkoutView, payCheckout, payTestSession } from '#shared/domain/checkout/public';
import { createSession, expireSession, getSession, listSessions } from '#shared/domain/checkout/sessions';
import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import { checkoutRoutes } from './routes';

export const handler = createHttpHandler(checkoutRoutes, (c) => {
  const base = {
    sessions: c.repos.checkoutSessions,
    transactions: c.repos.transactions,
    products: c.repos.products,
    customers: c.repos.customers,
    affiliations: c.repos.affiliations,
    paymentMethods: c.repos.paymentMethods,
    prices: c.repos.prices,
    subscriptions: c.repos.subscriptions,
    payments: c.payments,
    scheduler: c.scheduler,
    clock: c.clock,
    ids: c.ids,
    publicBaseUrl: c.config.publicBaseUrl,
    allowLocalHttp: c.urlPolicy.allowLocalHttp,
  };
  return {
    createCheckoutSession: async ({ tenant, body, request }) => {
      const onScheduleError = (error: unknown) =>
        request.log.error('could not schedule a checkout session expiry', { error });
      return reply(201, await createSession({ ...base, onScheduleError }, tenant, body));
    },
    listCheckoutSessions: ({ tenant, query }) => listSessions(base, tenant, query),
    getCheckoutSession: ({ tenant, path }) => getSession(base, tenant, path.id),
    expireCheckoutSession: ({ tenant, path, request }) =>
      expireSession(
        {
          ...base,
          // The session is expired either way; its expiry job retries what the provider refused.
          onCancelError: (error, id) =>
            request.log.error('could not cancel a session payment', { error, id }),
        },
        tenant,
        path.id,
      ),
    getCheckoutPage: ({ path }) => checkoutView(base, path.ref),
    payCheckout: async ({ path, body, request }) => {
      const onSaveCardError = (error: unknown) => request.log.error('could not save the card', { error });
      const onScheduleError = (error: unknown) => request.log.error('could not schedule a job', { error });
      return reply(201, await payCheckout({ ...base, onSaveCardError, onScheduleError }, path.ref, body));
    },
    getCheckoutPayment: ({ path }) => checkoutPayment(base, path.ref, path.paymentId),
    payTestCheckoutSession: ({ tenant, path, body, request }) => {
      const onScheduleError = (error: unknown) => request.log.error('could not schedule a job', { error });
      return payTestSession({ ...base, sandbox: c.sandbox, onScheduleError }, tenant, path.id, body);
    },
  };
});
