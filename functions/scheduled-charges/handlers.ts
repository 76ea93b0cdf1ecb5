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
import { scheduledChargeRoutes } from './routes';

export const group = defineHandlers(scheduledChargeRoutes, ({ deps }) => {
  // A change is saved before its due job is scheduled, its mail sent or its pix cancelled: those
  // failures are logged and left to the heartbeat's sweep.
  return {
    createScheduledCharge: async ({ tenant, body }) =>
      reply(201, await createScheduledCharge(deps, tenant, body)),
    listScheduledCharges: ({ tenant, query }) => listScheduledCharges(deps, tenant, query),
    getScheduledCharge: ({ tenant, path }) => getScheduledCharge(deps, tenant, path.id),
    markScheduledChargePaid: ({ tenant, path, body }) => markPaid(deps, tenant, path.id, body),
    postponeScheduledCharge: ({ tenant, path, body }) => postpone(deps, tenant, path.id, body),
    postponeScheduledChargeUnversioned: ({ tenant, path, body }) => postpone(deps, tenant, path.id, body),
    cancelScheduledCharge: ({ tenant, path, body }) => cancelCharge(deps, tenant, path.id, body),
    setScheduledChargeCancelAtPeriodEnd: ({ tenant, path }) =>
      setCancelAtPeriodEnd(deps, tenant, path.id, true),
    clearScheduledChargeCancelAtPeriodEnd: ({ tenant, path }) =>
      setCancelAtPeriodEnd(deps, tenant, path.id, false),
    pauseScheduledCharge: ({ tenant, path }) => pauseCharge(deps, tenant, path.id),
    resumeScheduledCharge: ({ tenant, path }) => resumeCharge(deps, tenant, path.id),
    updateScheduledCharge: ({ tenant, path, body }) => updateCharge(deps, tenant, path.id, body),
  };
});
