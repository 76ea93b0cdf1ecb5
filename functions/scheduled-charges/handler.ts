import {
  cancelCharge,
  markPaid,
  pauseCharge,
  postpone,
  resumeCharge,
  setCancelAtPeriodEnd,
  updateCharge,
} from '#shared/domain/scheduled-charges/actions';
import { createScheduledCharge } from '#shared/domain/scheduled-charges/create';
import type { DueDeps } from '#shared/domain/scheduled-charges/due';
import { getScheduledCharge, listScheduledCharges } from '#shared/domain/scheduled-charges/queries';
import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import type { Logger } from '#shared/logger';
import { scheduledChargeRoutes } from './routes';

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
  return {
    createScheduledCharge: async ({ tenant, body, request }) => {
      const onAdvanceError = (error: unknown) =>
        request.log.error('could not issue a new scheduled charge now; the due job will', { error });
      return reply(201, await createScheduledCharge(engine(request.log), tenant, body, onAdvanceError));
    },
    listScheduledCharges: ({ tenant, query }) =>
      listScheduledCharges({ scheduledCharges: c.repos.scheduledCharges }, tenant, query),
    getScheduledCharge: ({ tenant, path, request }) =>
      getScheduledCharge(engine(request.log), tenant, path.id),
    markScheduledChargePaid: ({ tenant, path, body, request }) =>
      markPaid(actions(request.log), tenant, path.id, body),
    postponeScheduledCharge: ({ tenant, path, body, request }) =>
      postpone(actions(request.log), tenant, path.id, body),
    postponeScheduledChargeUnversioned: ({ tenant, path, body, request }) =>
      postpone(actions(request.log), tenant, path.id, body),
    cancelScheduledCharge: ({ tenant, path, body, request }) =>
      cancelCharge(actions(request.log), tenant, path.id, body),
    setScheduledChargeCancelAtPeriodEnd: ({ tenant, path, request }) =>
      setCancelAtPeriodEnd(actions(request.log), tenant, path.id, true),
    clearScheduledChargeCancelAtPeriodEnd: ({ tenant, path, request }) =>
      setCancelAtPeriodEnd(actions(request.log), tenant, path.id, false),
    pauseScheduledCharge: ({ tenant, path, request }) => pauseCharge(actions(request.log), tenant, path.id),
    resumeScheduledCharge: ({ tenant, path, request }) => resumeCharge(actions(request.log), tenant, path.id),
    updateScheduledCharge: ({ tenant, path, body, request }) =>
      updateCharge(actions(request.log), tenant, path.id, body),
  };
});
