import * as z from 'zod';
import { saleCustomerField, updateCustomerSchema } from '#shared/domain/customers/schemas';
import { pageFields } from '#shared/domain/paging';
import { methodField } from '#shared/domain/payments/method-names';
import { describeIssue, metadataSchema, textField } from '#shared/validation';
import { CHECKOUT_METHODS, type SessionCustomer } from './session';

/** The spec's literal keys of the session's `customer` object, and the customer field each one is. */
const CUSTOMER_KEYS = {
  'customer.name': 'name',
  'customer.email': 'email',
  'customer.document': 'document',
  'customer.phone': 'phone',
  'customer.zip_code': 'zipCode',
  'customer.street': 'street',
  'customer.number': 'number',
  'customer.complement': 'complement',
  'customer.neighborhood': 'neighborhood',
  'customer.city': 'city',
  'customer.state': 'state',
} as const satisfies Record<string, keyof SessionCustomer>;

type CustomerKey = keyof typeof CUSTOMER_KEYS;
const DOTTED_OF = Object.fromEntries(Object.entries(CUSTOMER_KEYS).map(([k, v]) => [v, k])) as Record<
  keyof SessionCustomer,
  CustomerKey
>;

export const emptyCustomer = (): SessionCustomer => ({
  name: null,
  email: null,
  document: null,
  phone: null,
  zipCode: null,
  street: null,
  number: null,
  complement: null,
  neighborhood: null,
  city: null,
  state: null,
});

/**
 * `customer` with the spec's dotted keys; every present field is validated and normalized exactly
 * as the customers API does it (masked CPF, phone and CEP accepted), under its dotted name.
 */
const sessionCustomerSchema = z
  .object(
    Object.fromEntries(Object.keys(CUSTOMER_KEYS).map((k) => [k, z.string().max(254).optional()])) as Record<
      CustomerKey,
      z.ZodOptional<z.ZodString>
    >,
  )
  .strict()
  .transform((raw, ctx): SessionCustomer => {
    const mapped: Record<string, string> = {};
    for (const [dotted, field] of Object.entries(CUSTOMER_KEYS)) {
      const value = raw[dotted as CustomerKey];
      if (value !== undefined) mapped[field] = value;
    }
    const parsed = updateCustomerSchema.safeParse(mapped, { reportInput: true });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]) as keyof SessionCustomer;
        const dotted = DOTTED_OF[field] ?? field;
        const sentence = describeIssue(issue);
        ctx.addIssue({
          code: 'custom',
          path: [dotted],
          message: sentence.startsWith(field) ? `${dotted}${sentence.slice(field.length)}` : sentence,
          input: raw[dotted],
        });
      }
      return z.NEVER;
    }
    const out = emptyCustomer();
    for (const [field, value] of Object.entries(parsed.data)) {
      if (field in out && typeof value === 'string') out[field as keyof SessionCustomer] = value;
    }
    return out;
  });

const redirectUrl = (field: string) =>
  z
    .string()
    .max(2048, `${field} must be at most 2048 characters long`)
    .refine((v) => URL.canParse(v.replace(/\{SESSION_ID\}/g, 'x')), `${field} must be a valid URL`);

export const createSessionSchema = z
  .object({
    product_id: z.number().int().positive(),
    price_id: z.string().min(1).max(64).nullish(),
    customer: sessionCustomerSchema.optional(),
    payment_methods: z.array(methodField(CHECKOUT_METHODS)).min(1).max(3).optional(),
    metadata: metadataSchema.optional(),
    success_url: redirectUrl('success_url').nullish(),
    cancel_url: redirectUrl('cancel_url').nullish(),
    client_reference_id: textField('client_reference_id', { max: 200 }).nullish(),
    affiliate_id: z.number().int().positive().nullish(),
    expires_at: z.iso.datetime({ offset: true, error: 'expires_at must be an ISO 8601 date-time' }).nullish(),
  })
  .strict();

export type CreateSessionInput = z.output<typeof createSessionSchema>;

export const listSessionsSchema = z
  .object({
    status: z.enum(['open', 'complete', 'expired']).optional(),
    product_id: z.coerce.number().int().positive().optional(),
    customer_email: z.string().trim().max(254).optional(),
    created_from: z.iso
      .datetime({ offset: true, error: 'created_from must be an ISO 8601 date-time' })
      .optional(),
    created_to: z.iso
      .datetime({ offset: true, error: 'created_to must be an ISO 8601 date-time' })
      .optional(),
    ...pageFields,
  })
  .strict();

export type ListSessionsInput = z.output<typeof listSessionsSchema>;

/** Where a buyer is sent back to: HTTPS, or plain HTTP to this machine in the local runtime only. */
export function redirectUrlProblem(field: string, raw: string, allowLocalHttp: boolean): string | null {
  const url = new URL(raw.replace(/\{SESSION_ID\}/g, 'x'));
  if (url.username || url.password) return `${field} must not contain credentials`;
  if (url.protocol === 'https:') return null;
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol === 'http:' && loopback && allowLocalHttp) return null;
  return `${field} must use HTTPS`;
}

/** The buyer's data on the page: the customers API's fields (camelCase), masks accepted. */
export const payCustomerSchema = saleCustomerField;

export const payCheckoutSchema = z
  .object({
    paymentMethod: methodField(CHECKOUT_METHODS),
    customer: payCustomerSchema,
    installments: z.number().int().min(1).max(12).optional(),
    card: z
      .object({
        number: z.string().max(23),
        holderName: z.string().max(100),
        expiryMonth: z.number().int(),
        expiryYear: z.number().int(),
        cvv: z.string().max(4),
      })
      .strict()
      .optional(),
    saveCard: z.boolean().optional(),
  })
  .strict();

export type PayCheckoutInput = z.output<typeof payCheckoutSchema>;

/** The sandbox helper's body: the page's payment, with the buyer taken from the session's prefill. */
export const testPaySchema = z
  .object({
    paymentMethod: methodField(CHECKOUT_METHODS),
    card: payCheckoutSchema.shape.card,
    installments: z.number().int().min(1).max(12).optional(),
    save_card: z.boolean().optional(),
    customer: payCustomerSchema.optional(),
  })
  .strict();
