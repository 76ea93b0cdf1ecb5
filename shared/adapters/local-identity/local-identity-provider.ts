import { createHash, randomInt, randomUUID, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { generateSecret, verify } from 'otplib';
import {
  type LocalLogin,
  type LocalSession,
  localLoginEntity,
  localSessionEntity,
  type PendingCode,
} from '#shared/adapters/dynamodb/entities/local-identity';
import { keys } from '#shared/adapters/dynamodb/keys';
import { ConditionFailedError, type Item, type Table } from '#shared/adapters/dynamodb/table';
import {
  AccountExistsError,
  InvalidCodeError,
  InvalidCredentialsError,
  InvalidSessionError,
  NotConfirmedError,
} from '#shared/domain/identity/errors';
import { SESSION_DAYS } from '#shared/domain/identity/session-cookie';
import { type AccountMailKind, accountMail } from '#shared/domain/mail/templates';
import type { Clock, IdentityProvider, Mailer, SignedIn } from '#shared/domain/ports';
import { randomBase62 } from '#shared/ids';

/** Cognito's own figures: an ID token lives an hour (the client's setting), codes 24 h and 1 h. */
export const ID_TOKEN_SECONDS = 3600;
const SIGN_UP_CODE_SECONDS = 24 * 3600;
const RESET_CODE_SECONDS = 3600;
const TOTP_CHALLENGE_SECONDS = 180;
/** Wrong tries a code survives; the next one voids it (a new code must be asked for). */
const CODE_ATTEMPTS = 5;

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  length: number,
  options: { N: number; r: number; p: number },
) => Promise<Buffer>;
const SCRYPT = { N: 16_384, r: 8, p: 1 };
const HASH_BYTES = 32;

/** `scrypt$N$r$p$salt$hash` (base64url), so the parameters can change without a migration. */
async function hashPassword(password: string): Promise<string> {
  const salt = Buffer.from(randomBase62(22));
  const hash = await scryptAsync(password, salt, HASH_BYTES, SCRYPT);
  return [
    'scrypt',
    SCRYPT.N,
    SCRYPT.r,
    SCRYPT.p,
    salt.toString('base64url'),
    hash.toString('base64url'),
  ].join('$');
}

async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt') return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected);
}

/** Checked against an unknown address, so that it costs the time a real check does. */
const DECOY = hashPassword(randomUUID());

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export interface LocalIdentityDeps {
  table: Table;
  /** The local issuer's signature (infra/local/jwt-issuer.ts): the tokens the functions already verify. */
  signIdToken: (
    sellerId: number,
    options: { now: Date; expiresInSeconds: number; subject: string; overrides: Record<string, unknown> },
  ) => Promise<string>;
  mailer: Mailer;
  clock: Clock;
}

/**
 * The user pool, locally (`npm start`): logins in the table with scrypt hashes, codes sent through
 * the Mailer (so they land in the local mailbox), ID tokens from the local issuer that the functions
 * already verify, TOTP with otplib. It answers as the Cognito adapter does, refusal for refusal.
 */
export class LocalIdentityProvider implements IdentityProvider {
  constructor(private readonly deps: LocalIdentityDeps) {}

  async signUp(input: { email: string; password: string; sellerId: number }): Promise<void> {
    const now = this.deps.clock.now();
    const code = this.newCode();
    const login: LocalLogin = {
      email: input.email,
      sellerId: input.sellerId,
      userId: randomUUID(),
      passwordHash: await hashPassword(input.password),
      confirmed: false,
      signUpCode: this.pending(code, now, SIGN_UP_CODE_SECONDS),
    };
    try {
      await this.deps.table.put(localLoginEntity.toItem(login), {
        ConditionExpression: 'attribute_not_exists(pk)',
      });
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      // The owner of the address learns someone tried; the caller learns nothing.
      await this.mail(input.email, 'already-registered');
      throw new AccountExistsError({ cause: error });
    }
    await this.mail(input.email, 'sign-up-code', code);
  }

  async confirmSignUp(email: string, code: string): Promise<void> {
    const login = await this.login(email);
    if (!login || login.confirmed) throw new InvalidCodeError();
    await this.spendCode(login, 'signUpCode', code, { confirmed: true });
  }

