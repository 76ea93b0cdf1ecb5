import { keys } from '../keys';
import type { Item } from '../table';
import { defineEntity } from './entity';

/** A one-time code a login is waiting for, kept as its hash. */
export interface PendingCode {
  hash: string;
  expiresAt: string;
  attempts: number;
}

export interface LocalLogin {
  email: string;
  sellerId: number;
  /** The `sub` of its tokens. */
  userId: string;
  passwordHash: string;
  confirmed: boolean;
  signUpCode?: PendingCode | null;
  resetCode?: PendingCode | null;
  totpSecret?: string | null;
  totpPendingSecret?: string | null;
  /** The last TOTP time step accepted: a code is good once (as Cognito's). */
  totpLastStep?: number | null;
  /** Refresh tokens issued before this instant are refused (set by a password reset). */
  sessionsValidAfter?: string | null;
}

export interface LocalSession {
  kind: 'refresh' | 'totp';
  email: string;
  sellerId: number;
  issuedAt: string;
  expiresAt: string;
}

const pendingOf = (value: unknown): PendingCode | null => {
  if (!value || typeof value !== 'object') return null;
  const code = value as Item;
  return { hash: String(code.hash), expiresAt: String(code.expiresAt), attempts: Number(code.attempts) };
};
const textOf = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * The local user pool's login (`npm start` only), by e-mail: what Cognito keeps of a user. Created
 * whole by the sign-up; its codes, TOTP secrets and session cut-off are then set and removed by
 * updates of the fields named.
 */
export const localLoginEntity = defineEntity({
  entity: 'local-login',
  version: 1,
  key: (login: Pick<LocalLogin, 'email'>) => keys.localLogin(login.email),
  patterns: {},
  attributes: (login: LocalLogin) => ({ ...login }),
  fromItem: (item): LocalLogin => ({
    email: String(item.email),
    sellerId: Number(item.sellerId),
    userId: String(item.userId),
    passwordHash: String(item.passwordHash),
    confirmed: item.confirmed === true,
    signUpCode: pendingOf(item.signUpCode),
    resetCode: pendingOf(item.resetCode),
    totpSecret: textOf(item.totpSecret),
    totpPendingSecret: textOf(item.totpPendingSecret),
    totpLastStep: typeof item.totpLastStep === 'number' ? item.totpLastStep : null,
    sessionsValidAfter: textOf(item.sessionsValidAfter),
  }),
});

/** A local refresh token or TOTP challenge session, by the SHA-256 of its token; gone at `expiresAt` (TTL). */
export const localSessionEntity = defineEntity({
  entity: 'local-session',
  version: 1,
  key: ({ tokenHash }: LocalSession & { tokenHash: string }) => keys.localSession(tokenHash),
  patterns: {},
  attributes: ({ kind, email, sellerId, issuedAt, expiresAt }) => ({
    kind,
    email,
    sellerId,
    issuedAt,
    expiresAt,
    ttl: Math.floor(Date.parse(expiresAt) / 1000),
  }),
  fromItem: (item): LocalSession => ({
    kind: item.kind === 'totp' ? 'totp' : 'refresh',
    email: String(item.email),
    sellerId: Number(item.sellerId),
    issuedAt: String(item.issuedAt),
    expiresAt: String(item.expiresAt),
  }),
});
