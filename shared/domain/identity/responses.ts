import * as z from 'zod';
import type { Assert, Equals } from '#shared/domain/type-assert';
import type {
  beginTotpSetup,
  confirmSignUp,
  finishTotpSetup,
  forgotPassword,
  resetPassword,
  signUp,
} from './accounts';

type Out<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

/** Sign-up and forgotten password: the same words whether or not the address has a login. */
export const identityAcceptedResponse = z.lazy(() =>
  z.object({ message: z.string() }).meta({
    id: 'IdentityAccepted',
    description: 'Accepted; the answer never tells whether the address has a login',
  }),
);

export const confirmedResponse = z.lazy(() =>
  z
    .object({ confirmed: z.literal(true) })
    .meta({ id: 'SignUpConfirmed', description: 'The address is confirmed: log in' }),
);

export const passwordResetResponse = z.lazy(() =>
  z
    .object({ passwordReset: z.literal(true) })
    .meta({ id: 'PasswordReset', description: 'The new password is set; every other session ends' }),
);

const sessionFields = {
  idToken: z
    .string()
    .describe(
      'The dashboard JWT (a Cognito-style ID token): send it as `Authorization: Bearer`; keep it in memory only',
    ),
  expiresIn: z.number().int().positive().describe('Seconds the ID token is valid'),
};

/** Login, its TOTP step and refresh: the ID token (the refresh token is in the cookie, never in a body). */
export const sessionResponse = z.lazy(() =>
  z.object(sessionFields).meta({
    id: 'DashboardSession',
    description: 'A dashboard ID token; the refresh token is set as an HttpOnly cookie',
  }),
);

export const totpChallengeResponse = z.lazy(() =>
  z
    .object({
      challenge: z
        .literal('totp')
        .describe('The login has a second factor: send a code to POST /api/auth/login/totp'),
      session: z.string().describe('Answers this sign-in only, for 3 minutes'),
    })
    .meta({ id: 'TotpChallenge', description: 'The password was right; the authenticator code is due' }),
);

export const loginResponse = z.lazy(() =>
  z.union([sessionResponse, totpChallengeResponse]).meta({
    id: 'LoginAnswer',
    description: 'A session, or the TOTP challenge when the login has a second factor',
  }),
);

export const totpSetupResponse = z.lazy(() =>
  z
    .object({
      secret: z.string().describe('Base32 shared secret, shown once; type it into the authenticator app'),
      otpauthUri: z.string().describe('The same secret as an otpauth:// URI, for a QR code'),
    })
    .meta({
      id: 'TotpSetup',
      description: 'A new authenticator secret, to be confirmed with one of its codes',
    }),
);

export const totpEnabledResponse = z.lazy(() =>
  z
    .object({ totpEnabled: z.literal(true) })
    .meta({ id: 'TotpEnabled', description: 'Every sign-in now asks for an authenticator code' }),
);

type _SignUp = Assert<Equals<z.output<typeof identityAcceptedResponse>, Out<typeof signUp>>>;
type _Forgot = Assert<Equals<z.output<typeof identityAcceptedResponse>, Out<typeof forgotPassword>>>;
type _Confirm = Assert<Equals<z.output<typeof confirmedResponse>, Out<typeof confirmSignUp>>>;
type _Reset = Assert<Equals<z.output<typeof passwordResetResponse>, Out<typeof resetPassword>>>;
type _Setup = Assert<Equals<z.output<typeof totpSetupResponse>, Out<typeof beginTotpSetup>>>;
type _Enabled = Assert<Equals<z.output<typeof totpEnabledResponse>, Out<typeof finishTotpSetup>>>;
