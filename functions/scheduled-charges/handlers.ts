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
import { getScheduledCharge, listScheduledCharges } from '#shared/domain/scheduled-charges/queries';
import { defineHandlers } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import type { Logger } from '#shared/logger';
import { scheduledChargeRoutes } from './routes';

export const group = defineHandlers(scheduledChargeRoutes, ({ deps }) => {
  // A change is saved before its due job is scheduled, its mail sent or its pix cancelled: those
  // failures are logged and left to the heartbeat's sweep.
  const logged = (log: Logger) => ({
    ...deps,
    onScheduleError: (error: unknown) => log.error('could not schedule a scheduled-charge job', { error }),
    onMailError: (error: unknown) => log.error('could not send a scheduled-charge reminder', { error }),
    onDueError: (error: unknown, id: string) =>
      log.error('could not run a scheduled-charge step', { error, id }),
    onCancelError: (error: unknown) => log.error('could not cancel an issued pix or boleto', { error }),
  });
  return {
    createScheduledCharge: async ({ tenant, body, request }) => {
      const onAdvanceError = (error: unknown) =>
        request.log.error('could not issue a new scheduled charge now; the due job will', { error });
      return reply(201, await createScheduledCharge(logged(request.log), tenant, body, onAdvanceError));
    },
    listScheduledCharges: ({ tenant, query }) => listScheduledCharges(deps, tenant, query),
    getScheduledCharge: ({ tenant, path, request }) =>
      getScheduledCharge(logged(request.log), tenant, path.id),
    markScheduledChargePaid: ({ tenant, path, body, request }) =>
      markPaid(logged(request.log), tenant, path.id, body),
    postponeScheduledCharge: ({ tenant, path, body, request }) =>
      postpone(logged(request.log), tenant, path.id, body),
    postponeScheduledChargeUnversioned: ({ tenant, path, body, request }) =>
      postpone(logged(request.log), tenant, path.id, body),
    cancelScheduledCharge: ({ tenant, path, body, request }) =>
      cancelCharge(logged(request.log), tenant, path.id, body),
    setScheduledChargeCancelAtPeriodEnd: ({ tenant, path, request }) =>
      setCancelAtPeriodEnd(logged(request.log), tenant, path.id, true),
    clearScheduledChargeCancelAtPeriodEnd: ({ tenant, path, request }) =>
      setCancelAtPeriodEnd(logged(request.log), tenant, path.id, false),
    pauseScheduledCharge: ({ tenant, path, request }) => pauseCharge(logged(request.log), tenant, path.id),
    resumeScheduledCharge: ({ tenant, path, request }) => resumeCharge(logged(request.log), tenant, path.id),
    updateScheduledCharge: ({ tenant, path, body, request }) =>
      updateCharge(logged(request.log), tenant, path.id, body),
  };
});
