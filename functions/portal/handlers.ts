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
import { portalRoutes } from './routes';

usePortalTokens();

export const group = defineHandlers(portalRoutes, ({ deps }) => {
  // Reports that never fail the customer's action: the action is done when they happen.
  return {
    createPortalSession: async ({ tenant, body }) =>
      reply(201, await createPortalSession(deps, tenant, body)),
    getPortal: ({ request }) => getPortal(deps, portalSessionOf(request.subject)),
    portalCancelSubscription: ({ path, body, request }) =>
      portalCancel(deps, portalSessionOf(request.subject), Number(path.id), body),
    portalPauseSubscription: ({ path, request }) =>
      portalPause(deps, portalSessionOf(request.subject), Number(path.id)),
    portalResumeSubscription: ({ path, request }) =>
      portalResume(deps, portalSessionOf(request.subject), Number(path.id)),
    portalReactivateSubscription: ({ path, request }) =>
      portalReactivate(deps, portalSessionOf(request.subject), Number(path.id)),
    portalUpdatePaymentMethod: ({ path, body, request }) =>
      portalUpdatePaymentMethod(deps, portalSessionOf(request.subject), Number(path.id), body),
    portalAddCardAndUpdate: ({ path, body, request }) =>
      portalAddCardAndUpdate(
        { ...deps, buyerIp: request.sourceIp },
        portalSessionOf(request.subject),
        Number(path.id),
        body,
        { ip: request.sourceIp, proof: request.headers[PROOF_HEADER] },
      ),
    portalSubscriptionEvents: ({ path, request }) =>
      portalEvents(deps, portalSessionOf(request.subject), Number(path.id)),
    portalUpdateCustomerInfo: ({ body, request }) =>
      portalUpdateCustomerInfo(deps, portalSessionOf(request.subject), body),
  };
});