  async signIn(email: string, password: string) {
    const login = await this.login(email);
    const matches = await passwordMatches(password, login?.passwordHash ?? (await DECOY));
    if (!login || !matches) throw new InvalidCredentialsError();
    if (!login.confirmed) throw new NotConfirmedError();
    if (login.totpSecret) {
      const session = `ltc_${randomBase62(40)}`;
      await this.saveSession(session, 'totp', login, TOTP_CHALLENGE_SECONDS);
      return { totp: { session } };
    }
    return { signedIn: await this.startSession(login) };
  }

  async answerTotp(email: string, session: string, code: string): Promise<SignedIn> {
    const found = await this.session(session);
    const now = this.deps.clock.now();
    if (
      !found ||
      found.kind !== 'totp' ||
      found.email !== email ||
      Date.parse(found.expiresAt) <= now.getTime()
    )
      throw new InvalidCodeError();
    const login = await this.login(email);
    if (!login?.totpSecret) throw new InvalidCodeError();
    await this.acceptTotp(login, login.totpSecret, code);
    await this.deps.table.delete(keys.localSession(sha256(session)));
    return this.startSession(login);
  }

  async refresh(refreshToken: string) {
    const { login } = await this.signedIn(refreshToken);
    return { ...(await this.idToken(login)), sellerId: login.sellerId };
  }

  async signOut(refreshToken: string): Promise<void> {
    await this.deps.table.delete(keys.localSession(sha256(refreshToken)));
  }

  async forgotPassword(email: string): Promise<void> {
    const login = await this.login(email);
    if (!login?.confirmed) return;
    const code = this.newCode();
    await this.save(login, { resetCode: this.pending(code, this.deps.clock.now(), RESET_CODE_SECONDS) });
    await this.mail(email, 'password-reset-code', code);
  }

  async resetPassword(email: string, code: string, password: string): Promise<void> {
    const login = await this.login(email);
    if (!login?.confirmed) throw new InvalidCodeError();
    await this.spendCode(login, 'resetCode', code, {
      passwordHash: await hashPassword(password),
      sessionsValidAfter: this.deps.clock.now().toISOString(),
    });
  }

  async changePassword(refreshToken: string, current: string, next: string): Promise<void> {
    const { login } = await this.signedIn(refreshToken);
    if (!(await passwordMatches(current, login.passwordHash))) throw new InvalidCredentialsError();
    await this.save(login, { passwordHash: await hashPassword(next) });
  }

  async beginTotpSetup(refreshToken: string): Promise<{ secret: string }> {
    const { login } = await this.signedIn(refreshToken);
    const secret = generateSecret();
    await this.save(login, { totpPendingSecret: secret });
    return { secret };
  }

  async finishTotpSetup(refreshToken: string, code: string): Promise<void> {
    const { login } = await this.signedIn(refreshToken);
    if (!login.totpPendingSecret) throw new InvalidCodeError();
    await this.acceptTotp(login, login.totpPendingSecret, code, {
      totpSecret: login.totpPendingSecret,
      totpPendingSecret: null,
    });
  }

  private newCode(): string {
    return String(randomInt(0, 1_000_000)).padStart(6, '0');
  }

  private pending(code: string, now: Date, seconds: number): PendingCode {
    return {
      hash: sha256(code),
      expiresAt: new Date(now.getTime() + seconds * 1000).toISOString(),
      attempts: 0,
    };
  }

  /** Checks a code of the login; a wrong one counts, the CODE_ATTEMPTS-th voids it. */
  private async spendCode(
    login: LocalLogin,
    field: 'signUpCode' | 'resetCode',
    code: string,
    onSuccess: Partial<LocalLogin>,
  ): Promise<void> {
    const pending = login[field];
    const now = this.deps.clock.now();
    if (!pending || Date.parse(pending.expiresAt) <= now.getTime()) throw new InvalidCodeError();
    const right = timingSafeEqual(Buffer.from(sha256(code), 'hex'), Buffer.from(pending.hash, 'hex'));
    if (!right) {
      const attempts = pending.attempts + 1;
      await this.save(login, { [field]: attempts >= CODE_ATTEMPTS ? null : { ...pending, attempts } });
      throw new InvalidCodeError();
    }
    await this.save(login, { ...onSuccess, [field]: null }, { [field]: pending.hash });
  }

