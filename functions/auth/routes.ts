import { defineRoutes, lazySchemas } from '#shared/http/types';

// Request schemas load with the group's use cases on its first request (./use-cases.ts).
const schemas = lazySchemas(() => import('./use-cases'));

const responses = lazySchemas(() => import('#shared/domain/identity/responses'));

const IDENTITY_LIMITS =
  'Limited per client address and per e-mail address (429 with Retry-After); the answer is the same whether or not the address has a login.';
const COOKIE =
  'The refresh token is in the `ps_refresh` cookie (HttpOnly; Secure; SameSite=Strict; Path=/api/auth), set by login.';

/**
 * Issue 36: the dashboard's accounts and sessions, on Cognito in AWS and the local identity store on
 * `npm start`. Public routes but the signed-in seller's own (change password, TOTP setup).
 */
export const authRoutes = defineRoutes('auth', [
  {
    operationId: 'signUp',
    method: 'POST',
    path: '/api/auth/sign-up',
    auth: [],
    summary: 'Create a seller account (a 6-digit code is e-mailed to confirm the address)',
    description: `Creates the seller and its sandbox (the \`test\` environment). ${IDENTITY_LIMITS}`,
    request: { body: schemas.signUpSchema },
    errors: [429],
    responses: { 202: responses.identityAcceptedResponse },
  },
  {
    operationId: 'confirmSignUp',
    method: 'POST',
    path: '/api/auth/confirm',
    auth: [],
    summary: 'Confirm the e-mail address with the code from the verification e-mail',
    description: `400 \`invalid_code\` for a wrong or expired code and for an address with nothing to confirm. ${IDENTITY_LIMITS}`,
    request: { body: schemas.confirmSchema },
    errors: [429],
    responses: { 200: responses.confirmedResponse },
  },
  {
    operationId: 'logIn',
    method: 'POST',
    path: '/api/auth/login',
    auth: [],
    summary: 'Log in: the dashboard ID token, and the refresh cookie',
    description: `401 \`invalid_credentials\` for an unknown address and a wrong password alike. With an authenticator app the answer is a TOTP challenge for POST /api/auth/login/totp. ${IDENTITY_LIMITS}`,
    request: { body: schemas.loginSchema },
    errors: [401, 403, 429],
    responses: { 200: responses.loginResponse },
  },
  {
    operationId: 'logInWithTotp',
    method: 'POST',
    path: '/api/auth/login/totp',
    auth: [],
    summary: 'Answer the TOTP challenge of a login with the authenticator code',
    description: IDENTITY_LIMITS,
    request: { body: schemas.loginTotpSchema },
    errors: [429],
    responses: { 200: responses.sessionResponse },
  },
  {
    operationId: 'refreshSession',
    method: 'POST',
    path: '/api/auth/refresh',
    auth: [],
    summary: 'A new dashboard ID token from the refresh cookie',
    description: `${COOKIE} 401 \`session_invalid\` without a valid one.`,
    errors: [401, 429],
    responses: { 200: responses.sessionResponse },
  },
  {
    operationId: 'logOut',
    method: 'POST',
    path: '/api/auth/logout',
    auth: [],
    summary: 'Log out: revokes the refresh token and clears its cookie',
    description: COOKIE,
    errors: [429],
    responses: { 204: null },
  },
  {
    operationId: 'forgotPassword',
    method: 'POST',
    path: '/api/auth/forgot-password',
    auth: [],
    summary: 'E-mail a 6-digit code to reset the password',
    description: IDENTITY_LIMITS,
    request: { body: schemas.forgotPasswordSchema },
    errors: [429],
    responses: { 202: responses.identityAcceptedResponse },
  },
  {
    operationId: 'resetPassword',
    method: 'POST',
    path: '/api/auth/reset-password',
    auth: [],
    summary: 'Set a new password with the code from the reset e-mail',
    description: `400 \`invalid_code\` for a wrong or expired code and for an unknown address. ${IDENTITY_LIMITS}`,
    request: { body: schemas.resetPasswordSchema },
    errors: [429],
    responses: { 200: responses.passwordResetResponse },
  },
  {
    operationId: 'changePassword',
    method: 'POST',
    path: '/api/auth/change-password',
    auth: ['jwt'],
    summary: 'Change the password of the signed-in seller',
    description: `${COOKIE} 401 \`invalid_credentials\` when the current password is wrong.`,
    request: { body: schemas.changePasswordSchema },
    errors: [429],
    responses: { 204: null },
  },
  {
    operationId: 'beginTotpSetup',
    method: 'POST',
    path: '/api/auth/totp/setup',
    auth: ['jwt'],
    summary: 'Start adding an authenticator app (TOTP): its secret, shown once',
    description: COOKIE,
    responses: { 200: responses.totpSetupResponse },
  },
  {
    operationId: 'finishTotpSetup',
    method: 'POST',
    path: '/api/auth/totp/verify',
    auth: ['jwt'],
    summary: 'Confirm the authenticator app with one of its codes; every login then asks for one',
    description: `${COOKIE} Live API keys and a live provider account need this done first.`,
    request: { body: schemas.totpVerifySchema },
    errors: [429],
    responses: { 200: responses.totpEnabledResponse },
  },
]);
