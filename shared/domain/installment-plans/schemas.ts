import * as z from 'zod';
import { pageFields } from '#shared/domain/paging';
import { uuidString } from '#shared/domain/params';
import { lateChargeFields } from '#shared/domain/payments/late-charge-settings';
import { customerIdQuery, dateField, statusListOf } from '#shared/domain/scheduled-charges/schemas';
import { UUID_SHAPE } from '#shared/ids';
import { PLAN_STATUSES } from './plan';
import { MAX_INSTALLMENTS, MIN_INSTALLMENTS } from './state';

/** Numeric ids stay far below 15 digits (the counters); larger numbers name nothing. */
const MAX_ID = 999_999_999_999_999;

const intField = (field: string, min: number, max: number) => {
  const message = `${field} must be an integer from ${min} to ${max}`;
  return z
    .number({ error: (i) => (i.input === undefined ? `${field} is required` : message) })
    .int(message)
    .min(min, message)
    .max(max, message);
};

/** POST /api/v1/installment-plans (docs/decisions.md, "Installment plans (issue 14)"). */
export const createInstallmentPlanSchema = z
  .object({
    productId: z
      .string({
        error: (i) =>
          i.input === undefined ? 'productId is required' : 'productId must be the product uuid',
      })
      .regex(UUID_SHAPE, 'productId must be the product uuid')
      .transform((v) => v.toLowerCase()),
    customerId: intField('customerId', 1, MAX_ID),
    installments: intField('installments', MIN_INSTALLMENTS, MAX_INSTALLMENTS),
    firstDueDate: dateField('firstDueDate').optional(),
    affiliateId: intField('affiliateId', 1, MAX_ID).optional(),
    ...lateChargeFields,
  })
  .strict();
export type CreateInstallmentPlanInput = z.output<typeof createInstallmentPlanSchema>;

/** GET /api/v1/installment-plans. */
export const listInstallmentPlansQuerySchema = z
  .object({ status: statusListOf(PLAN_STATUSES), customerId: customerIdQuery, ...pageFields })
  .strict();
export type ListInstallmentPlansInput = z.output<typeof listInstallmentPlansQuerySchema>;

/** POST …/installments/{number}/reissue: the second copy's due date (default: the later of today and the installment's). */
export const reissueSchema = z.object({ dueDate: dateField('dueDate').optional() }).strict();
export type ReissueInput = z.output<typeof reissueSchema>;

export const planPathSchema = z.object({ uuid: uuidString });
/** `{number}`: 1..12; anything else names no installment (404). */
export const installmentPathSchema = z.object({
  uuid: uuidString,
  number: z
    .string()
    .regex(/^(?:[1-9]|1[0-2])$/)
    .transform(Number),
});
