import { registerSchemeVerifier } from '#shared/auth/authenticate';
import type { Clock, PortalSessionRepository } from '#shared/domain/ports';
import { UnauthorizedError } from '#shared/errors';
import type { AuthContext } from '#shared/http/types';
import { PORTAL_TOKEN_FORMAT, type PortalSession, portalTokenHash } from './session';

export interface PortalTokenDeps {
  portalSessions: Pick<PortalSessionRepository, 'findByTokenHash'>;
  clock: Clock;
}

/**
 * The session of a portal token, or 401 `Unauthorized`: no token, a malformed one (refused before
 * any read), an unknown one, or one past its hour. The same answer for each, so a caller learns
 * nothing about which tokens exist.
 */
export async function verifyPortalToken(
  deps: PortalTokenDeps,
  token: string | undefined,
): Promise<PortalSession> {
  if (!token || !PORTAL_TOKEN_FORMAT.test(token)) throw new UnauthorizedError();
  const session = await deps.portalSessions.findByTokenHash(portalTokenHash(token));
  // The item outlives its hour by the TTL's margin: the expiry is checked here, on the Clock port.
  if (!session || Date.parse(session.expiresAt) <= deps.clock.now().getTime()) throw new UnauthorizedError();
  return session;
}

/** The AuthContext of a portal token route: the session's seller, counted per session. */
export function portalAuthContext(session: PortalSession): AuthContext {
  return {
    scheme: 'portalToken',
    tenant: session.tenant,
    principal: `portal:${session.id}`,
    subject: session,
  };
}

/**
 * Registers the `portalToken` scheme (the token in the `token` query parameter). Called by every
 * handler module whose routes declare it, before its pipeline is built (which checks that each
 * declared scheme has a verifier). Registering twice is harmless.
 */
export function usePortalTokens(): void {
  registerSchemeVerifier('portalToken', async (req) =>
    portalAuthContext(
      await verifyPortalToken(
        { portalSessions: req.container.repos.portalSessions, clock: req.container.clock },
        req.query.token,
      ),
    ),
  );
}

/** The portal session a token route's handler was given (AuthContext.subject). */
export function portalSessionOf(subject: unknown): PortalSession {
  if (!subject || typeof subject !== 'object' || !('tokenHash' in subject))
    throw new Error('a portal route ran without its portal session');
  return subject as PortalSession;
}
