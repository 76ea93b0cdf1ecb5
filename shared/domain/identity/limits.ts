import { createHash } from 'node:crypto';
import { fixedWindow, secondsUntilReset } from '#shared/domain/auth/rate-limit';
import type { Deps } from '#shared/domain/deps';
import { TooManyRequestsError } from '#shared/errors';

/** Identity calls per client address in a 15-minute window (sign-up, login, codes, refresh). */
export const IDENTITY_IP_LIMIT = 30;
/** Identity calls naming one e-mail address in a 15-minute window: guessing a code or a password. */
export const IDENTITY_EMAIL_LIMIT = 10;
export const IDENTITY_WINDOW_SECONDS = 900;

export type IdentityLimitDeps = Pick<Deps, 'rateLimits' | 'clock'>;

/**
 * Counts the call against its client address and, when it names one, the e-mail address, before
 * anything is looked up: a registered and an unknown address are counted and refused alike.
 */
export async function countIdentityCall(
  deps: IdentityLimitDeps,
  caller: { ip: string; email?: string },
): Promise<void> {
  const now = deps.clock.now();
  const window = fixedWindow(now, IDENTITY_WINDOW_SECONDS);
  const emailKey = caller.email && createHash('sha256').update(caller.email).digest('hex');
  const [byIp, byEmail] = await Promise.all([
    deps.rateLimits.hit(`identity-ip:${caller.ip}`, now, window),
    emailKey ? deps.rateLimits.hit(`identity-email:${emailKey}`, now, window) : Promise.resolve(0),
  ]);
  if (byIp > IDENTITY_IP_LIMIT || byEmail > IDENTITY_EMAIL_LIMIT)
    throw new TooManyRequestsError(secondsUntilReset(window, now));
}
