import { PROOF_HEADER } from '#shared/domain/card-testing/proof-of-work';
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
import { defineHandlers } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import type { Logger } from '#shared/logger';
import { portalRoutes } from './routes';

usePortalTokens();

export const group = defineHandlers(portalRoutes, ({ deps }) => {
  // Reports that never fail the customer's action: the action is done when they happen.
  const logged = (log: Logger) => ({
    ...deps,
    onScheduleError: (error: unknown) => log.error('could not schedule subscription work', { error }),
    onMailError: (error: unknown, kind: string) =>
      log.error('could not send a portal e-mail', { error, kind }),
  });
  return {
    createPortalSession: async ({ tenant, body }) =>
      reply(201, await createPortalSession(deps, tenant, body)),
    getPortal: ({ request }) => getPortal(deps, portalSessionOf(request.subject)),
    portalCancelSubscription: ({ path, body, request }) =>
      portalCancel(logged(request.log), portalSessionOf(request.subject), Number(path.id), body),
    portalPauseSubscription: ({ path, request }) =>
      portalPause(logged(request.log), portalSessionOf(request.subject), Number(path.id)),
    portalResumeSubscription: ({ path, request }) =>
      portalResume(logged(request.log), portalSessionOf(request.subject), Number(path.id)),
    portalReactivateSubscription: ({ path, request }) =>
      portalReactivate(logged(request.log), portalSessionOf(request.subject), Number(path.id)),
    portalUpdatePaymentMethod: ({ path, body, request }) =>
      portalUpdatePaymentMethod(logged(request.log), portalSessionOf(request.subject), Number(path.id), body),
    portalAddCardAndUpdate: ({ path, body, request }) =>
      portalAddCardAndUpdate(
        { ...logged(request.log), buyerIp: request.sourceIp },
        portalSessionOf(request.subject),
        Number(path.id),
        body,
        { ip: request.sourceIp, proof: request.headers[PROOF_HEADER] },
      ),
    portalSubscriptionEvents: ({ path, request }) =>
      portalEvents(logged(request.log), portalSessionOf(request.subject), Number(path.id)),
    portalUpdateCustomerInfo: ({ body, request }) =>
      portalUpdateCustomerInfo(logged(request.log), portalSessionOf(request.subject), body),
  };
});
