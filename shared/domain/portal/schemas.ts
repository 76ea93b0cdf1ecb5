import * as z from 'zod';
import { updateCustomerSchema } from '#shared/domain/customers/schemas';
import { describeIssue, textField } from '#shared/validation';

/** An integer in [min, max] with one sentence naming the field ("is required" when absent). */
const intField = (field: string, what: string, min: number, max: number) =>
  z
    .number({
      error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be ${what}`),
    })
    .int(`${field} must be ${what}`)
    .min(min, `${field} must be ${what}`)
    .max(max, `${field} must be ${what}`);

/**
 * POST /api/portal/subscriptions/{id}/cancel. The spec shows no body; an optional one carries the
 * seller API's two fields (the configuration may force `atPeriodEnd` and require `reason`).
 */
export const portalCancelSchema = z
  .object({
    atPeriodEnd: z.boolean({ error: 'atPeriodEnd must be a boolean' }).optional(),
    reason: textField('reason', { max: 500, trim: true, multiline: true }).optional(),
  })
  .strict();
export type PortalCancelInput = z.output<typeof portalCancelSchema>;

/** POST /api/portal/subscriptions/{id}/update-payment-method. */
export const portalPaymentMethodSchema = z
  .object({
    paymentMethodId: intField(
      'paymentMethodId',
      'a payment method id (a positive integer)',
      1,
      999_999_999_999_999,
    ),
  })
  .strict();

/**
 * POST /api/portal/subscriptions/{id}/add-card-and-update: the spec's flat card fields. They go to
 * the provider's tokenizer only; nothing here is stored or logged.
 */
export const portalAddCardSchema = z
  .object({
    cardNumber: z
      .string({ error: 'cardNumber is required' })
      .transform((v) => v.replace(/[\s-]/g, ''))
      .refine((v) => /^\d{12,19}$/.test(v), 'cardNumber must be 12 to 19 digits'),
    holderName: textField('holderName', { max: 100, trim: true }),
    expiryMonth: intField('expiryMonth', 'a month (1 to 12)', 1, 12),
    expiryYear: intField('expiryYear', 'a year (four digits)', 2000, 2100),
    cvv: z.string({ error: 'cvv is required' }).regex(/^\d{3,4}$/, 'cvv must be 3 or 4 digits'),
  })
  .strict();
export type PortalAddCardInput = z.output<typeof portalAddCardSchema>;

/**
 * PUT /api/portal/customer-info: the customer's name, e-mail and phone in the seller's profile,
 * each validated and normalized exactly as PATCH /api/v1/customers does it (masked phone accepted).
 * Fields left out keep their values; at least one is needed.
 */
export const portalCustomerInfoSchema = z
  .object({
    name: z.string({ error: 'name must be a string' }).optional(),
    email: z.string({ error: 'email must be a string' }).optional(),
    phone: z.string({ error: 'phone must be a string' }).optional(),
  })
  .strict()
  .transform((raw, ctx) => {
    if (raw.name === undefined && raw.email === undefined && raw.phone === undefined) {
      ctx.addIssue({ code: 'custom', message: 'body must carry name, email or phone', input: raw });
      return z.NEVER;
    }
    const parsed = updateCustomerSchema.safeParse(raw, { reportInput: true });
    if (parsed.success) return { name: parsed.data.name, email: parsed.data.email, phone: parsed.data.phone };
    for (const issue of parsed.error.issues)
      ctx.addIssue({ ...issue, message: describeIssue(issue) } as never);
    return z.NEVER;
  });
export type PortalCustomerInfoInput = z.output<typeof portalCustomerInfoSchema>;
