import { cancelInstallmentPlan, reissueInstallment } from '#shared/domain/installment-plans/actions';
import { createInstallmentPlan } from '#shared/domain/installment-plans/create';
import { markInstallmentPaid } from '#shared/domain/installment-plans/payments';
import { getInstallmentPlan, listInstallmentPlans } from '#shared/domain/installment-plans/queries';
import { defineHandlers } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import type { Logger } from '#shared/logger';
import { installmentPlanRoutes } from './routes';

export const group = defineHandlers(installmentPlanRoutes, ({ deps }) => {
  // A change is saved before its due job is scheduled or its replaced boletos canceled: those
  // failures are logged and left to the heartbeat's sweep.
  const logged = (log: Logger) => ({
    ...deps,
    onScheduleError: (error: unknown) => log.error('could not schedule an installment plan job', { error }),
    onCancelError: (error: unknown) => log.error('could not cancel a replaced or unpaid boleto', { error }),
  });
  return {
    createInstallmentPlan: async ({ tenant, body, request }) =>
      reply(201, await createInstallmentPlan(logged(request.log), tenant, body)),
    listInstallmentPlans: ({ tenant, query }) => listInstallmentPlans(deps, tenant, query),
    getInstallmentPlan: ({ tenant, path }) => getInstallmentPlan(deps, tenant, path.uuid),
    markInstallmentPaid: ({ tenant, path, request }) =>
      markInstallmentPaid(logged(request.log), tenant, path.uuid, path.number),
    reissueInstallment: ({ tenant, path, body, request }) =>
      reissueInstallment(logged(request.log), tenant, path.uuid, path.number, body ?? {}),
    cancelInstallmentPlan: ({ tenant, path, request }) =>
      cancelInstallmentPlan(logged(request.log), tenant, path.uuid),
  };
});
