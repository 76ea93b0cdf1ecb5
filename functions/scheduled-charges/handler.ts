import type { DueDeps } from '#shared/domain/scheduled-charges/due';
import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import type { Logger } from '#shared/logger';
import { once } from '#shared/once';
import { scheduledChargeRoutes } from './routes';

// The group's use cases load on its first request, not at cold start (./use-cases.ts).
const useCases = once(() => import('./use-cases'));

export const handler = createHttpHandler(scheduledChargeRoutes, (c) => {
  // A change is saved before its due job is scheduled, its mail sent or its pix cancelled: those
  // failures are logged and left to the heartbeat's sweep.
  const engine = (log: Logger): DueDeps => ({
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
    onScheduleError: (error) => log.error('could not schedule a scheduled-charge job', { error }),
    onMailError: (error) => log.error('could not send a scheduled-charge reminder', { error }),
    onDueError: (error, id) => log.error('could not run a scheduled-charge step', { error, id }),
  });
  const actions = (log: Logger) => ({
    ...engine(log),
    onCancelError: (error: unknown) => log.error('could not cancel an issued pix or boleto', { error }),
  });
  const run = async <T>(work: (u: Awaited<ReturnType<typeof useCases>>) => Promise<T>) =>
    work(await useCases());
  return {
    createScheduledCharge: async ({ tenant, body, request }) => {
      const onAdvanceError = (error: unknown) =>
        request.log.error('could not issue a new scheduled charge now; the due job will', { error });
      return reply(
        201,
        await run((u) =>
          u.createScheduledCharge(
            { ...engine(request.log), customerAndProduct: c.repos.customerAndProduct },
            tenant,
            body,
            onAdvanceError,
          ),
        ),
      );
    },
    listScheduledCharges: async ({ tenant, query }) =>
      run((u) => u.listScheduledCharges({ scheduledCharges: c.repos.scheduledCharges }, tenant, query)),
    getScheduledCharge: async ({ tenant, path, request }) =>
      run((u) => u.getScheduledCharge(engine(request.log), tenant, path.id)),
    markScheduledChargePaid: async ({ tenant, path, body, request }) =>
      run((u) => u.markPaid(actions(request.log), tenant, path.id, body)),
    postponeScheduledCharge: async ({ tenant, path, body, request }) =>
      run((u) => u.postpone(actions(request.log), tenant, path.id, body)),
    postponeScheduledChargeUnversioned: async ({ tenant, path, body, request }) =>
      run((u) => u.postpone(actions(request.log), tenant, path.id, body)),
    cancelScheduledCharge: async ({ tenant, path, body, request }) =>
      run((u) => u.cancelCharge(actions(request.log), tenant, path.id, body)),
    setScheduledChargeCancelAtPeriodEnd: async ({ tenant, path, request }) =>
      run((u) => u.setCancelAtPeriodEnd(actions(request.log), tenant, path.id, true)),
    clearScheduledChargeCancelAtPeriodEnd: async ({ tenant, path, request }) =>
      run((u) => u.setCancelAtPeriodEnd(actions(request.log), tenant, path.id, false)),
    pauseScheduledCharge: async ({ tenant, path, request }) =>
      run((u) => u.pauseCharge(actions(request.log), tenant, path.id)),
    resumeScheduledCharge: async ({ tenant, path, request }) =>
      run((u) => u.resumeCharge(actions(request.log), tenant, path.id)),
    updateScheduledCharge: async ({ tenant, path, body, request }) =>
      run((u) => u.updateCharge(actions(request.log), tenant, path.id, body)),
  };
});
