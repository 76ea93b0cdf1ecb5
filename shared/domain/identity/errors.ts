import { AppError, BadRequestError, UnauthorizedError } from '#shared/errors';

/**
 * The refusals of the identity routes. Each says no more than the caller already knows: a wrong
 * password and an unknown address are the same 401, a wrong code and an address with nothing to
 * confirm are the same 400.
 */
export class InvalidCredentialsError extends UnauthorizedError {
  constructor(options?: { cause?: unknown }) {
    super('E-mail or password is incorrect', { code: 'invalid_credentials', cause: options?.cause });
  }
}

export class InvalidCodeError extends BadRequestError {
  constructor(options?: { cause?: unknown }) {
    super('The code is invalid or has expired', 'invalid_code', options);
  }
}

/** The password was right, so saying the address is not confirmed yet tells nothing new. */
export class NotConfirmedError extends AppError {
  constructor(options?: { cause?: unknown }) {
    super(403, 'email_not_confirmed', 'Confirm the e-mail address with the code we sent first', options);
  }
}

/** No refresh cookie, or one that is expired, revoked or not this seller's. */
export class InvalidSessionError extends UnauthorizedError {
  constructor(options?: { cause?: unknown }) {
    super('The session has ended: log in again', { code: 'session_invalid', cause: options?.cause });
  }
}

/** Thrown by an IdentityProvider when the address already has a login (never shown to the caller). */
export class AccountExistsError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('the address already has a login', options);
  }
}

/** Live money needs a second factor on the login (DESIGN 9, issue 36). */
export class SecondFactorRequiredError extends AppError {
  constructor(action: string) {
    super(
      403,
      'second_factor_required',
      `Set up an authenticator app (POST /api/auth/totp/setup) before you ${action}`,
    );
  }
}
