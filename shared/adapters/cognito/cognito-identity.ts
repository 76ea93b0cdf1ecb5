import { createHmac } from 'node:crypto';
import {
  AssociateSoftwareTokenCommand,
  ChangePasswordCommand,
  type CognitoIdentityProviderClient,
  ConfirmForgotPasswordCommand,
  ConfirmSignUpCommand,
  ForgotPasswordCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  RevokeTokenCommand,
  SetUserMFAPreferenceCommand,
  SignUpCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { decodeJwt } from 'jose';
import { SELLER_CLAIM } from '#shared/auth/authenticate';
import {
  AccountExistsError,
  InvalidCodeError,
  InvalidCredentialsError,
  InvalidSessionError,
  NotConfirmedError,
} from '#shared/domain/identity/errors';
import type { IdentityProvider, Refreshed, SignedIn, SignInOutcome } from '#shared/domain/ports';

export interface CognitoIdentityOptions {
  client: CognitoIdentityProviderClient;
  clientId: string;
  /**
   * The app client's secret: only a caller holding it may call SignUp, which writes the immutable
   * `custom:seller_id` (a browser with the public client id alone could otherwise pick any seller).
   */
  clientSecret: () => Promise<string>;
}

/** Cognito's error names, by what they mean to the caller (the SDK error's `name`). */
const CREDENTIALS = new Set([
  'NotAuthorizedException',
  'UserNotFoundException',
  'PasswordResetRequiredException',
]);
const CODES = new Set([
  'CodeMismatchException',
  'ExpiredCodeException',
  'NotAuthorizedException',
  'UserNotFoundException',
  'EnableSoftwareTokenMFAException',
  'InvalidParameterException',
  'LimitExceededException',
  'TooManyFailedAttemptsException',
]);

const nameOf = (error: unknown) => (error as { name?: string } | null)?.name ?? '';

/** Maps the refusals a call may meet to the domain's errors; anything else is rethrown as it is. */
async function mapped<T>(call: Promise<T>, refusals: Record<string, (cause: unknown) => Error>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    const refusal = refusals[nameOf(error)];
    throw refusal ? refusal(error) : error;
  }
}

const asCode = (cause: unknown) => new InvalidCodeError({ cause });
const asSession = (cause: unknown) => new InvalidSessionError({ cause });
const codeRefusals = Object.fromEntries([...CODES].map((name) => [name, asCode]));

/**
 * The dashboard's identity on AWS: the user pool does the passwords (never seen again after the
 * call that carries them), the codes (mailed by Cognito) and the tokens. USER_PASSWORD_AUTH over TLS
 * to our own route, since the browser never talks to Cognito; the pool's client prevents user
 * existence errors, and the few calls that could still tell (SignUp) are answered alike by the use case.
 */
export class CognitoIdentityProvider implements IdentityProvider {
  constructor(private readonly options: CognitoIdentityOptions) {}

  private async secretHash(username: string): Promise<string> {
    return createHmac('sha256', await this.options.clientSecret())
      .update(`${username}${this.options.clientId}`)
      .digest('base64');
  }

  /** One command; the answer typed as the fields this adapter reads of it. */
  private send<T = unknown>(command: object): Promise<T> {
    return this.options.client.send(command as never) as Promise<T>;
  }

  async signUp(input: { email: string; password: string; sellerId: number }): Promise<void> {
    await mapped(
      this.send(
        new SignUpCommand({
          ClientId: this.options.clientId,
          SecretHash: await this.secretHash(input.email),
          Username: input.email,
          Password: input.password,
          UserAttributes: [
            { Name: 'email', Value: input.email },
            { Name: SELLER_CLAIM, Value: String(input.sellerId) },
          ],
        }),
      ),
      { UsernameExistsException: (cause) => new AccountExistsError({ cause }) },
    );
  }

  async confirmSignUp(email: string, code: string): Promise<void> {
    await mapped(
      this.send(
        new ConfirmSignUpCommand({
          ClientId: this.options.clientId,
          SecretHash: await this.secretHash(email),
          Username: email,
          ConfirmationCode: code,
        }),
      ),
      codeRefusals,
    );
  }

  async signIn(email: string, password: string): Promise<SignInOutcome> {
    const out = await mapped(
      this.send<{ AuthenticationResult?: Tokens; ChallengeName?: string; Session?: string }>(
        new InitiateAuthCommand({
          ClientId: this.options.clientId,
          AuthFlow: 'USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: email, PASSWORD: password, SECRET_HASH: await this.secretHash(email) },
        }),
      ),
      {
        ...Object.fromEntries(
          [...CREDENTIALS].map((name) => [name, (cause) => new InvalidCredentialsError({ cause })]),
        ),
        UserNotConfirmedException: (cause) => new NotConfirmedError({ cause }),
      },
    );
    if (out.ChallengeName === 'SOFTWARE_TOKEN_MFA' && out.Session) return { totp: { session: out.Session } };
    return { signedIn: signedIn(out.AuthenticationResult) };
  }

  async answerTotp(email: string, session: string, code: string): Promise<SignedIn> {
    const out = await mapped(
      this.send<{ AuthenticationResult?: Tokens }>(
        new RespondToAuthChallengeCommand({
          ClientId: this.options.clientId,
          ChallengeName: 'SOFTWARE_TOKEN_MFA',
          Session: session,
          ChallengeResponses: {
            USERNAME: email,
            SOFTWARE_TOKEN_MFA_CODE: code,
            SECRET_HASH: await this.secretHash(email),
          },
        }),
      ),
      codeRefusals,
    );
    return signedIn(out.AuthenticationResult);
  }

