import * as z from 'zod';
import { REMINDER_CHANNELS, SCHEDULE_LIMITS } from './schedule';

const step = z.object({
  offsetDays: z.number().int(),
  channels: z.array(z.enum(REMINDER_CHANNELS)),
  subject: z.string(),
  body: z.string(),
  whatsappTemplate: z.string().nullable(),
});

export const reminderScheduleResponse = z
  .object({
    source: z.enum(['default', 'seller', 'customer']).describe('Where the schedule comes from'),
    steps: z.array(step),
    limits: z.object({
      minOffsetDays: z.literal(SCHEDULE_LIMITS.minOffsetDays),
      maxOffsetDays: z.literal(SCHEDULE_LIMITS.maxOffsetDays),
      maxSteps: z.literal(SCHEDULE_LIMITS.maxSteps),
      subjectLength: z.number(),
      bodyLength: z.number(),
      whatsappTemplateLength: z.number(),
    }),
  })
  .meta({ id: 'ReminderSchedule' });

export const customerReminderScheduleResponse = reminderScheduleResponse
  .extend({ optedOut: z.array(z.enum(REMINDER_CHANNELS)).describe('Channels the customer stopped') })
  .meta({ id: 'CustomerReminderSchedule' });

export const reminderChannelsResponse = z
  .object({
    email: z.object({ enabled: z.boolean() }),
    whatsapp: z.object({
      enabled: z.boolean(),
      phoneNumberId: z.string().optional(),
      accessTokenLast4: z.string().optional().describe('The token itself is never shown'),
      language: z.string().optional(),
    }),
    sms: z.object({ enabled: z.boolean(), originationIdentity: z.string().optional() }),
  })
  .meta({ id: 'ReminderChannels' });

export const reminderPreviewResponse = z
  .object({
    step,
    cycleNumber: z.number().int(),
    sendDate: z.string().describe('The Sao Paulo day the step goes out (today when that day has passed)'),
    amountDue: z.number().describe('Reais: the amount due on sendDate'),
    email: z.object({ to: z.string(), subject: z.string(), text: z.string(), html: z.string() }).nullable(),
    whatsapp: z
      .object({
        to: z.string().nullable(),
        template: z.string().nullable(),
        parameters: z.array(z.object({ name: z.string(), value: z.string() })),
        text: z.string(),
      })
      .nullable(),
    sms: z.object({ to: z.string().nullable(), text: z.string() }).nullable(),
  })
  .meta({ id: 'ReminderPreview' });

export const installmentReminderPreviewResponse = reminderPreviewResponse
  .omit({ cycleNumber: true })
  .extend({ installment: z.number().int().describe('The installment rendered') })
  .meta({ id: 'InstallmentReminderPreview' });
