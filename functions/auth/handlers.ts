import {
  beginTotpSetup,
  changePassword,
  confirmSignUp,
  finishTotpSetup,
  forgotPassword,
  logIn,
  logInWithTotp,
  logOut,
  refreshSession,
  resetPassword,
  signUp,
} from '#shared/domain/identity/accounts';
import { clearedSessionCookie, sessionCookie, sessionOf } from '#shared/domain/identity/session-cookie';
import { getBusinessProfile, updateBusinessProfile } from '#shared/domain/team/profile';
import {
  acceptInvitation,
  inviteMember,
  leaveTeam,
  listMySellers,
  listTeam,
  removeMember,
  revokeInvitation,
} from '#shared/domain/team/team';
import { defineHandlers } from '#shared/http/pipeline';
import { Reply } from '#shared/http/types';
import { authRoutes } from './routes';

const caller = (request: { sourceIp: string }) => ({ ip: request.sourceIp });
const cookie = (request: { headers: Record<string, string | undefined> }) =>
  sessionOf(request.headers.cookie);

export const group = defineHandlers(authRoutes, (c) => {
  // Codes, sessions and their limits are credentials: real time, never the test clock.
  const deps = { ...c.deps, clock: c.deps.wallClock };
  return {
    signUp: async ({ body, request }) => new Reply(202, await signUp(deps, caller(request), body)),
    confirmSignUp: ({ body, request }) => confirmSignUp(deps, caller(request), body),
    logIn: async ({ body, request }) => {
      const outcome = await logIn(deps, caller(request), body);
      if ('totp' in outcome) return { challenge: 'totp', session: outcome.totp.session };
      const { idToken, expiresIn, refreshToken } = outcome.signedIn;
      return new Reply(200, { idToken, expiresIn }, { 'set-cookie': sessionCookie(refreshToken) });
    },
    logInWithTotp: async ({ body, request }) => {
      const { idToken, expiresIn, refreshToken } = await logInWithTotp(deps, caller(request), body);
      return new Reply(200, { idToken, expiresIn }, { 'set-cookie': sessionCookie(refreshToken) });
    },
    refreshSession: async ({ request }) => {
      const { idToken, expiresIn } = await refreshSession(deps, caller(request), cookie(request));
      return { idToken, expiresIn };
    },
    logOut: async ({ request }) => {
      await logOut(deps, caller(request), cookie(request));
      return new Reply(204, undefined, { 'set-cookie': clearedSessionCookie() });
    },
    forgotPassword: async ({ body, request }) =>
      new Reply(202, await forgotPassword(deps, caller(request), body)),
    resetPassword: ({ body, request }) => resetPassword(deps, caller(request), body),
    changePassword: async ({ tenant, body, request }) => {
      await changePassword(deps, tenant.sellerId, cookie(request), body);
      return new Reply(204, undefined);
    },
    beginTotpSetup: ({ tenant, request }) => beginTotpSetup(deps, tenant.sellerId, cookie(request)),
    finishTotpSetup: ({ tenant, body, request }) =>
      finishTotpSetup(deps, tenant.sellerId, cookie(request), body),
    listMySellers: ({ request }) => listMySellers(deps, request.user),
    acceptInvitation: ({ body, request }) => acceptInvitation(deps, request.user, body),
    getTeam: ({ tenant, request }) => listTeam(deps, tenant, request.user),
    inviteMember: async ({ tenant, body, request }) =>
      new Reply(201, await inviteMember(deps, tenant, request.user, body)),
    revokeInvitation: async ({ tenant, path }) => {
      await revokeInvitation(deps, tenant, path.email);
      return new Reply(204, undefined);
    },
    removeMember: async ({ tenant, path, request }) => {
      await removeMember(deps, tenant, request.user, path.userId);
      return new Reply(204, undefined);
    },
    leaveTeam: async ({ tenant, request }) => {
      await leaveTeam(deps, tenant, request.user);
      return new Reply(204, undefined);
    },
    getBusinessProfile: ({ tenant }) => getBusinessProfile(deps, tenant),
    updateBusinessProfile: ({ tenant, body }) => updateBusinessProfile(deps, tenant, body),
  };
});
