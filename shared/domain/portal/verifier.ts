import { registerSchemeVerifier } from '#shared/auth/authenticate';
import { rateWindow } from '#shared/domain/auth/rate-limit';
import type { Deps } from '#shared/domain/deps';
import { authFailure } from '#shared/errors';
import type { AuthContext } from '#shared/http/types';
import { PORTAL_TOKEN_FORMAT, type PortalSession, portalTokenHash } from './session';

export type PortalTokenDeps = Pick<Deps, 'portalSessions' | 'clock'>;

/**
 * The session of a portal token, or 401: no token (`token_missing`), a malformed one (refused
 * before any read) or an unknown one (`token_invalid`, the same answer for both, so a caller learns
 * nothing about which tokens exist), or one past its hour (`token_expired`: only its holder asks).
 */
export async function verifyPortalToken(
  deps: PortalTokenDeps,
  token: string | undefined,
): Promise<PortalSession> {
  if (!token) throw authFailure('tokenMissing');
  if (!PORTAL_TOKEN_FORMAT.test(token)) throw authFailure('tokenInvalid');
  const session = await deps.portalSessions.findByTokenHash(portalTokenHash(token));
  if (!session) throw authFailure('tokenInvalid');
  // The item outlives its hour by the TTL's margin: the expiry is checked here, on the Clock port.
  if (Date.parse(session.expiresAt) <= deps.clock.now().getTime()) throw authFailure('tokenExpired');
  return session;
}

/**
 * As verifyPortalToken, with the request counted in the session's own rate window in the same
 * round trip (one conditional UpdateItem of the session's item): the token routes' auth and rate
 * limit together, with the same 401s; a refused token is not counted.
 */
export async function authenticatePortalToken(
  deps: Pick<Deps, 'portalSessions' | 'clock'>,
  token: string | undefined,
): Promise<{ session: PortalSession; count: number }> {
  if (!token) throw authFailure('tokenMissing');
  if (!PORTAL_TOKEN_FORMAT.test(token)) throw authFailure('tokenInvalid');
  const now = deps.clock.now();
  const hash = portalTokenHash(token);
  const found = await deps.portalSessions.authenticate(hash, now, rateWindow(now));
  if (found) return found;
  // Refused: a second read tells a session past its hour (its item outlives it) from no session.
  throw authFailure((await deps.portalSessions.findByTokenHash(hash)) ? 'tokenExpired' : 'tokenInvalid');
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
  registerSchemeVerifier('portalToken', async (req) => {
    const { session, count } = await authenticatePortalToken(req.container.deps, req.query.token);
    return { auth: portalAuthContext(session), count };
  });
}

/** The portal session a token route's handler was given (AuthContext.subject). */
export function portalSessionOf(subject: unknown): PortalSession {
  if (!subject || typeof subject !== 'object' || !('tokenHash' in subject))
    throw new Error('a portal route ran without its portal session');
  return subject as PortalSession;
}
