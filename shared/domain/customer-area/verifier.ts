import { createHash } from 'node:crypto';
import { bearerCredential, registerSchemeVerifier } from '#shared/auth/authenticate';
import { type MagicLinkSubject, openMagicLink } from './magic-link';

/**
 * Registers the `magicLink` scheme: `Authorization: Bearer <magic-link JWT>`. The rate limit counts
 * per link (a hash of it, so the token never sits in a rate item). Registering twice is harmless.
 */
export function useMagicLinks(): void {
  registerSchemeVerifier('magicLink', async (req) => {
    const token = bearerCredential(req.headers.authorization, 'authorizationMissing');
    const subject = await openMagicLink(req.container.deps, token, req.container.clock.now());
    return {
      scheme: 'magicLink',
      principal: `magic:${createHash('sha256').update(token).digest('hex').slice(0, 32)}`,
      subject,
    };
  });
}

/** The customer a magicLink route's handler was given (AuthContext.subject). */
export function magicLinkSubjectOf(subject: unknown): MagicLinkSubject {
  if (!subject || typeof subject !== 'object' || !('document' in subject))
    throw new Error('a magic-link route ran without its subject');
  return subject as MagicLinkSubject;
}
