import * as z from 'zod';
import { documentKind, normalizeDocument } from '#shared/domain/documents';
import { textField } from '#shared/validation';

/**
 * The password rule of the dashboard, the user pool's own (infra/constructs/auth.ts reads it), checked
 * here first so that a weak password is a 400 naming the field on both identity providers.
 */
export const PASSWORD_POLICY = {
  minLength: 12,
  maxLength: 256,
  requireLowercase: true,
  requireUppercase: true,
  requireDigits: true,
  requireSymbols: true,
} as const;

const email = z
  .string({ error: 'email must be a string' })
  .trim()
  .toLowerCase()
  .max(254, 'email must be at most 254 characters')
  .pipe(z.email({ error: 'email must be a valid e-mail address' }));

const password = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .min(PASSWORD_POLICY.minLength, `${field} must have at least ${PASSWORD_POLICY.minLength} characters`)
    .max(PASSWORD_POLICY.maxLength, `${field} must have at most ${PASSWORD_POLICY.maxLength} characters`)
    .refine(
      (v) => /[a-z]/.test(v) && /[A-Z]/.test(v) && /[0-9]/.test(v) && /[^A-Za-z0-9]/.test(v),
      `${field} must mix lowercase and uppercase letters, digits and symbols`,
    );

/** A password to check, not to set: any non-empty text (the rule may have changed since it was set). */
const currentPassword = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .min(1, `${field} is required`)
    .max(256);

const code = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .regex(/^[0-9]{6}$/, `${field} must be the 6 digits we sent`);

export const signUpSchema = z.strictObject({
  email,
  password: password('password'),
  businessName: textField('businessName', { max: 120, trim: true }),
  document: z
    .string({ error: 'document must be a string' })
    .transform(normalizeDocument)
    .refine((v) => documentKind(v) !== null, 'document is not a valid CPF or CNPJ')
    .describe('CPF or CNPJ of the business, with or without punctuation'),
});

export const confirmSchema = z.strictObject({ email, code: code('code') });

export const loginSchema = z.strictObject({ email, password: currentPassword('password') });

export const loginTotpSchema = z.strictObject({
  email,
  session: z.string({ error: 'session must be a string' }).min(1).max(4096),
  code: code('code'),
});

export const forgotPasswordSchema = z.strictObject({ email });

export const resetPasswordSchema = z.strictObject({
  email,
  code: code('code'),
  password: password('password'),
});

export const changePasswordSchema = z.strictObject({
  currentPassword: currentPassword('currentPassword'),
  newPassword: password('newPassword'),
});

export const totpVerifySchema = z.strictObject({ code: code('code') });
