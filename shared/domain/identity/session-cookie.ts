/**
 * The refresh token travels only in this cookie: HttpOnly (no script reads it), Secure, SameSite=Strict
 * (no other site's page sends it), Path=/api/auth (only the identity routes receive it: refresh, and
 * logout, change password and TOTP setup, which need the session it names). Secure holds locally
 * too: Chromium and Firefox treat http://127.0.0.1 and http://localhost as secure contexts.
 */
export const SESSION_COOKIE = 'ps_refresh';
export const SESSION_COOKIE_PATH = '/api/auth';
/** How long a refresh token lives (Cognito's refresh token validity is set to the same). */
export const SESSION_DAYS = 30;

export function sessionCookie(refreshToken: string): string {
  return `${SESSION_COOKIE}=${refreshToken}; Path=${SESSION_COOKIE_PATH}; Max-Age=${SESSION_DAYS * 86_400}; HttpOnly; Secure; SameSite=Strict`;
}

export const clearedSessionCookie = (): string =>
  `${SESSION_COOKIE}=; Path=${SESSION_COOKIE_PATH}; Max-Age=0; HttpOnly; Secure; SameSite=Strict`;

/** The refresh token of a `Cookie` header, or undefined. */
export function sessionOf(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === SESSION_COOKIE) {
      const value = part.slice(at + 1).trim();
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}
