import { API_KEY_FORMAT, hashKey, sameHash } from '#shared/domain/auth/api-keys';
import {
  decide,
  FAILED_AUTH_LIMIT,
  type RateWindow,
  rateWindow,
  secondsUntilReset,
} from '#shared/domain/auth/rate-limit';
import { accessOf, allows, type Role, RoleForbiddenError } from '#shared/domain/team/roles';
import type { Environment } from '#shared/domain/tenant';
import {
  type AuthFailure,
  authFailure,
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
} from '#shared/errors';
import type { AuthContext, AuthScheme, HttpRequest, Route } from '#shared/http/types';

/** The claim of the Cognito ID token that carries the numeric seller id (a custom attribute). */
export const SELLER_CLAIM = 'custom:seller_id';

/**
 * Schemes whose credentials are issued by later endpoint groups (portal sessions, magic links)
 * register their verifier here. A route that declares a scheme nobody registered fails at cold
 * start, not at request time.
 */
export type SchemeVerifier = (req: HttpRequest) => Promise<AuthContext | CountedAuth>;

/**
 * A verifier that counted the request itself, in the item it read the credential from (one
 * round trip for both, as an API key's): `count` is the caller's count in the current window.
 */
export interface CountedAuth {
  auth: AuthContext;
  count: number;
}
const verifiers: Partial<Record<AuthScheme, SchemeVerifier>> = {};

/** The schemes whose verifier a handler module registers (the rest are built in). */
type RegisteredScheme = 'portalToken' | 'magicLink' | 'signature';
const REGISTERED: readonly AuthScheme[] = ['portalToken', 'magicLink', 'signature'];

export function registerSchemeVerifier(scheme: RegisteredScheme, verifier: SchemeVerifier): void {
  verifiers[scheme] = verifier;
}

export function assertSchemesAvailable(routes: readonly Route[]): void {
  for (const route of routes) {
    for (const scheme of route.auth) {
      if (REGISTERED.includes(scheme) && !verifiers[scheme]) {
        throw new Error(
          `route ${route.method} ${route.path} declares ${scheme} but no verifier is registered`,
        );
      }
    }
  }
}

function environmentHeader(req: HttpRequest): Environment {
  const value = req.headers['x-environment'];
  if (value === undefined || value === 'live') return 'live';
  if (value === 'test') return 'test';
  throw new BadRequestError('X-Environment must be one of: test, live', 'invalid_environment');
}

/**
 * The credential of `Authorization: Bearer <credential>`. The scheme is matched ignoring case (RFC
 * 7235, section 2.1); another scheme, or a credential sent without one, is refused as such.
 */
export function bearerCredential(header: string | undefined, missing: AuthFailure): string {
  const value = header?.trim() ?? '';
  if (value === '') throw authFailure(missing);
  const match = /^bearer(?:[ \t]+(.*))?$/i.exec(value);
  if (!match) throw authFailure('scheme');
  const credential = match[1]?.trim() ?? '';
  if (credential === '') throw authFailure(missing);
  return credential;
}

const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]*$/;

async function viaApiKey(req: HttpRequest, token: string): Promise<{ auth: AuthContext; count: number }> {
  if (!API_KEY_FORMAT.test(token)) throw authFailure('apiKeyInvalid');
  const now = req.container.wallClock.now();
  const hash = hashKey(token);
  const found = await req.container.repos.apiKeys.authenticate(hash, now, rateWindow(now));
  if (!found && (await req.container.repos.apiKeys.isRevoked(hash))) throw authFailure('apiKeyRevoked');
  if (!found || !sameHash(found.record.hash, hash)) throw authFailure('apiKeyInvalid');
  const environment: Environment = token.startsWith('sk_live_') ? 'live' : 'test';
  if (found.record.environment !== environment) throw authFailure('apiKeyInvalid');
  if (found.record.permissions === 'read' && req.method !== 'GET') throw new ForbiddenError();
  const tenant = { sellerId: found.record.sellerId, environment };
  // A seller's keys share one limit: a seller with one key is counted in that key's own item (one
  // round trip); with several, the seller's count is one more (docs/decisions.md, "Rate limits").
  const count = found.sharesSellerLimit
    ? Math.max(
        found.count,
        await req.container.repos.rateLimits.hit(
          `seller:${tenant.sellerId}#${environment}`,
          now,
          rateWindow(now),
        ),
      )
    : found.count;
  return {
    auth: { scheme: 'apiKey', tenant, principal: `key:${found.record.id}`, apiKeyId: found.record.id },
    count,
  };
}

