import { cancelInstallmentPlan, reissueInstallment } from '#shared/domain/installment-plans/actions';
import {
  publicBooklet,
  revokeBooklet,
  sellerBooklet,
  shareBooklet,
} from '#shared/domain/installment-plans/booklet';
import { createInstallmentPlan } from '#shared/domain/installment-plans/create';
import { markInstallmentPaid } from '#shared/domain/installment-plans/payments';
import { getInstallmentPlan, listInstallmentPlans } from '#shared/domain/installment-plans/queries';
import { defineHandlers } from '#shared/http/pipeline';
import { rawReply, reply } from '#shared/http/types';
import { installmentPlanRoutes } from './routes';

/** Read in the browser's viewer; never cached (a revoked link must stop at once); the token never leaks as a Referer. */
const BOOKLET_HEADERS = {
  'content-disposition': 'inline; filename="carne.pdf"',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

export const group = defineHandlers(installmentPlanRoutes, ({ deps }) => {
  // A change is saved before its due job is scheduled or its replaced boletos canceled: those
  // failures are logged and left to the heartbeat's sweep.
  return {
    createInstallmentPlan: async ({ tenant, body }) =>
      reply(201, await createInstallmentPlan(deps, tenant, body)),
    listInstallmentPlans: ({ tenant, query }) => listInstallmentPlans(deps, tenant, query),
    getInstallmentPlan: ({ tenant, path }) => getInstallmentPlan(deps, tenant, path.uuid),
    markInstallmentPaid: ({ tenant, path }) => markInstallmentPaid(deps, tenant, path.uuid, path.number),
    reissueInstallment: ({ tenant, path, body }) =>
      reissueInstallment(deps, tenant, path.uuid, path.number, body ?? {}),
    cancelInstallmentPlan: ({ tenant, path }) => cancelInstallmentPlan(deps, tenant, path.uuid),
    getInstallmentPlanBooklet: async ({ tenant, path }) =>
      rawReply('application/pdf', await sellerBooklet(deps, tenant, path.uuid), 200, BOOKLET_HEADERS),
    shareInstallmentPlanBooklet: ({ tenant, path }) => shareBooklet(deps, tenant, path.uuid),
    revokeInstallmentPlanBooklet: ({ tenant, path }) => revokeBooklet(deps, tenant, path.uuid),
    getPublicBooklet: async ({ path }) =>
      rawReply('application/pdf', await publicBooklet(deps, path.token), 200, BOOKLET_HEADERS),
  };
});
