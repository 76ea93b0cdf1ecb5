import * as z from 'zod';
import { textField } from '#shared/validation';
import { ROLES } from './roles';

const email = z
  .string({ error: 'email must be a string' })
  .trim()
  .toLowerCase()
  .max(254, 'email must be at most 254 characters')
  .pipe(z.email({ error: 'email must be a valid e-mail address' }));

export const inviteSchema = z.strictObject({
  email,
  role: z.enum(ROLES, { error: `role must be one of: ${ROLES.join(', ')}` }),
});

export const acceptInvitationSchema = z.strictObject({
  token: z
    .string({ error: 'token must be a string' })
    .regex(/^inv_[0-9A-Za-z]{32,64}$/, 'token must be the invitation token from the e-mail'),
});

export const memberPathSchema = z.object({
  userId: z.string().regex(/^[\w-]{1,128}$/),
});

export const invitationPathSchema = z.object({
  email: z.string().max(254).pipe(z.email()),
});

/** `#rrggbb`, case-insensitive, stored lower-case. */
export const BRAND_COLOR = /^#[0-9a-fA-F]{6}$/;

/**
 * The business profile. The logo is an https URL (the hosted pages' CSP allows https images only,
 * and a page served over https shows no http image), at most 2048 characters, without credentials.
 */
export const businessProfileSchema = z.strictObject({
  name: textField('name', { max: 120, trim: true }),
  logoUrl: z
    .string({ error: 'logoUrl must be a string' })
    .trim()
    .max(2048, 'logoUrl must be at most 2048 characters')
    .pipe(z.url({ protocol: /^https$/, error: 'logoUrl must be an https URL' }))
    // Zod runs this refinement even when the URL check above failed: an unparsable value is that
    // check's error, not this one's.
    .refine((v) => {
      if (!URL.canParse(v)) return true;
      const url = new URL(v);
      return url.username === '' && url.password === '';
    }, 'logoUrl must not contain credentials')
    .nullable(),
  brandColor: z
    .string({ error: 'brandColor must be a string' })
    .regex(BRAND_COLOR, 'brandColor must be a hex colour like #1a73e8')
    .transform((v) => v.toLowerCase())
    .nullable(),
});
