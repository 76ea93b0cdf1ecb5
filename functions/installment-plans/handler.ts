import type { InstallmentPlanDeps } from '#shared/domain/installment-plans/deps';
import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import { once } from '#shared/once';
import { installmentPlanRoutes } from './routes';

// The group's use cases load on its first request, not at cold start (./use-cases.ts).
const useCases = once(() => import('./use-cases'));

export const handler = createHttpHandler(installmentPlanRoutes, (c) => {
  // A change is saved before its due job is scheduled or its replaced boletos canceled: those
  // failures are reported and left to the heartbeat's sweep.
  const engine: InstallmentPlanDeps = {
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
    reporter: c.reporter,
  };
  return {
    createInstallmentPlan: async ({ tenant, body }) =>
      reply(
        201,
        await (await useCases()).createInstallmentPlan(
          { ...engine, customerAndProduct: c.repos.customerAndProduct },
          tenant,
          body,
        ),
      ),
    listInstallmentPlans: async ({ tenant, query }) =>
      (await useCases()).listInstallmentPlans(engine, tenant, query),
    getInstallmentPlan: async ({ tenant, path }) =>
      (await useCases()).getInstallmentPlan(engine, tenant, path.uuid),
    markInstallmentPaid: async ({ tenant, path }) =>
      (await useCases()).markInstallmentPaid(engine, tenant, path.uuid, path.number),
    reissueInstallment: async ({ tenant, path, body }) =>
      (await useCases()).reissueInstallment(engine, tenant, path.uuid, path.number, body ?? {}),
    cancelInstallmentPlan: async ({ tenant, path }) =>
      (await useCases()).cancelInstallmentPlan(engine, tenant, path.uuid),
  };
});
