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
  createCheckoutSession: async ({ tenant, body }) => reply(201, await createSession(deps, tenant, body)),
  listCheckoutSessions: ({ tenant, query }) => listSessions(deps, tenant, query),
  getCheckoutSession: ({ tenant, path }) => getSession(deps, tenant, path.id),
  expireCheckoutSession: ({ tenant, path }) => expireSession(deps, tenant, path.id),
  getCheckoutPage: ({ path }) => checkoutView(deps, path.ref),
  payCheckout: async ({ path, body, request }) =>
    reply(
      201,
      await payCheckoutAsBuyer(
        { ...deps, buyerIp: request.sourceIp, retryKey: request.retryKey },
        path.ref,
        body,
        {
          ip: request.sourceIp,
          proof: request.headers[PROOF_HEADER],
        },
      ),
    ),
  getCheckoutPayment: ({ path }) => checkoutPayment(deps, path.ref, path.paymentId),
  payTestCheckoutSession: ({ tenant, path, body }) => payTestSession(deps, tenant, path.id, body),
}));
