import type { Deps } from '#shared/domain/deps';
import type { Environment } from '#shared/domain/tenant';
import { authFailure, UnauthorizedError } from '#shared/errors';

/** docs/decisions.md "Customer area": 30 minutes, reusable within them. */
export const MAGIC_LINK_TTL_SECONDS = 30 * 60;
const ISSUER = 'minha-area';

/**
 * Who a magic link names: a global customer (environment + document), as reached at `email`, the
 * seller-registered address the link was sent to (lower case): the area shows only the sellers
 * that registered that address.
 */
export interface MagicLinkSubject {
  environment: Environment;
  document: string;
  email: string;
}

/**
 * The link is a JWT encrypted and authenticated with the keyring's key (JWE `dir` + A256GCM):
 * jose verifies it on opening, and the CPF/CNPJ it carries is not readable from the URL.
 */
export async function issueMagicLink(
  deps: Pick<Deps, 'magicLinks'>,
  subject: MagicLinkSubject,
  now: Date,
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  // jose loads with the first link issued or opened, not at the function's cold start.
  const { EncryptJWT } = await import('jose');
  return new EncryptJWT({ env: subject.environment, doc: subject.document, em: subject.email })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setIssuer(ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + MAGIC_LINK_TTL_SECONDS)
    .encrypt(await deps.magicLinks.key());
}

/** The subject of a magic link, or 401: `token_expired` past its 30 minutes, else `token_invalid`. */
export async function openMagicLink(
  deps: Pick<Deps, 'magicLinks'>,
  token: string | undefined,
  now: Date,
): Promise<MagicLinkSubject> {
  if (!token || token.length > 4096) throw authFailure('tokenInvalid');
  const { errors, jwtDecrypt } = await import('jose');
  try {
    const { payload } = await jwtDecrypt(token, await deps.magicLinks.key(), {
      issuer: ISSUER,
      currentDate: now,
      requiredClaims: ['exp'],
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
    });
    const { env, doc, em } = payload;
    if ((env !== 'test' && env !== 'live') || typeof doc !== 'string' || typeof em !== 'string')
      throw authFailure('tokenInvalid');
    return { environment: env, document: doc, email: em };
  } catch (error) {
    if (error instanceof UnauthorizedError) throw error;
    throw authFailure(error instanceof errors.JWTExpired ? 'tokenExpired' : 'tokenInvalid', { cause: error });
  }
}
