import type { Deps } from '#shared/domain/deps';
import type { Refreshed, SellerAccountRepository, SignedIn, SignInOutcome } from '#shared/domain/ports';
import { parseInput } from '#shared/validation';
import { AccountExistsError, InvalidSessionError, SecondFactorRequiredError } from './errors';
import { countIdentityCall } from './limits';
import {
  changePasswordSchema,
  confirmSchema,
  forgotPasswordSchema,
  loginSchema,
  loginTotpSchema,
  resetPasswordSchema,
  signUpSchema,
  totpVerifySchema,
} from './schemas';

export type IdentityDeps = Pick<Deps, 'identity' | 'sellerAccounts' | 'rateLimits' | 'clock'>;

/** Who is calling a public identity route: the client address the limits count. */
export interface Caller {
  ip: string;
}

/** The same words whether or not the address has a login (no enumeration). */
export const SIGN_UP_ACCEPTED =
  'If this address can be registered, a 6-digit confirmation code is on its way to it';
export const RESET_ACCEPTED =
  'If this address has a confirmed login, a 6-digit reset code is on its way to it';

/**
 * Sign-up creates the seller (its id, profile and login record) and the login. The seller's
 * sandbox is its `test` environment, open from the first request, so nothing else is made. An
 * address that already has a login gets the same answer, and the seller made for it is removed.
 */
export async function signUp(deps: IdentityDeps, caller: Caller, input: unknown) {
  const body = parseInput(signUpSchema, input);
  await countIdentityCall(deps, { ip: caller.ip, email: body.email });
  const sellerId = await deps.sellerAccounts.register(
    { businessName: body.businessName, document: body.document, email: body.email },
    deps.clock.now(),
  );
  try {
    await deps.identity.signUp({
      email: body.email,
      password: body.password,
      sellerId,
    });
  } catch (error) {
    if (!(error instanceof AccountExistsError)) throw error;
    await deps.sellerAccounts.discard(sellerId);
  }
  return { message: SIGN_UP_ACCEPTED };
}

export async function confirmSignUp(deps: IdentityDeps, caller: Caller, input: unknown) {
  const body = parseInput(confirmSchema, input);
  await countIdentityCall(deps, { ip: caller.ip, email: body.email });
  await deps.identity.confirmSignUp(body.email, body.code);
  return { confirmed: true as const };
}

/** A password sign-in: a session, or the TOTP challenge when the login has a second factor. */
export async function logIn(deps: IdentityDeps, caller: Caller, input: unknown): Promise<SignInOutcome> {
  const body = parseInput(loginSchema, input);
  await countIdentityCall(deps, { ip: caller.ip, email: body.email });
  return deps.identity.signIn(body.email, body.password);
}

export async function logInWithTotp(deps: IdentityDeps, caller: Caller, input: unknown): Promise<SignedIn> {
  const body = parseInput(loginTotpSchema, input);
  await countIdentityCall(deps, { ip: caller.ip, email: body.email });
  return deps.identity.answerTotp(body.email, body.session, body.code);
}

export async function refreshSession(
  deps: IdentityDeps,
  caller: Caller,
  refreshToken: string | undefined,
): Promise<Refreshed> {
  await countIdentityCall(deps, caller);
  if (!refreshToken) throw new InvalidSessionError();
  return deps.identity.refresh(refreshToken);
}

/** Revokes the cookie's session when there is one; logging out twice is no error. */
export async function logOut(deps: IdentityDeps, caller: Caller, refreshToken: string | undefined) {
  await countIdentityCall(deps, caller);
  if (refreshToken) await deps.identity.signOut(refreshToken);
}

export async function forgotPassword(deps: IdentityDeps, caller: Caller, input: unknown) {
  const body = parseInput(forgotPasswordSchema, input);
  await countIdentityCall(deps, { ip: caller.ip, email: body.email });
  await deps.identity.forgotPassword(body.email);
  return { message: RESET_ACCEPTED };
}

export async function resetPassword(deps: IdentityDeps, caller: Caller, input: unknown) {
  const body = parseInput(resetPasswordSchema, input);
  await countIdentityCall(deps, { ip: caller.ip, email: body.email });
  await deps.identity.resetPassword(body.email, body.code, body.password);
  return { passwordReset: true as const };
}

/**
 * The calls made for a signed-in seller act on the cookie's session, which must be the bearer
 * token's seller's: a cookie left by another login of the same browser is refused.
 */
async function sessionOf(deps: IdentityDeps, sellerId: number, refreshToken: string | undefined) {
  if (!refreshToken) throw new InvalidSessionError();
  const refreshed = await deps.identity.refresh(refreshToken);
  if (refreshed.sellerId !== sellerId) throw new InvalidSessionError();
  return refreshToken;
}

export async function changePassword(
  deps: IdentityDeps,
  sellerId: number,
  refreshToken: string | undefined,
  input: unknown,
) {
  const body = parseInput(changePasswordSchema, input);
  await countIdentityCall(deps, { ip: `seller:${sellerId}` });
  const session = await sessionOf(deps, sellerId, refreshToken);
  await deps.identity.changePassword(session, body.currentPassword, body.newPassword);
}

/** The authenticator app's secret, and the otpauth:// URI a QR code of it carries. */
export async function beginTotpSetup(deps: IdentityDeps, sellerId: number, refreshToken: string | undefined) {
  const session = await sessionOf(deps, sellerId, refreshToken);
  const { secret } = await deps.identity.beginTotpSetup(session);
  const label = encodeURIComponent(`Payment Service:seller ${sellerId}`);
  return {
    secret,
    otpauthUri: `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent('Payment Service')}&algorithm=SHA1&digits=6&period=30`,
  };
}

export async function finishTotpSetup(
  deps: IdentityDeps,
  sellerId: number,
  refreshToken: string | undefined,
  input: unknown,
) {
  const body = parseInput(totpVerifySchema, input);
  await countIdentityCall(deps, { ip: `seller:${sellerId}` });
  const session = await sessionOf(deps, sellerId, refreshToken);
  await deps.identity.finishTotpSetup(session, body.code);
  await deps.sellerAccounts.markTotpEnabled(sellerId, deps.clock.now());
  return { totpEnabled: true as const };
}

/**
 * Live money (a live API key, a live provider account) needs TOTP on a self-service login. A seller
 * without a login record was created by an operator in a pool that required MFA of everyone.
 */
export async function requireSecondFactor(
  logins: Pick<SellerAccountRepository, 'login'>,
  sellerId: number,
  action: string,
): Promise<void> {
  const login = await logins.login(sellerId);
  if (login?.selfSignedUp && !login.totpEnabled) throw new SecondFactorRequiredError(action);
}
