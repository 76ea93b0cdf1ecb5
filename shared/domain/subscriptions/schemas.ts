import * as z from 'zod';
import { pageFields } from '#shared/domain/paging';
import { numericOrUuidParam } from '#shared/domain/params';
import { MIN_PRICE_CENTAVOS } from '#shared/domain/products/products';
import { NUMERIC_ID, UUID_SHAPE } from '#shared/ids';
import { reaisField } from '#shared/money-field';
import { metadataSchema, textField } from '#shared/validation';
import { BILLING_INTERVALS, MAX_INTERVAL_COUNT, MAX_TRIAL_DAYS } from './price';
import { SUBSCRIPTION_STATUSES } from './subscription';

/** Numeric ids stay far below 15 digits (the counters); larger numbers name nothing. */
const MAX_ID = 999_999_999_999_999;

/** A positive integer id in a body, with a sentence naming the field. */
const idField = (field: string, what: string) =>
  z
    .number({
      error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be ${what}`),
    })
    .int(`${field} must be ${what}`)
    .min(1, `${field} must be ${what}`)
    .max(MAX_ID, `${field} must be ${what}`);

const trialDaysField = z
  .number({
    error: (issue) => (issue.input === undefined ? 'trialDays is required' : 'trialDays must be a number'),
  })
  .int('trialDays must be a whole number of days')
  .min(0, 'trialDays must be at least 0')
  .max(MAX_TRIAL_DAYS, `trialDays must be at most ${MAX_TRIAL_DAYS}`);

/**
 * Spec rule 1: a subscription price is at least 5.00 and never 0 (products alone may be 0).
 * Same sentences as a product's `value`.
 */
const unitAmountField = reaisField('unitAmount').refine(
  (centavos) => centavos >= MIN_PRICE_CENTAVOS,
  'unitAmount must be at least 5',
);

/** POST /api/products/{id}/prices; the output carries unitAmount in centavos. */
export const createPriceSchema = z
  .object({
    name: textField('name', { max: 200, trim: true }),
    unitAmount: unitAmountField,
    billingInterval: z.enum(BILLING_INTERVALS, {
      error: (issue) =>
        issue.input === undefined
          ? 'billingInterval is required'
          : `billingInterval must be one of: ${BILLING_INTERVALS.join(', ')}`,
    }),
    intervalCount: z
      .number({ error: 'intervalCount must be an integer' })
      .int('intervalCount must be an integer')
      .min(1, 'intervalCount must be at least 1')
      .default(1),
    trialDays: trialDaysField.default(0),
  })
  .strict()
  .superRefine((input, ctx) => {
    // Stripe's bound: at most one year between charges (52 weeks, 12 months, 1 year).
    const max = MAX_INTERVAL_COUNT[input.billingInterval];
    if (input.intervalCount > max) {
      ctx.addIssue({
        code: 'custom',
        path: ['intervalCount'],
        message: `intervalCount must be at most ${max} when billingInterval is ${input.billingInterval}`,
        input: input.intervalCount,
      });
    }
  });
export type CreatePriceInput = z.output<typeof createPriceSchema>;

/** GET /api/products/{id}/prices: `active=true` only the active ones, `false` only the deactivated. */
export const listPricesQuerySchema = z
  .object({
    active: z
      .enum(['true', 'false'], { error: 'active must be true or false' })
      .optional()
      .transform((flag) => (flag === undefined ? undefined : flag === 'true')),
  })
  .strict();

/**
 * DELETE /api/products/{id}/prices/{priceId}: `id` as every product route; `priceId` any
 * segment, so a malformed one answers `Price not found` once the product is known.
 */
export const pricePathSchema = numericOrUuidParam.extend({ priceId: z.string() });

/** A price by its numeric id or its uuid, in a body (`priceId: 12` or `"12"` or the uuid). */
export const priceRefField = z
  .union([idField('priceId', 'a price id or uuid'), z.string()], {
    error: (issue) =>
      issue.input === undefined ? 'priceId is required' : 'priceId must be a price id or uuid',
  })
  .transform((ref, ctx) => {
    if (typeof ref === 'number') return String(ref);
    if (NUMERIC_ID.test(ref) || UUID_SHAPE.test(ref)) return ref.toLowerCase();
    ctx.addIssue({ code: 'custom', message: 'priceId must be a price id or uuid', input: ref });
    return z.NEVER;
  });

/** POST /api/subscriptions: a subscription on a customer's saved card (Stripe's API create). */
export const createSubscriptionSchema = z
  .object({
    customerId: idField('customerId', 'a customer id (a positive integer)'),
    priceId: priceRefField,
    paymentMethodId: idField('paymentMethodId', 'a payment method id (a positive integer)'),
    /** Overrides the price's trial (Stripe's trial_period_days); 0 = no trial. */
    trialDays: trialDaysField.optional(),
    metadata: metadataSchema.optional(),
  })
  .strict();
export type CreateSubscriptionInput = z.output<typeof createSubscriptionSchema>;

/** POST /api/subscriptions/{id}/cancel (the body is optional: cancel now, no reason). */
export const cancelSubscriptionSchema = z
  .object({
    atPeriodEnd: z.boolean({ error: 'atPeriodEnd must be a boolean' }).optional(),
    reason: textField('reason', { max: 500, trim: true, multiline: true }).optional(),
  })
  .strict();
export type CancelSubscriptionInput = z.output<typeof cancelSubscriptionSchema>;

/** POST /api/subscriptions/{id}/payment-method. */
export const changePaymentMethodSchema = z
  .object({ paymentMethodId: idField('paymentMethodId', 'a payment method id (a positive integer)') })
  .strict();

/** GET /api/subscriptions. */
export const listSubscriptionsQuerySchema = z
  .object({
    status: z
      .enum(SUBSCRIPTION_STATUSES, {
        error: `status must be one of: ${SUBSCRIPTION_STATUSES.join(', ')}`,
      })
      .optional(),
    customerId: z.coerce
      .number({ error: 'customerId must be a customer id (a positive integer)' })
      .int('customerId must be a customer id (a positive integer)')
      .min(1, 'customerId must be a customer id (a positive integer)')
      .max(MAX_ID, 'customerId must be a customer id (a positive integer)')
      .optional(),
    productId: z.coerce
      .number({ error: 'productId must be a product id (a positive integer)' })
      .int('productId must be a product id (a positive integer)')
      .min(1, 'productId must be a product id (a positive integer)')
      .max(MAX_ID, 'productId must be a product id (a positive integer)')
      .optional(),
    ...pageFields,
  })
  .strict();
export type ListSubscriptionsInput = z.output<typeof listSubscriptionsQuerySchema>;
