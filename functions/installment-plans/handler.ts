import { cancelInstallmentPlan, reissueInstallment } from '#shared/domain/installment-plans/actions';
import { createInstallmentPlan } from '#shared/domain/installment-plans/create';
import type { InstallmentPlanDeps } from '#shared/domain/installment-plans/deps';
import { markInstallmentPaid } from '#shared/domain/installment-plans/payments';
import { getInstallmentPlan, listInstallmentPlans } from '#shared/domain/installment-plans/queries';
import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import type { Logger } from '#shared/logger';
import { installmentPlanRoutes } from './routes';

export const handler = createHttpHandler(installmentPlanRoutes, (c) => {
  // A change is saved before its due job is scheduled or its replaced boletos canceled: those
  // failures are logged and left to the heartbeat's sweep.
  const engine = (log: Logger): InstallmentPlanDeps => ({
    installmentPlans: c.repos.installmentPlans,
    transactions: c.repos.transactions,
    customers: c.repos.customers,
    products: c.repos.products,
    affiliations: c.repos.affiliations,
    payments: c.payments,
    scheduler: c.scheduler,
    mailer: c.mailer,
    clock: c.clock,
    ids: c.ids,
    onScheduleError: (error) => log.error('could not schedule an installment plan job', { error }),
    onCancelError: (error) => log.error('could not cancel a replaced or unpaid boleto', { error }),
  });
  return {
    createInstallmentPlan: async ({ tenant, body, request }) =>
      reply(201, await createInstallmentPlan(engine(request.log), tenant, body)),
    listInstallmentPlans: ({ tenant, query, request }) =>
      listInstallmentPlans(engine(request.log), tenant, query),
    getInstallmentPlan: ({ tenant, path, request }) =>
      getInstallmentPlan(engine(request.log), tenant, path.uuid),
    markInstallmentPaid: ({ tenant, path, request }) =>
      markInstallmentPaid(engine(request.log), tenant, path.uuid, path.number),
    reissueInstallment: ({ tenant, path, body, request }) =>
      reissueInstallment(engine(request.log), tenant, path.uuid, path.number, body ?? {}),
    cancelInstallmentPlan: ({ tenant, path, request }) =>
      cancelInstallmentPlan(engine(request.log), tenant, path.uuid),
  };
});
