import {
  portalAddCardAndUpdate,
  portalCancel,
  portalEvents,
  portalPause,
  portalReactivate,
  portalResume,
  portalUpdateCustomerInfo,
  portalUpdatePaymentMethod,
} from '#shared/domain/portal/actions';
import { getPortal } from '#shared/domain/portal/portal';
import { createPortalSession } from '#shared/domain/portal/sessions';
import { portalSessionOf, usePortalTokens } from '#shared/domain/portal/verifier';
import { createHttpHandler } from '#shared/http/pipeline';
import { type RequestInfo, reply } from '#shared/http/types';
import { portalRoutes } from './routes';

usePortalTokens();

export const handler = createHttpHandler(portalRoutes, (c) => {
  const base = {
    portalSessions: c.repos.portalSessions,
    portalConfigs: c.repos.portalConfigs,
    customers: c.repos.customers,
    products: c.repos.products,
    subscriptions: c.repos.subscriptions,
    transactions: c.repos.transactions,
    paymentMethods: c.repos.paymentMethods,
    payments: c.payments,
    scheduler: c.scheduler,
    mailer: c.mailer,
    clock: c.clock,
    ids: c.ids,
    publicBaseUrl: c.config.publicBaseUrl,
    allowLocalHttp: c.urlPolicy.allowLocalHttp,
  };
  // Reports that never fail the customer's action: the action is done when they happen.
  const deps = (log: RequestInfo['log']) => ({
    ...base,
    onScheduleError: (error: unknown) => log.error('could not schedule subscription work', { error }),
    onMailError: (error: unknown, kind: string) =>
      log.error('could not send a portal e-mail', { error, kind }),
  });
  return {
    createPortalSession: async ({ tenant, body }) =>
      reply(201, await createPortalSession(base, tenant, body)),
    getPortal: ({ request }) => getPortal(base, portalSessionOf(request.subject)),
    portalCancelSubscription: ({ path, body, request }) =>
      portalCancel(deps(request.log), portalSessionOf(request.subject), Number(path.id), body),
    portalPauseSubscription: ({ path, request }) =>
      portalPause(deps(request.log), portalSessionOf(request.subject), Number(path.id)),
    portalResumeSubscription: ({ path, request }) =>
      portalResume(deps(request.log), portalSessionOf(request.subject), Number(path.id)),
    portalReactivateSubscription: ({ path, request }) =>
      portalReactivate(deps(request.log), portalSessionOf(request.subject), Number(path.id)),
    portalUpdatePaymentMethod: ({ path, body, request }) =>
      portalUpdatePaymentMethod(deps(request.log), portalSessionOf(request.subject), Number(path.id), body),
    portalAddCardAndUpdate: ({ path, body, request }) =>
      portalAddCardAndUpdate(deps(request.log), portalSessionOf(request.subject), Number(path.id), body),
    portalSubscriptionEvents: ({ path, request }) =>
      portalEvents(deps(request.log), portalSessionOf(request.subject), Number(path.id)),
    portalUpdateCustomerInfo: ({ body, request }) =>
      portalUpdateCustomerInfo(deps(request.log), portalSessionOf(request.subject), body),
  };
});
