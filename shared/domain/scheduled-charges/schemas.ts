import * as z from 'zod';
import { isCalendarDate } from '#shared/dates';
import { pageFields } from '#shared/domain/paging';
import { lateChargeFields } from '#shared/domain/payments/late-charge-settings';
import { methodField } from '#shared/domain/payments/method-names';
import { MIN_PRICE_CENTAVOS } from '#shared/domain/products/products';
import { UUID_SHAPE } from '#shared/ids';
import { reaisField } from '#shared/money-field';
import { textField } from '#shared/validation';
import { CHARGE_METHODS, CHARGE_STATUSES, CHARGE_TYPES, RECURRENCE_INTERVALS } from './charge';

/** Numeric ids stay far below 15 digits (the counters); larger numbers name nothing. */
const MAX_ID = 999_999_999_999_999;
export const MAX_DESCRIPTION = 500;
export const MAX_EXTERNAL_REFERENCE = 255;
export const MAX_TRIAL_DAYS = 365;
export const MAX_CYCLES = 360;

const required = (field: string, what: string) => (issue: { input: unknown }) =>
  issue.input === undefined ? `${field} is required` : `${field} must be ${what}`;

/** YYYY-MM-DD, a real calendar day; the today-or-later rules need the clock and live in the use cases. */
export const dateField = (field: string) =>
  z
    .string({ error: required(field, 'a date YYYY-MM-DD') })
    .refine(isCalendarDate, `${field} must be a date YYYY-MM-DD`);

const intField = (field: string, min: number, max: number) =>
  z
    .number({ error: required(field, `an integer from ${min} to ${max}`) })
    .int(`${field} must be an integer from ${min} to ${max}`)
    .min(min, `${field} must be an integer from ${min} to ${max}`)
    .max(max, `${field} must be an integer from ${min} to ${max}`);

/** Spec: at least 5.00, as a subscription price. */
const amountField = reaisField('amount').refine((c) => c >= MIN_PRICE_CENTAVOS, 'amount must be at least 5');

const recurrenceSchema = z
  .object({
    interval: z.enum(RECURRENCE_INTERVALS, {
      error: required('recurrence.interval', `one of: ${RECURRENCE_INTERVALS.join(', ')}`),
    }),
    intervalCount: intField('recurrence.intervalCount', 1, 12).default(1),
    endAfterCycles: intField('recurrence.endAfterCycles', 2, MAX_CYCLES).optional(),
    endDate: dateField('recurrence.endDate').optional(),
  })
  .strict();

/** POST /api/v1/scheduled-charges (docs/decisions.md, "Scheduled charges (issue 13)"). */
export const createScheduledChargeSchema = z
  .object({
    customerId: intField('customerId', 1, MAX_ID),
    amount: amountField,
    dueDate: dateField('dueDate'),
    methods: z
      .array(
        methodField(CHARGE_METHODS, {
          error: `methods must hold only: ${CHARGE_METHODS.join(', ')} (or creditcard)`,
        }),
        {
          error: required('methods', `a list of: ${CHARGE_METHODS.join(', ')}`),
        },
      )
      .min(1, 'methods must not be empty')
      .refine((m) => new Set(m).size === m.length, 'methods must not repeat a method'),
    type: z.enum(CHARGE_TYPES, { error: required('type', `one of: ${CHARGE_TYPES.join(', ')}`) }),
    recurrence: recurrenceSchema.optional(),
    productId: z
      .string({ error: 'productId must be the product uuid' })
      .regex(UUID_SHAPE, 'productId must be the product uuid')
      .transform((v) => v.toLowerCase())
      .optional(),
    description: textField('description', { max: MAX_DESCRIPTION, trim: true, multiline: true }).optional(),
    trialDays: intField('trialDays', 1, MAX_TRIAL_DAYS).optional(),
    ...lateChargeFields,
  })
  .strict()
  .superRefine((input, ctx) => {
    const issue = (path: string[], message: string) =>
      ctx.addIssue({ code: 'custom', path, message, input: undefined });
    if (input.type === 'recurring' && !input.recurrence)
      issue(['recurrence'], 'recurrence is required for a recurring charge');
    if (input.type === 'one_time' && input.recurrence)
      issue(['recurrence'], 'recurrence is not allowed for a one_time charge');
    const r = input.recurrence;
    if (r?.endAfterCycles !== undefined && r.endDate !== undefined)
      issue(['recurrence'], 'recurrence takes at most one of endAfterCycles and endDate');
    if (r?.endDate !== undefined && isCalendarDate(input.dueDate) && r.endDate <= input.dueDate)
      issue(['recurrence', 'endDate'], 'recurrence.endDate must be after dueDate');
    const cardOnly = input.methods.length === 1 && input.methods[0] === 'card';
    if (input.trialDays !== undefined && !(input.type === 'recurring' && cardOnly))
      issue(['trialDays'], 'trialDays applies to a recurring charge with methods [card] only');
  });