/**
 * The claim as Cognito writes a custom attribute: a string of digits, in canonical form. `Number()`
 * would also read `"1e0"`, `" 1"`, `"0x1"` or `"01"` as seller 1, so anything else is no seller.
 */
function sellerIdOf(claim: unknown): number | null {
  if (typeof claim !== 'string' || !/^[1-9][0-9]{0,15}$/.test(claim)) return null;
  const id = Number(claim);
  return Number.isSafeInteger(id) ? id : null;
}

/** The seller a dashboard request acts on: `X-Seller-Id` (a seller the user was invited to) or none. */
function chosenSeller(req: HttpRequest): number | null {
  const value = req.headers['x-seller-id'];
  if (value === undefined || value === '') return null;
  const id = sellerIdOf(value);
  if (id === null) throw new BadRequestError('X-Seller-Id must be a seller id', 'invalid_seller_id');
  return id;
}

/** A seller the user is no member of answers as a seller that does not exist. */
export const SELLER_NOT_FOUND = 'Seller not found';

async function viaJwt(req: HttpRequest, token: string, scheme: 'jwt' | 'panel', route: Route) {
  const { config, jwks } = req.container;
  // jose loads with the first bearer token, not at the cold start of every function (most
  // requests carry an API key, a portal token or nothing).
  const { errors: joseErrors, jwtVerify } = await import('jose');
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, jwks, {
      issuer: config.jwtIssuer,
      audience: config.jwtClientId,
      algorithms: ['RS256'],
      requiredClaims: ['exp', 'sub'],
      currentDate: req.container.wallClock.now(),
    }));
  } catch (error) {
    if (error instanceof joseErrors.JOSEError && !(error instanceof joseErrors.JWKSTimeout)) {
      throw authFailure(error instanceof joseErrors.JWTExpired ? 'tokenExpired' : 'tokenInvalid', {
        cause: error,
      });
    }
    throw error;
  }
  const homeSellerId = sellerIdOf(payload[SELLER_CLAIM]);
  if (payload.token_use !== 'id' || homeSellerId === null) throw authFailure('tokenInvalid');
  const environment = environmentHeader(req);
  const userId = String(payload.sub);
  const principal = `jwt:${userId}`;
  const access = accessOf(route);
  // The user's own routes (password, authenticator, their sellers) act on the login, not a seller.
  const chosen = access === 'personal' ? null : chosenSeller(req);
  const sellerId = chosen ?? homeSellerId;
  const now = req.container.wallClock.now();
  // The login that signed the seller up is its owner: no read. Any other seller is looked up on
  // every request (a removed member is refused at once), beside the count (docs/decisions.md, "Team and roles").
  const [count, role] = await Promise.all([
    req.container.repos.rateLimits.hit(principal, now, rateWindow(now)),
    sellerId === homeSellerId ? ('owner' as Role) : req.container.repos.team.roleOf(sellerId, userId),
  ]);
  if (role === null) throw new NotFoundError(SELLER_NOT_FOUND);
  if (!allows(role, access)) throw new RoleForbiddenError(role, access);
  const email = payload.email_verified === true && typeof payload.email === 'string' ? payload.email : null;
  return {
    auth: {
      scheme,
      tenant: { sellerId, environment },
      principal,
      user: { id: userId, email, homeSellerId, role },
    } satisfies AuthContext,
    count,
  };
}