  /**
   * REFRESH_TOKEN_AUTH. With a client secret the hash is of the user's `sub`, which the refresh
   * token does not show: the cookie carries `<sub>.<refresh token>` (both opaque to the browser).
   */
  async refresh(refreshToken: string): Promise<Refreshed & { accessToken: string }> {
    const [sub, token] = splitSession(refreshToken);
    if (!sub || !token) throw new InvalidSessionError();
    const out = await mapped(
      this.send<{ AuthenticationResult?: Tokens }>(
        new InitiateAuthCommand({
          ClientId: this.options.clientId,
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          AuthParameters: { REFRESH_TOKEN: token, SECRET_HASH: await this.secretHash(sub) },
        }),
      ),
      { NotAuthorizedException: asSession, UserNotFoundException: asSession },
    );
    const result = out.AuthenticationResult;
    if (!result?.IdToken || !result.AccessToken) throw new InvalidSessionError();
    const sellerId = Number(decodeJwt(result.IdToken)[SELLER_CLAIM]);
    if (!Number.isSafeInteger(sellerId) || sellerId <= 0) throw new InvalidSessionError();
    return {
      idToken: result.IdToken,
      expiresIn: result.ExpiresIn ?? 3600,
      sellerId,
      accessToken: result.AccessToken,
    };
  }

  async signOut(refreshToken: string): Promise<void> {
    const [, token] = splitSession(refreshToken);
    if (!token) return;
    await mapped(
      this.send(
        new RevokeTokenCommand({
          ClientId: this.options.clientId,
          ClientSecret: await this.options.clientSecret(),
          Token: token,
        }),
      ),
      // An invalid or already revoked token is logged out already.
      { UnauthorizedException: () => new LoggedOut(), InvalidParameterException: () => new LoggedOut() },
    ).catch((error) => {
      if (!(error instanceof LoggedOut)) throw error;
    });
  }

  async forgotPassword(email: string): Promise<void> {
    // With prevent-user-existence-errors the pool answers an unknown address as a known one.
    await mapped(
      this.send(
        new ForgotPasswordCommand({
          ClientId: this.options.clientId,
          SecretHash: await this.secretHash(email),
          Username: email,
        }),
      ),
      { UserNotFoundException: () => new LoggedOut(), InvalidParameterException: () => new LoggedOut() },
    ).catch((error) => {
      if (!(error instanceof LoggedOut)) throw error;
    });
  }

  async resetPassword(email: string, code: string, password: string): Promise<void> {
    await mapped(
      this.send(
        new ConfirmForgotPasswordCommand({
          ClientId: this.options.clientId,
          SecretHash: await this.secretHash(email),
          Username: email,
          ConfirmationCode: code,
          Password: password,
        }),
      ),
      codeRefusals,
    );
  }

  async changePassword(refreshToken: string, current: string, next: string): Promise<void> {
    const { accessToken } = await this.refresh(refreshToken);
    await mapped(
      this.send(
        new ChangePasswordCommand({
          AccessToken: accessToken,
          PreviousPassword: current,
          ProposedPassword: next,
        }),
      ),
      { NotAuthorizedException: (cause) => new InvalidCredentialsError({ cause }) },
    );
  }

  async beginTotpSetup(refreshToken: string): Promise<{ secret: string }> {
    const { accessToken } = await this.refresh(refreshToken);
    const out = await this.send<{ SecretCode?: string }>(
      new AssociateSoftwareTokenCommand({ AccessToken: accessToken }),
    );
    if (!out.SecretCode) throw new Error('AssociateSoftwareToken answered no secret');
    return { secret: out.SecretCode };
  }

  async finishTotpSetup(refreshToken: string, code: string): Promise<void> {
    const { accessToken } = await this.refresh(refreshToken);
    const out = await mapped(
      this.send<{ Status?: string }>(
        new VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: code }),
      ),
      codeRefusals,
    );
    if (out.Status !== 'SUCCESS') throw new InvalidCodeError();
    await this.send(
      new SetUserMFAPreferenceCommand({
        AccessToken: accessToken,
        SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
      }),
    );
  }
}

/** Marks a refusal that means "nothing to do" (caught right where it is made). */
class LoggedOut extends Error {}

interface Tokens {
  IdToken?: string;
  AccessToken?: string;
  RefreshToken?: string;
  ExpiresIn?: number;
}

/** The session handed to the browser's cookie: the user's `sub` and the refresh token. */
function signedIn(result: Tokens | undefined): SignedIn {
  if (!result?.IdToken || !result.RefreshToken) throw new Error('Cognito answered no tokens');
  const sub = decodeJwt(result.IdToken).sub;
  if (!sub) throw new Error('Cognito ID token without sub');
  return {
    idToken: result.IdToken,
    expiresIn: result.ExpiresIn ?? 3600,
    refreshToken: `${sub}.${result.RefreshToken}`,
  };
}

/** `<sub>.<refresh token>` apart (a Cognito refresh token has dots of its own; a sub has none). */
function splitSession(value: string): [string, string] | [null, null] {
  const at = value.indexOf('.');
  if (at <= 0 || at === value.length - 1) return [null, null];
  return [value.slice(0, at), value.slice(at + 1)];
}
