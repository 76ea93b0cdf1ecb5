import * as z from 'zod';
import { documentKind, normalizeDocument, onlyDigits } from '#shared/domain/documents';
import { pageFields } from '#shared/domain/paging';
import { textField } from '#shared/validation';

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
  .refine((v) => documentKind(v) !== null, 'document is not a valid CPF or CNPJ');
const phone = z
  .string()
  .transform(onlyDigits)
  .refine((v) => v.length === 10 || v.length === 11, 'phone must have 10 or 11 digits');
const personType = z.enum(['fisica', 'juridica'], {
  error: (issue) => (issue.input === undefined ? 'personType is required' : undefined),
});
const zipCode = z
  .string()
  .transform(onlyDigits)
  .refine((v) => v.length === 8, 'zipCode must have 8 digits');
const state = z
  .string()
  .transform((v) => v.trim().toUpperCase())
  .refine(
    (v) => (BRAZILIAN_STATES as readonly string[]).includes(v),
    'state must be a Brazilian state (UF), e.g. SP',
  );

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
export type UpdateCustomerInput = z.output<typeof updateCustomerSchema>;
export type ListCustomersInput = z.output<typeof listCustomersSchema>;