/**
 * Resolves who is calling from the route's declared schemes and counts the request against the
 * caller's rate limit. Throws 401 (one AUTH_FAILURES case) or 429. A client address with
 * FAILED_AUTH_LIMIT failed authentications in the window gets 429 on every authenticated route
 * before anything is read or written (docs/decisions.md, "Rate limits").
 */
export async function authenticate(
  req: HttpRequest,
  route: Route,
): Promise<{ auth: AuthContext; headers: Record<string, string> }> {
  const now = req.container.wallClock.now();
  const window = rateWindow(now);
  const settle = (auth: AuthContext, count: number) => {
    const decision = decide(count, window, now);
    if (!decision.allowed) {
      const error = new TooManyRequestsError(decision.retryAfterSeconds);
      Object.assign(error.headers, decision.headers);
      throw error;
    }
    return { auth, headers: decision.headers };
  };

  if (route.auth.length === 0) {
    const bearer = req.headers.authorization?.match(/^bearer[ \t]+(sk_\S+)\s*$/i)?.[1];
    if (route.acceptsApiKey && bearer) {
      const { auth, count } = await viaApiKey(req, bearer);
      return settle(auth, count);
    }
    const principal = `ip:${req.sourceIp}`;
    if (route.rateLimited === false) return { auth: { scheme: 'public', principal }, headers: {} };
    return settle(
      { scheme: 'public', principal },
      await req.container.repos.rateLimits.hit(principal, now, window),
    );
  }

  const client = `ip:${req.sourceIp}`;
  if (req.container.repos.failedAuth.known(client, window) >= FAILED_AUTH_LIMIT)
    throw new TooManyRequestsError(secondsUntilReset(window, now));
  try {
    const signed = route.auth.includes('signature') ? verifiers.signature : undefined;
    // The provider's signed notifications follow the sales it was given, however many a minute: a
    // verified signature is not counted; a bad one is a failed authentication, counted below.
    if (signed) return { auth: (await signed(req)) as AuthContext, headers: {} };
    const { auth, count } = await identify(req, route, now, window);
    return settle(auth, count);
  } catch (error) {
    if (error instanceof UnauthorizedError) await countFailure(req, client, now, window);
    throw error;
  }
}

/** Who is calling, by the route's schemes, with the caller's count in the window. */
async function identify(
  req: HttpRequest,
  route: Route,
  now: Date,
  window: RateWindow,
): Promise<{ auth: AuthContext; count: number }> {
  for (const scheme of ['portalToken', 'magicLink'] as const) {
    const verifier = verifiers[scheme];
    if (route.auth.includes(scheme) && verifier) {
      const verified = await verifier(req);
      if ('count' in verified) return verified;
      return {
        auth: verified,
        count: await req.container.repos.rateLimits.hit(verified.principal, now, window),
      };
    }
  }

  const acceptsKey = route.auth.includes('apiKey');
  const jwtScheme = route.auth.includes('panel') ? 'panel' : route.auth.includes('jwt') ? 'jwt' : undefined;
  const token = bearerCredential(
    req.headers.authorization,
    acceptsKey ? 'apiKeyMissing' : 'authorizationMissing',
  );
  if (token.startsWith('sk_')) {
    if (!acceptsKey) throw authFailure('apiKeyNotAccepted');
    return viaApiKey(req, token);
  }
  if (!jwtScheme) throw authFailure(JWT_SHAPE.test(token) ? 'tokenNotAccepted' : 'apiKeyInvalid');
  return viaJwt(req, token, jwtScheme, route);
}

/**
 * Counts a failed authentication of the client; the failure past the limit answers 429 instead of
 * 401. A count that cannot be written never hides the 401 it was counting.
 */
async function countFailure(req: HttpRequest, client: string, now: Date, window: RateWindow) {
  let count: number;
  try {
    count = await req.container.repos.failedAuth.count(client, now, window);
  } catch (error) {
    req.log.warn('could not count a failed authentication', { error });
    return;
  }
  if (count > FAILED_AUTH_LIMIT) throw new TooManyRequestsError(secondsUntilReset(window, now));
}
