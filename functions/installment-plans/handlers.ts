import { cancelInstallmentPlan, reissueInstallment } from '#shared/domain/installment-plans/actions';
import { createInstallmentPlan } from '#shared/domain/installment-plans/create';
import { markInstallmentPaid } from '#shared/domain/installment-plans/payments';
import { getInstallmentPlan, listInstallmentPlans } from '#shared/domain/installment-plans/queries';
import { defineHandlers } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import { installmentPlanRoutes } from './routes';

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
  };
});
