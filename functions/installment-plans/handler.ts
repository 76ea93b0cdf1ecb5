import type { InstallmentPlanDeps } from '#shared/domain/installment-plans/deps';
import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import type { Logger } from '#shared/logger';
import { installmentPlanRoutes } from './routes';

// Use cases load on their route's first request, not at cold start (docs/decisions.md, "Cold start").
const installmentPlansActions = () => import('#shared/domain/installment-plans/actions');
const installmentPlansCreate = () => import('#shared/domain/installment-plans/create');
const installmentPlansPayments = () => import('#shared/domain/installment-plans/payments');
const installmentPlansQueries = () => import('#shared/domain/installment-plans/queries');

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
        await (await installmentPlansCreate()).createInstallmentPlan(engine(request.log), tenant, body),
      ),
    listInstallmentPlans: async ({ tenant, query, request }) =>
      (await installmentPlansQueries()).listInstallmentPlans(engine(request.log), tenant, query),
    getInstallmentPlan: async ({ tenant, path, request }) =>
      (await installmentPlansQueries()).getInstallmentPlan(engine(request.log), tenant, path.uuid),
    markInstallmentPaid: async ({ tenant, path, request }) =>
      (await installmentPlansPayments()).markInstallmentPaid(
        engine(request.log),
        tenant,
        path.uuid,
        path.number,
      ),
    reissueInstallment: async ({ tenant, path, body, request }) =>
      (await installmentPlansActions()).reissueInstallment(
        engine(request.log),
        tenant,
        path.uuid,
        path.number,
        body ?? {},
      ),
    cancelInstallmentPlan: async ({ tenant, path, request }) =>
      (await installmentPlansActions()).cancelInstallmentPlan(engine(request.log), tenant, path.uuid),
  };
});
