import * as z from 'zod';
import { documentKind, normalizeDocument } from '#shared/domain/documents';

/** One of the two, as the customer typed it (a CPF/CNPJ with or without its mask). */
export const magicLinkRequestSchema = z
  .object({
    email: z.email({ error: 'email must be a valid e-mail' }).max(254).optional(),
    document: z
      .string({ error: 'document must be a CPF or CNPJ' })
      .max(32, { error: 'document must be a CPF or CNPJ' })
      .refine((v) => documentKind(normalizeDocument(v)) !== null, {
        error: 'document must be a valid CPF or CNPJ',
      })
      .optional(),
  })
  .refine((b) => (b.email === undefined) !== (b.document === undefined), {
    error: 'email or document is required (exactly one of them)',
    path: ['email'],
  });

export type MagicLinkRequest = z.output<typeof magicLinkRequestSchema>;

/** The same shape whether or not a customer matched. */
export const magicLinkRequestResponse = z.object({
  maskedEmail: z.string().nullable(),
});
