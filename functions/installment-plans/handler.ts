import type { InstallmentPlanDeps } from '#shared/domain/installment-plans/deps';
import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import type { Logger } from '#shared/logger';
import { once } from '#shared/once';
import { installmentPlanRoutes } from './routes';

// The group's use cases load on its first request, not at cold start (./use-cases.ts).
const useCases = once(() => import('./use-cases'));

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
      reply(
        201,
        await (await useCases()).createInstallmentPlan(
          { ...engine(request.log), customerAndProduct: c.repos.customerAndProduct },
          tenant,
          body,
        ),
      ),
    listInstallmentPlans: async ({ tenant, query, request }) =>
      (await useCases()).listInstallmentPlans(engine(request.log), tenant, query),
    getInstallmentPlan: async ({ tenant, path, request }) =>
      (await useCases()).getInstallmentPlan(engine(request.log), tenant, path.uuid),
    markInstallmentPaid: async ({ tenant, path, request }) =>
      (await useCases()).markInstallmentPaid(engine(request.log), tenant, path.uuid, path.number),
    reissueInstallment: async ({ tenant, path, body, request }) =>
      (await useCases()).reissueInstallment(engine(request.log), tenant, path.uuid, path.number, body ?? {}),
    cancelInstallmentPlan: async ({ tenant, path, request }) =>
      (await useCases()).cancelInstallmentPlan(engine(request.log), tenant, path.uuid),
  };
});
