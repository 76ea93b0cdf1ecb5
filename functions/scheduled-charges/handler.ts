import type { DueDeps } from '#shared/domain/scheduled-charges/due';
import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import { once } from '#shared/once';
import { scheduledChargeRoutes } from './routes';

// The group's use cases load on its first request, not at cold start (./use-cases.ts).
const useCases = once(() => import('./use-cases'));

export const handler = createHttpHandler(scheduledChargeRoutes, (c) => {
  // A change is saved before its due job is scheduled, its mail sent or its pix cancelled: those
  // failures are reported and left to the heartbeat's sweep.
  const engine: DueDeps = {
    scheduledCharges: c.repos.scheduledCharges,
    transactions: c.repos.transactions,
    customers: c.repos.customers,
    products: c.repos.products,
    paymentMethods: c.repos.paymentMethods,
    payments: c.payments,
    scheduler: c.scheduler,
    mailer: c.mailer,
    clock: c.clock,
    ids: c.ids,
    baseUrl: c.config.publicBaseUrl,
    reporter: c.reporter,
  };
  const run = async <T>(work: (u: Awaited<ReturnType<typeof useCases>>) => Promise<T>) =>
    work(await useCases());
  return {
    createScheduledCharge: async ({ tenant, body }) =>
      reply(
        201,
        await run((u) =>
          u.createScheduledCharge(
            { ...engine, customerAndProduct: c.repos.customerAndProduct },
            tenant,
            body,
          ),
        ),
      ),
    listScheduledCharges: async ({ tenant, query }) =>
      run((u) => u.listScheduledCharges({ scheduledCharges: c.repos.scheduledCharges }, tenant, query)),
    getScheduledCharge: async ({ tenant, path }) => run((u) => u.getScheduledCharge(engine, tenant, path.id)),
    markScheduledChargePaid: async ({ tenant, path, body }) =>
      run((u) => u.markPaid(engine, tenant, path.id, body)),
    postponeScheduledCharge: async ({ tenant, path, body }) =>
      run((u) => u.postpone(engine, tenant, path.id, body)),
    postponeScheduledChargeUnversioned: async ({ tenant, path, body }) =>
      run((u) => u.postpone(engine, tenant, path.id, body)),
    cancelScheduledCharge: async ({ tenant, path, body }) =>
      run((u) => u.cancelCharge(engine, tenant, path.id, body)),
    setScheduledChargeCancelAtPeriodEnd: async ({ tenant, path }) =>
      run((u) => u.setCancelAtPeriodEnd(engine, tenant, path.id, true)),
    clearScheduledChargeCancelAtPeriodEnd: async ({ tenant, path }) =>
      run((u) => u.setCancelAtPeriodEnd(engine, tenant, path.id, false)),
    pauseScheduledCharge: async ({ tenant, path }) => run((u) => u.pauseCharge(engine, tenant, path.id)),
    resumeScheduledCharge: async ({ tenant, path }) => run((u) => u.resumeCharge(engine, tenant, path.id)),
    updateScheduledCharge: async ({ tenant, path, body }) =>
      run((u) => u.updateCharge(engine, tenant, path.id, body)),
  };
});
