import { createHttpHandler } from '#shared/http/pipeline';
import { Reply } from '#shared/http/types';
import { once } from '#shared/once';
import { authRoutes } from './routes';

// The group's use cases load on its first request, not at cold start (./use-cases.ts).
const useCases = once(() => import('./use-cases'));

export const handler = createHttpHandler(authRoutes, (c) => {
  // Codes, sessions and their limits are credentials: real time, never the test clock.
  const deps = {
    identity: c.identity,
    accounts: c.sellerAccounts,
    rateLimits: c.repos.rateLimits,
    clock: c.wallClock,
  };
  const caller = (request: { sourceIp: string }) => ({ ip: request.sourceIp });
  const cookie = async (request: { headers: Record<string, string | undefined> }) =>
    (await useCases()).sessionOf(request.headers.cookie);
  return {
    signUp: async ({ body, request }) =>
      new Reply(202, await (await useCases()).signUp(deps, caller(request), body)),
    confirmSignUp: async ({ body, request }) => (await useCases()).confirmSignUp(deps, caller(request), body),
    logIn: async ({ body, request }) => {
      const u = await useCases();
      const outcome = await u.logIn(deps, caller(request), body);
      if ('totp' in outcome) return { challenge: 'totp', session: outcome.totp.session };
      const { idToken, expiresIn, refreshToken } = outcome.signedIn;
      return new Reply(200, { idToken, expiresIn }, { 'set-cookie': u.sessionCookie(refreshToken) });
    },
    logInWithTotp: async ({ body, request }) => {
      const u = await useCases();
      const { idToken, expiresIn, refreshToken } = await u.logInWithTotp(deps, caller(request), body);
      return new Reply(200, { idToken, expiresIn }, { 'set-cookie': u.sessionCookie(refreshToken) });
    },
    refreshSession: async ({ request }) => {
      const { idToken, expiresIn } = await (await useCases()).refreshSession(
        deps,
        caller(request),
        await cookie(request),
      );
      return { idToken, expiresIn };
    },
    logOut: async ({ request }) => {
      const u = await useCases();
      await u.logOut(deps, caller(request), await cookie(request));
      return new Reply(204, undefined, { 'set-cookie': u.clearedSessionCookie() });
    },
    forgotPassword: async ({ body, request }) =>
      new Reply(202, await (await useCases()).forgotPassword(deps, caller(request), body)),
    resetPassword: async ({ body, request }) => (await useCases()).resetPassword(deps, caller(request), body),
    changePassword: async ({ tenant, body, request }) => {
      await (await useCases()).changePassword(deps, tenant.sellerId, await cookie(request), body);
      return new Reply(204, undefined);
    },
    beginTotpSetup: async ({ tenant, request }) =>
      (await useCases()).beginTotpSetup(deps, tenant.sellerId, await cookie(request)),
    finishTotpSetup: async ({ tenant, body, request }) =>
      (await useCases()).finishTotpSetup(deps, tenant.sellerId, await cookie(request), body),
  };
});
