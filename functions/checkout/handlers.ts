import { PROOF_HEADER } from '#shared/domain/card-testing/proof-of-work';
import {
  checkoutPayment,
  checkoutView,
  payCheckoutAsBuyer,
  payTestSession,
} from '#shared/domain/checkout/public';
import { createSession, expireSession, getSession, listSessions } from '#shared/domain/checkout/sessions';
import { defineHandlers } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import { checkoutRoutes } from './routes';

export const group = defineHandlers(checkoutRoutes, ({ deps }) => ({
  createCheckoutSession: async ({ tenant, body, request }) => {
    const onScheduleError = (error: unknown) =>
      request.log.error('could not schedule a checkout session expiry', { error });
    return reply(201, await createSession({ ...deps, onScheduleError }, tenant, body));
  },
  listCheckoutSessions: ({ tenant, query }) => listSessions(deps, tenant, query),
  getCheckoutSession: ({ tenant, path }) => getSession(deps, tenant, path.id),
  expireCheckoutSession: ({ tenant, path, request }) =>
    expireSession(
      {
        ...deps,
        // The session is expired either way; its expiry job retries what the provider refused.
        onCancelError: (error, id) => request.log.error('could not cancel a session payment', { error, id }),
      },
      tenant,
      path.id,
    ),
  getCheckoutPage: ({ path }) => checkoutView(deps, path.ref),
  payCheckout: async ({ path, body, request }) => {
    const onSaveCardError = (error: unknown) => request.log.error('could not save the card', { error });
    const onScheduleError = (error: unknown) => request.log.error('could not schedule a job', { error });
    return reply(
      201,
      await payCheckoutAsBuyer(
        { ...deps, onSaveCardError, onScheduleError, buyerIp: request.sourceIp },
        path.ref,
        body,
        { ip: request.sourceIp, proof: request.headers[PROOF_HEADER] },
      ),
    );
  },
  getCheckoutPayment: ({ path }) => checkoutPayment(deps, path.ref, path.paymentId),
  payTestCheckoutSession: ({ tenant, path, body, request }) => {
    const onScheduleError = (error: unknown) => request.log.error('could not schedule a job', { error });
    return payTestSession({ ...deps, onScheduleError }, tenant, path.id, body);
  },
}));
