import { previewInstallmentReminder } from '#shared/domain/reminders/installment-preview';
import { optOut, optOutPage } from '#shared/domain/reminders/opt-out';
import {
  deleteChannel,
  deleteCustomerReminderSchedule,
  getCustomerReminderSchedule,
  getReminderChannels,
  getReminderSchedule,
  previewReminder,
  putCustomerReminderSchedule,
  putReminderSchedule,
  putSmsChannel,
  putWhatsappChannel,
} from '#shared/domain/reminders/settings';
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
import { pageReply } from '#shared/http/page-replies';
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
    getReminderSchedule: ({ tenant }) => getReminderSchedule(deps, tenant),
    putReminderSchedule: ({ tenant, body }) => putReminderSchedule(deps, tenant, body),
    previewReminder: ({ tenant, body }) => previewReminder(deps, tenant, body),
    previewInstallmentReminder: ({ tenant, body }) => previewInstallmentReminder(deps, tenant, body),
    getCustomerReminderSchedule: ({ tenant, path }) => getCustomerReminderSchedule(deps, tenant, path.uuid),
    putCustomerReminderSchedule: ({ tenant, path, body }) =>
      putCustomerReminderSchedule(deps, tenant, path.uuid, body),
    deleteCustomerReminderSchedule: ({ tenant, path }) =>
      deleteCustomerReminderSchedule(deps, tenant, path.uuid),
    getReminderChannels: ({ tenant }) => getReminderChannels(deps, tenant),
    putWhatsappChannel: ({ tenant, body }) => putWhatsappChannel(deps, tenant, body),
    putSmsChannel: ({ tenant, body }) => putSmsChannel(deps, tenant, body),
    deleteReminderChannel: ({ tenant, path }) => deleteChannel(deps, tenant, path.channel),
    getReminderOptOutPage: async ({ path }) => pageReply(await optOutPage(deps, path.token)),
    postReminderOptOut: async ({ path }) => pageReply(await optOut(deps, path.token)),
  };
});
