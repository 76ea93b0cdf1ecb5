import { createHash } from 'node:crypto';
import { registerSchemeVerifier } from '#shared/auth/authenticate';
import { UnauthorizedError } from '#shared/errors';
import { type MagicLinkSubject, openMagicLink } from './magic-link';

/**
 * Registers the `magicLink` scheme: `Authorization: Bearer <magic-link JWT>`. The rate limit counts
 * per link (a hash of it, so the token never sits in a rate item). Registering twice is harmless.
 */
export function useMagicLinks(): void {
  registerSchemeVerifier('magicLink', async (req) => {
    const header = req.headers.authorization;
    if (!header?.startsWith('Bearer ')) throw new UnauthorizedError();
    const token = header.slice('Bearer '.length).trim();
    const subject = await openMagicLink(
      { keyring: req.container.magicLinks },
      token,
      req.container.clock.now(),
    );
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
