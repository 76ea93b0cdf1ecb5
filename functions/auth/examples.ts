import { RESET_ACCEPTED, SIGN_UP_ACCEPTED } from '#shared/domain/identity/accounts';
import { InvalidCodeError, InvalidCredentialsError } from '#shared/domain/identity/errors';
import { defineExamples } from '#shared/http/examples';
import { authRoutes } from './routes';

/** Calls of the identity routes for the API reference (read by the OpenAPI generator and the tests only). */

const idToken =
  'eyJhbGciOiJSUzI1NiIsImtpZCI6ImxvY2FsLW05dDJ4IiwidHlwIjoiSldUIn0.eyJjdXN0b206c2VsbGVyX2lkIjoiNDIiLCJ0b2tlbl91c2UiOiJpZCIsImVtYWlsIjoibG9qYUBleGFtcGxlLmNvbS5iciJ9.c2lnbmF0dXJl';
const email = 'financeiro@lojadaana.com.br';

export const examples = defineExamples(authRoutes, {
  signUp: {
    body: {
      email,
      password: 'Correct-Horse-42',
      businessName: 'Loja da Ana',
      document: '11.222.333/0001-81',
    },
    responses: { 202: { message: SIGN_UP_ACCEPTED } },
  },
  confirmSignUp: [
    {
      name: 'confirmed',
      summary: 'The code from the verification e-mail',
      body: { email, code: '493817' },
      responses: { 200: { confirmed: true } },
    },
    {
      name: 'wrong-code',
      summary: 'A wrong or expired code (or an address with nothing to confirm): 400',
      body: { email, code: '000000' },
      errors: { 400: new InvalidCodeError() },
    },
  ],
  logIn: [
    {
      name: 'session',
      summary: 'The ID token; the refresh token comes as the HttpOnly cookie',
      body: { email, password: 'Correct-Horse-42' },
      responses: { 200: { idToken, expiresIn: 3600 } },
    },
    {
      name: 'totp',
      summary: 'A login with an authenticator app: the code is due at POST /api/auth/login/totp',
      body: { email, password: 'Correct-Horse-42' },
      responses: { 200: { challenge: 'totp', session: 'ltc_9aQ2mZ7cV1xK4bT8nR3wE6yU0iO5pL2sD7fG1hJ4' } },
    },
    {
      name: 'wrong-password',
      summary: 'A wrong password and an unknown address get the same 401',
      body: { email, password: 'not-my-password' },
      errors: { 401: new InvalidCredentialsError() },
    },
  ],
  logInWithTotp: {
    body: { email, session: 'ltc_9aQ2mZ7cV1xK4bT8nR3wE6yU0iO5pL2sD7fG1hJ4', code: '281904' },
    responses: { 200: { idToken, expiresIn: 3600 } },
  },
  refreshSession: { responses: { 200: { idToken, expiresIn: 3600 } } },
  logOut: {},
  forgotPassword: { body: { email }, responses: { 202: { message: RESET_ACCEPTED } } },
  resetPassword: {
    body: { email, code: '730164', password: 'Another-Horse-43' },
    responses: { 200: { passwordReset: true } },
  },
  changePassword: { body: { currentPassword: 'Correct-Horse-42', newPassword: 'Another-Horse-43' } },
  beginTotpSetup: {
    responses: {
      200: {
        secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        otpauthUri:
          'otpauth://totp/Payment%20Service%3Aseller%2042?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Payment%20Service&algorithm=SHA1&digits=6&period=30',
      },
    },
  },
  finishTotpSetup: { body: { code: '281904' }, responses: { 200: { totpEnabled: true } } },
  listMySellers: {
    responses: {
      200: {
        sellers: [
          { id: 42, name: 'Loja da Ana', role: 'owner', home: true },
          { id: 57, name: 'Padaria do Bairro', role: 'viewer', home: false },
        ],
      },
    },
  },
  acceptInvitation: {
    body: { token: 'inv_9aQ2mZ7cV1xK4bT8nR3wE6yU0iO5pL2sD7fG1hJ4' },
    responses: { 200: { sellerId: 57, name: 'Padaria do Bairro', role: 'viewer' } },
  },
  getTeam: {
    responses: {
      200: {
        members: [
          { userId: null, email, role: 'owner', accountOwner: true, you: true, since: null },
          {
            userId: '3f0c2c1e-8a77-4c55-9a8e-0b1d2e3f4a5b',
            email: 'dev@lojadaana.com.br',
            role: 'developer',
            accountOwner: false,
            you: false,
            since: '2026-11-20T14:02:11.000Z',
          },
        ],
        invitations: [
          {
            email: 'contador@lojadaana.com.br',
            role: 'viewer',
            createdAt: '2026-11-27T12:00:00.000Z',
            expiresAt: '2026-12-04T12:00:00.000Z',
          },
        ],
      },
    },
  },
  inviteMember: {
    body: { email: 'contador@lojadaana.com.br', role: 'viewer' },
    responses: {
      201: {
        email: 'contador@lojadaana.com.br',
        role: 'viewer',
        createdAt: '2026-11-27T12:00:00.000Z',
        expiresAt: '2026-12-04T12:00:00.000Z',
      },
    },
  },
  revokeInvitation: { path: { email: 'contador@lojadaana.com.br' } },
  removeMember: { path: { userId: '3f0c2c1e-8a77-4c55-9a8e-0b1d2e3f4a5b' } },
  leaveTeam: {},
  getBusinessProfile: {
    responses: {
      200: {
        name: 'Loja da Ana',
        logoUrl: 'https://cdn.lojadaana.com.br/logo.png',
        brandColor: '#1a73e8',
        contrastOnWhite: 4.51,
      },
    },
  },
  updateBusinessProfile: {
    body: { name: 'Loja da Ana', logoUrl: 'https://cdn.lojadaana.com.br/logo.png', brandColor: '#1a73e8' },
    responses: {
      200: {
        name: 'Loja da Ana',
        logoUrl: 'https://cdn.lojadaana.com.br/logo.png',
        brandColor: '#1a73e8',
        contrastOnWhite: 4.51,
      },
    },
  },
});