  /** A TOTP code of `secret` at the wall clock (±30 s), each time step once. */
  private async acceptTotp(
    login: LocalLogin,
    secret: string,
    code: string,
    onSuccess: Partial<LocalLogin> = {},
  ): Promise<void> {
    const epoch = Math.floor(this.deps.clock.now().getTime() / 1000);
    const result = await verify({ secret, token: code, epoch, epochTolerance: 30 });
    const step = result.valid && 'timeStep' in result ? result.timeStep : null;
    if (step === null || (login.totpLastStep ?? -1) >= step) throw new InvalidCodeError();
    await this.save(login, { ...onSuccess, totpLastStep: step });
  }

  private async startSession(login: LocalLogin): Promise<SignedIn> {
    const refreshToken = `lrt_${randomBase62(48)}`;
    await this.saveSession(refreshToken, 'refresh', login, SESSION_DAYS * 86_400);
    return { ...(await this.idToken(login)), refreshToken };
  }

  private async idToken(login: LocalLogin) {
    const idToken = await this.deps.signIdToken(login.sellerId, {
      now: this.deps.clock.now(),
      expiresInSeconds: ID_TOKEN_SECONDS,
      subject: login.userId,
      overrides: { email: login.email, email_verified: true },
    });
    return { idToken, expiresIn: ID_TOKEN_SECONDS };
  }

  /** The login of a live refresh token: not expired, not revoked, not older than a password reset. */
  private async signedIn(refreshToken: string): Promise<{ login: LocalLogin }> {
    const found = await this.session(refreshToken);
    const now = this.deps.clock.now();
    if (!found || found.kind !== 'refresh' || Date.parse(found.expiresAt) <= now.getTime())
      throw new InvalidSessionError();
    const login = await this.login(found.email);
    if (!login || (login.sessionsValidAfter && found.issuedAt < login.sessionsValidAfter))
      throw new InvalidSessionError();
    return { login };
  }

  private async saveSession(token: string, kind: LocalSession['kind'], login: LocalLogin, seconds: number) {
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + seconds * 1000);
    await this.deps.table.put(
      localSessionEntity.toItem({
        tokenHash: sha256(token),
        kind,
        email: login.email,
        sellerId: login.sellerId,
        issuedAt: now.toISOString(),
        expiresAt: expiresAt.toISOString(),
      }),
    );
  }

  private async session(token: string): Promise<LocalSession | null> {
    if (!/^l(rt|tc)_[0-9A-Za-z]{40,48}$/.test(token)) return null;
    const item = await this.deps.table.get<Item>(keys.localSession(sha256(token)), { consistent: true });
    return item ? localSessionEntity.fromItem(item) : null;
  }

  private async login(email: string): Promise<LocalLogin | null> {
    const item = await this.deps.table.get<Item>(keys.localLogin(email), { consistent: true });
    return item ? localLoginEntity.fromItem(item) : null;
  }

  /**
   * Writes fields of a login; with `expected`, only if those fields still hold what was read (a
   * code is spent once even when two requests bring it together).
   */
  private async save(login: LocalLogin, fields: Partial<LocalLogin>, expected: Record<string, string> = {}) {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const sets: string[] = [];
    const removes: string[] = [];
    Object.entries(fields).forEach(([field, value], i) => {
      names[`#f${i}`] = field;
      if (value === null || value === undefined) removes.push(`#f${i}`);
      else {
        values[`:f${i}`] = value;
        sets.push(`#f${i} = :f${i}`);
      }
    });
    const conditions = ['attribute_exists(pk)'];
    Object.entries(expected).forEach(([field, hash], i) => {
      names[`#e${i}`] = field;
      values[`:e${i}`] = hash;
      conditions.push(`#e${i}.#h = :e${i}`);
      names['#h'] = 'hash';
    });
    try {
      await this.deps.table.update({
        Key: localLoginEntity.key(login),
        UpdateExpression: [
          sets.length ? `SET ${sets.join(', ')}` : '',
          removes.length ? `REMOVE ${removes.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join(' '),
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
      });
    } catch (error) {
      if (error instanceof ConditionFailedError) throw new InvalidCodeError({ cause: error });
      throw error;
    }
  }

  private async mail(to: string, kind: AccountMailKind, code?: string) {
    await this.deps.mailer.send({ to, kind, ...accountMail(kind, code) });
  }
}
