import * as z from 'zod';

/**
 * The reminder schedule ("régua de cobrança"): steps at a number of days from a charge's due date,
 * each on some channels with its own Portuguese template. A seller sets one; a customer may have
 * an override; the default is the stages the service always sent (3 days before, the due date, 1,
 * 3 and 7 days after, by e-mail). docs/decisions.md, "Reminder schedule and channels".
 */

export const REMINDER_CHANNELS = ['email', 'whatsapp', 'sms'] as const;
export type ReminderChannel = (typeof REMINDER_CHANNELS)[number];

/**
 * Steps from 30 days before to 60 days after the due date (a pix stays payable 29 days after it;
 * a step past 60 days reminds of a charge the seller has long written off), at most 10 of them.
 */
export const SCHEDULE_LIMITS = {
  minOffsetDays: -30,
  maxOffsetDays: 60,
  maxSteps: 10,
  subjectLength: 150,
  bodyLength: 1000,
  whatsappTemplateLength: 512,
} as const;

/**
 * What a template may say: `{{empresa}}` the seller's business name, `{{cliente}}` the customer's
 * name, `{{referente}}` what the charge is for (the product or the description), `{{valor}}` the amount due on the day the message is sent, `{{vencimento}}` the due date,
 * `{{link}}` the pay link, `{{linha_digitavel}}` the boleto's line, `{{pix_copia_e_cola}}` the pix
 * code (both empty when not issued), `{{descadastro}}` the link that stops the channel.
 */
export const PLACEHOLDERS = [
  'empresa',
  'cliente',
  'referente',
  'valor',
  'vencimento',
  'link',
  'linha_digitavel',
  'pix_copia_e_cola',
  'descadastro',
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;

/** The placeholders a template uses, in order of first use. */
export function placeholdersOf(template: string): string[] {
  const seen: string[] = [];
  for (const m of template.matchAll(PLACEHOLDER)) if (!seen.includes(m[1])) seen.push(m[1]);
  return seen;
}

export interface ReminderStep {
  /** Days from the due date: negative before it, 0 on it, positive after it. */
  offsetDays: number;
  channels: ReminderChannel[];
  /** The e-mail's subject. */
  subject: string;
  /** The message: the e-mail's text (and its HTML, escaped), the SMS, the WhatsApp template's body. */
  body: string;
  /** The name of the seller's approved WhatsApp template this step sends (required with whatsapp). */
  whatsappTemplate: string | null;
}

export interface ReminderSchedule {
  steps: ReminderStep[];
}

/** A step's key on a cycle's `remindersSent`: `before_3`, `due`, `after_1`… (the stages' own names). */
export const stepKey = (offsetDays: number) =>
  offsetDays < 0 ? `before_${-offsetDays}` : offsetDays === 0 ? 'due' : `after_${offsetDays}`;

const DETAILS =
  'Referente a: {{referente}}\nValor: {{valor}}\nVencimento: {{vencimento}}\nPagar agora: {{link}}\n' +
  'Linha digitável do boleto: {{linha_digitavel}}\nPix copia e cola: {{pix_copia_e_cola}}\n\n' +
  'Se você já pagou, desconsidere esta mensagem.';
const emailStep = (offsetDays: number, subject: string, intro: string): ReminderStep => ({
  offsetDays,
  channels: ['email'],
  subject,
  body: `Olá, {{cliente}}!\n\n${intro}\n\n${DETAILS}`,
  whatsappTemplate: null,
});

/** The stages sent before schedules could be set: the default of every seller. */
export const DEFAULT_SCHEDULE: ReminderSchedule = {
  steps: [
    emailStep(
      -3,
      'Sua cobrança vence em {{vencimento}}: {{referente}}',
      'Lembrete: a cobrança de {{empresa}} vence em {{vencimento}}.',
    ),
    emailStep(
      0,
      'Sua cobrança vence hoje: {{referente}}',
      'A cobrança de {{empresa}} vence hoje, {{vencimento}}.',
    ),
    emailStep(
      1,
      'Cobrança vencida: {{referente}}',
      'A cobrança de {{empresa}} venceu em {{vencimento}} e ainda não identificamos o pagamento.',
    ),
    emailStep(
      3,
      'Cobrança vencida há 3 dias: {{referente}}',
      'A cobrança de {{empresa}} venceu em {{vencimento}} e continua em aberto.',
    ),
    emailStep(
      7,
      'Cobrança vencida há 7 dias: {{referente}}',
      'A cobrança de {{empresa}} venceu em {{vencimento}} e continua em aberto. Regularize assim que possível.',
    ),
  ],
};

export const DEFAULT_OFFSETS = DEFAULT_SCHEDULE.steps.map((s) => s.offsetDays);

const templateText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .min(1, `${field} must not be empty`)
    .max(max, `${field} must be at most ${max} characters`);

const stepSchema = z
  .strictObject({
    offsetDays: z
      .number({ error: 'offsetDays must be a whole number' })
      .int('offsetDays must be a whole number')
      .min(SCHEDULE_LIMITS.minOffsetDays, `offsetDays must be ${SCHEDULE_LIMITS.minOffsetDays} or more`)
      .max(SCHEDULE_LIMITS.maxOffsetDays, `offsetDays must be ${SCHEDULE_LIMITS.maxOffsetDays} or less`)
      .describe('Days from the due date: negative before it, 0 on it, positive after it'),
    channels: z
      .array(z.enum(REMINDER_CHANNELS, { error: 'channels must be email, whatsapp or sms' }))
      .min(1, 'channels must name at least one channel')
      .refine((c) => new Set(c).size === c.length, 'channels must not repeat a channel'),
    subject: templateText('subject', SCHEDULE_LIMITS.subjectLength).describe('The e-mail subject'),
    body: templateText('body', SCHEDULE_LIMITS.bodyLength).describe(
      `The message, in Portuguese; placeholders ${PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}`,
    ),
    whatsappTemplate: z
      .string()
      .regex(/^[a-z0-9_]{1,512}$/, 'whatsappTemplate must be an approved template name (a-z, 0-9, _)')
      .nullish()
      .describe("The seller's approved WhatsApp template (named parameters as the body's placeholders)"),
  })
  .superRefine((step, ctx) => {
    for (const field of ['subject', 'body'] as const) {
      const unknown = placeholdersOf(step[field]).filter(
        (p) => !(PLACEHOLDERS as readonly string[]).includes(p),
      );
      if (unknown.length > 0)
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `${field} has unknown placeholders: ${unknown.map((p) => `{{${p}}}`).join(', ')}`,
        });
    }
    if (step.channels.includes('whatsapp') && !step.whatsappTemplate)
      ctx.addIssue({
        code: 'custom',
        path: ['whatsappTemplate'],
        message: 'whatsappTemplate is required when channels include whatsapp',
      });
    if (step.channels.includes('whatsapp') && !placeholdersOf(step.body).includes('descadastro'))
      ctx.addIssue({
        code: 'custom',
        path: ['body'],
        message: 'body must include {{descadastro}} when channels include whatsapp (the opt-out link)',
      });
  });