export type CreateScheduledChargeInput = z.output<typeof createScheduledChargeSchema>;

/** A repeatable `status` query (`status=a&status=b` arrives comma-joined); each value must be one of `values`. */
export const statusListOf = <const T extends string>(values: readonly T[]) =>
  z
    .string()
    .transform((raw, ctx) => {
      const given = raw.split(',').map((s) => s.trim());
      if (given.some((v) => !(values as readonly string[]).includes(v))) {
        ctx.addIssue({ code: 'custom', message: `status must be one of: ${values.join(', ')}` });
        return z.NEVER;
      }
      return [...new Set(given)] as T[];
    })
    .optional();

/** `customerId` in a list's query. */
export const customerIdQuery = z.coerce
  .number({ error: 'customerId must be a customer id (a positive integer)' })
  .int('customerId must be a customer id (a positive integer)')
  .min(1, 'customerId must be a customer id (a positive integer)')
  .max(MAX_ID, 'customerId must be a customer id (a positive integer)')
  .optional();

/** GET /api/v1/scheduled-charges. */
export const listScheduledChargesQuerySchema = z
  .object({
    status: statusListOf(CHARGE_STATUSES),
    customerId: customerIdQuery,
    type: z.enum(CHARGE_TYPES, { error: `type must be one of: ${CHARGE_TYPES.join(', ')}` }).optional(),
    dueDateFrom: dateField('dueDateFrom').optional(),
    dueDateTo: dateField('dueDateTo').optional(),
    search: z.string().trim().min(1, 'search must not be empty').max(200).optional(),
    ...pageFields,
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.dueDateFrom && q.dueDateTo && q.dueDateFrom > q.dueDateTo)
      ctx.addIssue({
        code: 'custom',
        path: ['dueDateTo'],
        message: 'dueDateTo must not be before dueDateFrom',
      });
  });
export type ListScheduledChargesInput = z.output<typeof listScheduledChargesQuerySchema>;

const cycleNumberField = intField('cycleNumber', 1, MAX_CYCLES).optional();

/** POST /{id}/mark-paid. */
export const markPaidSchema = z
  .object({
    paymentDate: dateField('paymentDate'),
    externalReference: z
      .string({ error: 'externalReference must be a string' })
      .trim()
      .max(MAX_EXTERNAL_REFERENCE, `externalReference must be at most ${MAX_EXTERNAL_REFERENCE} characters`)
      .optional(),
    cycleNumber: cycleNumberField,
  })
  .strict();
export type MarkPaidInput = z.output<typeof markPaidSchema>;

/** POST /{id}/postpone. */
export const postponeSchema = z
  .object({
    newDueDate: dateField('newDueDate'),
    reason: textField('reason', { max: MAX_DESCRIPTION, trim: true, multiline: true }).optional(),
  })
  .strict();
export type PostponeInput = z.output<typeof postponeSchema>;

/** POST /{id}/cancel (optional body). */
export const cancelSchema = z
  .object({ reason: textField('reason', { max: MAX_DESCRIPTION, trim: true, multiline: true }).optional() })
  .strict();

/** PATCH /{id}: later cycles use the new amount; the description shows on the link and in reminders. */
export const updateScheduledChargeSchema = z
  .object({
    amount: amountField.optional(),
    description: textField('description', { max: MAX_DESCRIPTION, trim: true, multiline: true })
      .nullable()
      .optional(),
  })
  .strict()
  .refine(
    (b) => b.amount !== undefined || b.description !== undefined,
    'body must change amount or description',
  );
export type UpdateScheduledChargeInput = z.output<typeof updateScheduledChargeSchema>;

/** `{id}`: `sch_test_…`/`sch_live_…`; anything else names no charge (404). */
export const scheduledChargePathSchema = z.object({
  id: z.string().regex(/^sch_(test|live)_[A-Za-z0-9]{24}$/),
});
