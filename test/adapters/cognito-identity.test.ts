import { createHmac } from 'node:crypto';
import {
  AssociateSoftwareTokenCommand,
  ChangePasswordCommand,
  CodeMismatchException,
  CognitoIdentityProviderClient,
  ConfirmForgotPasswordCommand,
  ConfirmSignUpCommand,
  DescribeUserPoolClientCommand,
  ForgotPasswordCommand,
  InitiateAuthCommand,
  NotAuthorizedException,
  RespondToAuthChallengeCommand,
  RevokeTokenCommand,
  SetUserMFAPreferenceCommand,
  SignUpCommand,
  UserNotConfirmedException,
  UsernameExistsException,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { CognitoIdentityProvider, userPoolOf } from '#shared/adapters/cognito/cognito-identity';
import {
  AccountExistsError,
  InvalidCodeError,
  InvalidCredentialsError,
  InvalidSessionError,
  NotConfirmedError,
} from '#shared/domain/identity/errors';

const mock = mockClient(CognitoIdentityProviderClient);
const CLIENT_ID = 'client-123';
const SECRET = 'client-secret-xyz';
const EMAIL = 'ana@example.com';
const SUB = '5f0c1b2a-1111-4222-8333-944455556666';

const hashOf = (username: string) =>
  createHmac('sha256', SECRET).update(`${username}${CLIENT_ID}`).digest('base64');
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** An unsigned ID token shape: the adapter only reads claims of tokens Cognito just gave it. */
const idToken = b64({ alg: 'RS256' }).concat(
  '.',
  b64({ sub: SUB, 'custom:seller_id': '42', token_use: 'id' }),
  '.sig',
);
const REFRESH = 'eyJjdHkiOiJKV1QiLCJlbmMiOiJBMjU2R0NNIn0.part.two.three.four';

const provider = () =>
  new CognitoIdentityProvider({
    client: new CognitoIdentityProviderClient({ region: 'sa-east-1' }),
    userPoolId: 'sa-east-1_Abc123',
    clientId: CLIENT_ID,
  });

beforeEach(() => {
  mock.reset();
  mock
    .on(DescribeUserPoolClientCommand, { UserPoolId: 'sa-east-1_Abc123', ClientId: CLIENT_ID })
    .resolves({ UserPoolClient: { ClientSecret: SECRET } });
});

describe('CognitoIdentityProvider', () => {
  it('signs up with the seller id and the secret hash, and maps an existing address', async () => {
    mock.on(SignUpCommand).resolves({ UserConfirmed: false, UserSub: SUB });
    await provider().signUp({
      email: EMAIL,
      password: 'Correct-Horse-42',
      sellerId: 42,
    });
    expect(mock.commandCalls(SignUpCommand)[0].args[0].input).toEqual({
      ClientId: CLIENT_ID,
      SecretHash: hashOf(EMAIL),
      Username: EMAIL,
      Password: 'Correct-Horse-42',
      UserAttributes: [
        { Name: 'email', Value: EMAIL },
        { Name: 'custom:seller_id', Value: '42' },
      ],
    });
    mock.on(SignUpCommand).rejects(new UsernameExistsException({ message: 'exists', $metadata: {} }));
    await expect(
      provider().signUp({ email: EMAIL, password: 'Correct-Horse-42', sellerId: 43 }),
    ).rejects.toBeInstanceOf(AccountExistsError);
  });

  it('confirms with ConfirmSignUp; a wrong code is InvalidCodeError', async () => {
    mock.on(ConfirmSignUpCommand).resolves({});
    await provider().confirmSignUp(EMAIL, '123456');
    expect(mock.commandCalls(ConfirmSignUpCommand)[0].args[0].input).toEqual({
      ClientId: CLIENT_ID,
      SecretHash: hashOf(EMAIL),
      Username: EMAIL,
      ConfirmationCode: '123456',
    });
    mock.on(ConfirmSignUpCommand).rejects(new CodeMismatchException({ message: 'no', $metadata: {} }));
    await expect(provider().confirmSignUp(EMAIL, '000000')).rejects.toBeInstanceOf(InvalidCodeError);
  });

  it('signs in with USER_PASSWORD_AUTH: a session, a TOTP challenge, or the mapped refusals', async () => {
    mock.on(InitiateAuthCommand).resolves({
      AuthenticationResult: {
        IdToken: idToken,
        AccessToken: 'access',
        RefreshToken: REFRESH,
        ExpiresIn: 3600,
      },
    });
    const out = await provider().signIn(EMAIL, 'Correct-Horse-42');
    expect(out).toEqual({ signedIn: { idToken, expiresIn: 3600, refreshToken: `${SUB}.${REFRESH}` } });
    expect(mock.commandCalls(InitiateAuthCommand)[0].args[0].input).toEqual({
      ClientId: CLIENT_ID,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: EMAIL, PASSWORD: 'Correct-Horse-42', SECRET_HASH: hashOf(EMAIL) },
    });

    mock.on(InitiateAuthCommand).resolves({ ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: 'sess-1' });
    expect(await provider().signIn(EMAIL, 'Correct-Horse-42')).toEqual({ totp: { session: 'sess-1' } });

    mock.on(InitiateAuthCommand).rejects(new NotAuthorizedException({ message: 'bad', $metadata: {} }));
    await expect(provider().signIn(EMAIL, 'x')).rejects.toBeInstanceOf(InvalidCredentialsError);
    mock.on(InitiateAuthCommand).rejects(new UserNotConfirmedException({ message: 'no', $metadata: {} }));
    await expect(provider().signIn(EMAIL, 'x')).rejects.toBeInstanceOf(NotConfirmedError);
  });

  it('answers the TOTP challenge with RespondToAuthChallenge', async () => {
    mock.on(RespondToAuthChallengeCommand).resolves({
      AuthenticationResult: {
        IdToken: idToken,
        AccessToken: 'access',
        RefreshToken: REFRESH,
        ExpiresIn: 3600,
      },
    });
    const out = await provider().answerTotp(EMAIL, 'sess-1', '654321');
    expect(out.refreshToken).toBe(`${SUB}.${REFRESH}`);
    expect(mock.commandCalls(RespondToAuthChallengeCommand)[0].args[0].input).toEqual({
      ClientId: CLIENT_ID,
      ChallengeName: 'SOFTWARE_TOKEN_MFA',
      Session: 'sess-1',
      ChallengeResponses: { USERNAME: EMAIL, SOFTWARE_TOKEN_MFA_CODE: '654321', SECRET_HASH: hashOf(EMAIL) },
    });
  });

  it('refreshes with REFRESH_TOKEN_AUTH hashed on the sub, and reads the seller id', async () => {
    mock.on(InitiateAuthCommand).resolves({
      AuthenticationResult: { IdToken: idToken, AccessToken: 'access', ExpiresIn: 3600 },
    });
    const out = await provider().refresh(`${SUB}.${REFRESH}`);
    expect(out).toMatchObject({ idToken, expiresIn: 3600, sellerId: 42 });
    expect(mock.commandCalls(InitiateAuthCommand)[0].args[0].input).toEqual({
      ClientId: CLIENT_ID,
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      AuthParameters: { REFRESH_TOKEN: REFRESH, SECRET_HASH: hashOf(SUB) },
    });
    mock.on(InitiateAuthCommand).rejects(new NotAuthorizedException({ message: 'revoked', $metadata: {} }));
    await expect(provider().refresh(`${SUB}.${REFRESH}`)).rejects.toBeInstanceOf(InvalidSessionError);
    await expect(provider().refresh('garbage')).rejects.toBeInstanceOf(InvalidSessionError);
  });

  it('signs out with RevokeToken, and an invalid token is signed out already', async () => {
    mock.on(RevokeTokenCommand).resolves({});
    await provider().signOut(`${SUB}.${REFRESH}`);
    expect(mock.commandCalls(RevokeTokenCommand)[0].args[0].input).toEqual({
      ClientId: CLIENT_ID,
      ClientSecret: SECRET,
      Token: REFRESH,
    });
    await provider().signOut('garbage');
    expect(mock.commandCalls(RevokeTokenCommand)).toHaveLength(1);
  });

  it('sends ForgotPassword and ConfirmForgotPassword', async () => {
    mock.on(ForgotPasswordCommand).resolves({});
    mock.on(ConfirmForgotPasswordCommand).resolves({});
    await provider().forgotPassword(EMAIL);
    await provider().resetPassword(EMAIL, '111222', 'New-Password-77');
    expect(mock.commandCalls(ForgotPasswordCommand)[0].args[0].input).toEqual({
      ClientId: CLIENT_ID,
      SecretHash: hashOf(EMAIL),
      Username: EMAIL,
    });
    expect(mock.commandCalls(ConfirmForgotPasswordCommand)[0].args[0].input).toEqual({
      ClientId: CLIENT_ID,
      SecretHash: hashOf(EMAIL),
      Username: EMAIL,
      ConfirmationCode: '111222',
      Password: 'New-Password-77',
    });
  });

  it('changes the password and sets up TOTP with the access token of the refreshed session', async () => {
    mock.on(InitiateAuthCommand).resolves({
      AuthenticationResult: { IdToken: idToken, AccessToken: 'access-9', ExpiresIn: 3600 },
    });
    mock.on(ChangePasswordCommand).resolves({});
    mock.on(AssociateSoftwareTokenCommand).resolves({ SecretCode: 'JBSWY3DPEHPK3PXP' });
    mock.on(VerifySoftwareTokenCommand).resolves({ Status: 'SUCCESS' });
    mock.on(SetUserMFAPreferenceCommand).resolves({});
    const session = `${SUB}.${REFRESH}`;
    await provider().changePassword(session, 'Old-Password-1', 'New-Password-77');
    expect(mock.commandCalls(ChangePasswordCommand)[0].args[0].input).toEqual({
      AccessToken: 'access-9',
      PreviousPassword: 'Old-Password-1',
      ProposedPassword: 'New-Password-77',
    });
    expect(await provider().beginTotpSetup(session)).toEqual({ secret: 'JBSWY3DPEHPK3PXP' });
    await provider().finishTotpSetup(session, '123456');
    expect(mock.commandCalls(VerifySoftwareTokenCommand)[0].args[0].input).toEqual({
      AccessToken: 'access-9',
      UserCode: '123456',
    });
    expect(mock.commandCalls(SetUserMFAPreferenceCommand)[0].args[0].input).toEqual({
      AccessToken: 'access-9',
      SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
    });

    mock.on(ChangePasswordCommand).rejects(new NotAuthorizedException({ message: 'bad', $metadata: {} }));
    await expect(provider().changePassword(session, 'x', 'New-Password-77')).rejects.toBeInstanceOf(
      InvalidCredentialsError,
    );
    mock.on(VerifySoftwareTokenCommand).resolves({ Status: 'ERROR' });
    await expect(provider().finishTotpSetup(session, '000000')).rejects.toBeInstanceOf(InvalidCodeError);
  });

  it('reads the pool of an issuer URL', () => {
    expect(userPoolOf('https://cognito-idp.sa-east-1.amazonaws.com/sa-east-1_Abc123')).toEqual({
      region: 'sa-east-1',
      id: 'sa-east-1_Abc123',
    });
    expect(() => userPoolOf('http://localhost/local-issuer')).toThrow();
  });
});
