import * as z from 'zod';
import { documentKind, normalizeDocument, onlyDigits } from '#shared/domain/documents';
import { pageFields } from '#shared/domain/paging';
import { TEST_CLOCK_ID } from '#shared/domain/test-clocks/test-clock';
import { documentedAs, textField } from '#shared/validation';

export const BRAZILIAN_STATES = [
  'AC',
  'AL',
  'AP',
  'AM',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MT',
  'MS',
  'MG',
  'PA',
  'PB',
  'PR',
  'PE',
  'PI',
  'RJ',
  'RN',
  'RS',
  'RO',
  'RR',
  'SC',
  'SP',
  'SE',
  'TO',
] as const;

/** Names and address lines: one line of typed text (no NUL or control characters). */
const text = (field: string, max = 200) => textField(field, { max, trim: true });

// Masked input is accepted and stored digits-only, so `(11) 98765-4321` and `01310-100` work.
const name = text('name');
const email = z.email().max(254);
const document = z
  .string()
  .transform(normalizeDocument)
  .refine((v) => documentKind(v) !== null, 'document is not a valid CPF or CNPJ')
  .describe('CPF (11 digits) or CNPJ (14), with or without its mask: 529.982.247-25; answered as digits');
const phone = z
  .string()
  .transform(onlyDigits)
  .refine((v) => v.length === 10 || v.length === 11, 'phone must have 10 or 11 digits')
  .describe('With the area code, 10 or 11 digits, mask accepted: (11) 98765-4321');
const personType = z.enum(['fisica', 'juridica'], {
  error: (issue) => (issue.input === undefined ? 'personType is required' : undefined),
});
const zipCode = z
  .string()
  .transform(onlyDigits)
  .refine((v) => v.length === 8, 'zipCode must have 8 digits')
  .describe('CEP, 8 digits, mask accepted: 01310-100');
const state = z
  .string()
  .transform((v) => v.trim().toUpperCase())
  .refine(
    (v) => (BRAZILIAN_STATES as readonly string[]).includes(v),
    'state must be a Brazilian state (UF), e.g. SP',
  )
  .describe('UF, two letters: SP');

const address = {
  zipCode: zipCode.nullish(),
  street: text('street').nullish(),
  number: text('number', 20).nullish(),
  complement: text('complement').nullish(),
  neighborhood: text('neighborhood').nullish(),
  city: text('city').nullish(),
  state: state.nullish(),
};

interface DocumentFields {
  document?: string;
  personType?: 'fisica' | 'juridica';
}

/** fisica goes with a CPF, juridica with a CNPJ; said only when both fields are valid on their own. */
function personTypeMatchesDocument(ctx: z.core.ParsePayload<DocumentFields>) {
  const { document: doc, personType: type } = ctx.value;
  const failed = new Set(ctx.issues.map((i) => i.path?.[0]));
  if (!doc || !type || failed.has('document') || failed.has('personType')) return;
  const kind = documentKind(doc);
  if (type === 'fisica' && kind !== 'cpf') {
    ctx.issues.push({
      code: 'custom',
      path: ['personType'],
      message: 'personType fisica requires a CPF (11 digits)',
      input: type,
    });
  }
  if (type === 'juridica' && kind !== 'cnpj') {
    ctx.issues.push({
      code: 'custom',
      path: ['personType'],
      message: 'personType juridica requires a CNPJ (14 characters)',
      input: type,
    });
  }
}

export const createCustomerSchema = z
  .object({ name, email, document, phone, personType, ...address })
  .strict()
  .check(personTypeMatchesDocument);

/** POST /api/customers: the customer, and in the sandbox the test clock it lives on (never a sale's buyer). */
export const registerCustomerSchema = z
  .object({
    name,
    email,
    document,
    phone,
    personType,
    ...address,
    testClockId: z
      .string()
      .regex(TEST_CLOCK_ID, 'testClockId must be a test clock id (clock_…)')
      .optional()
      .describe(
        "Sandbox only: the test clock the customer lives on (set when the seller's profile of the customer is created). Its subscriptions, scheduled charges, carnês and saved cards' expiry run in the clock's time.",
      ),
  })
  .strict()
  .check(personTypeMatchesDocument);

/**
 * The buyer of a sale (POST /api/transactions, the hosted checkout's pay route) as the API reference
 * shows it: a customer without personType, which the sale takes from the document. The sale checks
 * the object itself (createTransaction's parseBuyer, with createCustomerSchema); this schema only
 * describes it.
 */
export const saleCustomerSchema = z
  .object({ name, email, document, phone, ...address })
  .strict()
  .describe(
    "The buyer, registered as the seller's customer (or updated, by document). CPF or CNPJ and phone take masks; personType follows the document.",
  );

/** A sale's `customer`: any object to the route, checked by the sale, shown as saleCustomerSchema. */
export const saleCustomerField = documentedAs(z.record(z.string(), z.unknown()), saleCustomerSchema);

export const updateCustomerSchema = z
  .object({
    name: name.optional(),
    email: email.optional(),
    document: document.optional(),
    phone: phone.optional(),
    personType: personType.optional(),
    ...address,
  })
  .strict()
  .check(personTypeMatchesDocument);

export const billingEmailOverrideSchema = z
  .object({
    // One sentence for every wrong value, including a missing one: null is how to clear it.
    billingEmailOverride: z
      .email({ error: 'billingEmailOverride must be a valid e-mail or null' })
      .nullable(),
  })
  .strict();

export const listCustomersSchema = z.object({
  ...pageFields,
  search: z.string().trim().max(200).optional(),
  status: z.enum(['overdue']).optional(),
});

export type CreateCustomerInput = z.output<typeof createCustomerSchema>;
export type RegisterCustomerInput = z.output<typeof registerCustomerSchema>;
export type UpdateCustomerInput = z.output<typeof updateCustomerSchema>;
export type ListCustomersInput = z.output<typeof listCustomersSchema>;