/** PUT /api/reminder-schedule and the customer override: the whole schedule. */
export const reminderScheduleSchema = z
  .strictObject({
    steps: z
      .array(stepSchema)
      .max(SCHEDULE_LIMITS.maxSteps, `steps must have at most ${SCHEDULE_LIMITS.maxSteps} steps`)
      .describe('The steps; an empty list sends no reminder'),
  })
  .superRefine((s, ctx) => {
    const offsets = s.steps.map((step) => step.offsetDays);
    offsets.forEach((o, i) => {
      if (offsets.indexOf(o) !== i)
        ctx.addIssue({
          code: 'custom',
          path: ['steps', i, 'offsetDays'],
          message: 'offsetDays must be unique within the schedule',
        });
    });
  })
  .transform(
    (s): ReminderSchedule => ({
      steps: [...s.steps]
        .sort((a, b) => a.offsetDays - b.offsetDays)
        .map((step) => ({ ...step, whatsappTemplate: step.whatsappTemplate ?? null })),
    }),
  );

/** The schedule a customer's charges follow: the customer's override, else the seller's, else the default. */
export const resolveSchedule = (
  seller: ReminderSchedule | null,
  customer: ReminderSchedule | null,
): ReminderSchedule => customer ?? seller ?? DEFAULT_SCHEDULE;

export const offsetsOf = (schedule: ReminderSchedule) => schedule.steps.map((s) => s.offsetDays);

/** `resource` with `offsets`, the same object when they are already its own (nothing to write). */
export function withOffsets<T extends { reminderOffsets: number[] | null }>(
  resource: T,
  offsets: number[] | null,
): T {
  const same =
    resource.reminderOffsets === offsets ||
    (resource.reminderOffsets !== null &&
      offsets !== null &&
      resource.reminderOffsets.length === offsets.length &&
      resource.reminderOffsets.every((o, i) => o === offsets[i]));
  return same ? resource : { ...resource, reminderOffsets: offsets };
}
