import { createHmac } from 'node:crypto';
import { saoPauloDate } from '#shared/dates';
import { fixedWindow } from '#shared/domain/auth/rate-limit';
import type { Deps } from '#shared/domain/deps';
import type { Tenant } from '#shared/domain/tenant';
import { PreconditionRequiredError, TooManyRequestsError, ValidationError } from '#shared/errors';
import {
  CLIENT_ATTEMPTS,
  DECLINE_LIMITS,
  type DeclineLimit,
  type DeclineScope,
  PROOF_OF_WORK,
  proofBitsFor,
} from './limits';
import { CHALLENGE_HEADER, issueChallenge, solvedChallenge } from './proof-of-work';

/**
 * The card-testing guard of every public card form (checkout session, payment link, scheduled
 * charge pay link, portal): before the provider sees a card, the attempt is refused while any scope
 * it shares is held, and a client with recent declines must bring a proof of work; after a
 * decline, every scope counts it. An authenticated seller's own calls never come here.
 */

export type CardGuardDeps = Pick<Deps, 'rateLimits' | 'cardKeys' | 'clock' | 'ids'>;

/** Who is trying the card: the request's client address and the proof-of-work header it sent. */
export interface CardClient {
  ip: string;
  proof?: string;
}

export interface CardAttempt {
  tenant: Tenant;
  /** What the card is tried on. */
  on: { scope: 'session' | 'charge' | 'portal' | 'link'; id: string | number };
  card: { number: string; expiryMonth: number; expiryYear: number };
  client: CardClient;
}

export const CARD_ATTEMPTS_BLOCKED =
  'Muitas tentativas de pagamento com cartão. Tente novamente mais tarde ou use outra forma de pagamento.';
export const PROOF_OF_WORK_REQUIRED =
  'Confirme que o pagamento vem de um navegador: resolva o desafio do cabeçalho X-Proof-Of-Work-Challenge e envie a solução em X-Proof-Of-Work.';
export const EXPIRED_CARD_INPUT = 'card.expiryYear must not be in the past (the card has expired)';

interface Counted {
  scope: DeclineScope;
  principal: string;
  limit: DeclineLimit;
}

/**
 * One client: an IPv4 address as it is (also inside ::ffff:), an IPv6 address by its /64, the
 * block a single subscriber gets and changes addresses in.
 */
export function clientKeyOf(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (v4) return v4[1];
  if (!ip.includes(':') || ip.includes('.')) return ip.toLowerCase();
  const [head, tail, extra] = ip.toLowerCase().split('::');
  if (extra !== undefined) return ip.toLowerCase();
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  if (groups.length !== 8 || !groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return ip.toLowerCase();
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** A card number's keyed fingerprint: the same card gives the same text, which gives nothing back. */
export function cardFingerprint(key: Uint8Array, number: string): string {
  return createHmac('sha256', key).update(`card-fingerprint\0${number}`).digest('base64url').slice(0, 32);
}

function countedScopes(attempt: CardAttempt, fingerprint: string): Counted[] {
  const { sellerId, environment } = attempt.tenant;
  const tenant = `${sellerId}:${environment}`;
  const made = (scope: DeclineScope, principal: string): Counted => ({
    scope,
    principal: `decline:${scope}:${principal}`,
    limit: DECLINE_LIMITS[scope],
  });
  return [
    made(attempt.on.scope, `${tenant}:${attempt.on.id}`),
    made('card', `${tenant}:${fingerprint}`),
    made('ip', `${environment}:${clientKeyOf(attempt.client.ip)}`),
    made('seller', tenant),
  ];
}

/** A month before the current one (Sao Paulo) is a typing slip the buyer may be told of, before any charge. */
function refuseExpired(card: CardAttempt['card'], today: string) {
  const { expiryMonth: month, expiryYear: year } = card;
  if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(year)) return;
  const [y, m] = today.split('-').map(Number);
  const full = year < 100 ? 2000 + year : year;
  if (full < y || (full === y && month < m)) throw new ValidationError([EXPIRED_CARD_INPUT]);
}

async function requireProof(deps: CardGuardDeps, key: Uint8Array, client: CardClient, bits: number) {
  const now = deps.clock.now();
  const who = clientKeyOf(client.ip);
  const solved = solvedChallenge(key, client.proof, who, now);
  if (solved && solved.bits >= bits) {
    const lifetime = PROOF_OF_WORK.lifetimeSeconds * 1000;
    // One window spanning the challenge's whole life: a second use within it counts 2.
    const uses = await deps.rateLimits.hit(`proof:${solved.id}`, now, {
      index: 0,
      startsAt: new Date(solved.expiresAt - lifetime),
      resetsAt: new Date(solved.expiresAt),
    });
    if (uses === 1) return;
  }
  const challenge = issueChallenge(
    key,
    {
      bits,
      expiresAt: now.getTime() + PROOF_OF_WORK.lifetimeSeconds * 1000,
      id: deps.ids.prefixed('pow', 22),
    },
    who,
  );
  throw new PreconditionRequiredError(PROOF_OF_WORK_REQUIRED, 'proof_of_work_required', {
    [CHALLENGE_HEADER]: challenge,
  });
}

/**
 * Runs `charge` (the provider's attempt) when the guard lets the card through, and counts its
 * answer when `declined` says it was one. Refusals: 400 for an expiry already past, 429
 * `card_attempts_blocked` (Retry-After) while a scope is held or past the client's attempts of the
 * minute, 428 `proof_of_work_required` with a fresh challenge when a proof is due and missing,
 * wrong, too easy, expired or used before.
 */
export async function guardCardAttempt<T>(
  deps: CardGuardDeps,
  attempt: CardAttempt,
  charge: () => Promise<T>,
  declined: (result: T) => boolean,
): Promise<T> {
  const now = deps.clock.now();
  refuseExpired(attempt.card, saoPauloDate(now));
  const key = await deps.cardKeys.key();
  const scopes = countedScopes(attempt, cardFingerprint(key, attempt.card.number));
  const states = await deps.rateLimits.peek(
    scopes.map((s) => ({ principal: s.principal, window: fixedWindow(now, s.limit.windowSeconds) })),
    now,
  );
  const heldUntil = Math.max(0, ...states.map((state) => state.heldUntil?.getTime() ?? 0));
  if (heldUntil > now.getTime())
    throw new TooManyRequestsError(
      Math.ceil((heldUntil - now.getTime()) / 1000),
      'card_attempts_blocked',
      CARD_ATTEMPTS_BLOCKED,
    );
  const bits = proofBitsFor(states[scopes.findIndex((s) => s.scope === 'ip')].count);
  if (bits > 0) await requireProof(deps, key, attempt.client, bits);
  await countAttempt(deps, attempt);
  const result = await charge();
  if (declined(result)) await countDecline(deps, scopes);
  return result;
}

/** The client's attempts of the minute, counted before the charge: a burst stops at the limit. */
async function countAttempt(deps: CardGuardDeps, attempt: CardAttempt) {
  const now = deps.clock.now();
  const window = fixedWindow(now, CLIENT_ATTEMPTS.windowSeconds);
  const client = `${attempt.tenant.environment}:${clientKeyOf(attempt.client.ip)}`;
  const attempts = await deps.rateLimits.hit(`attempt:ip:${client}`, now, window);
  if (attempts > CLIENT_ATTEMPTS.attempts)
    throw new TooManyRequestsError(
      Math.max(1, Math.ceil((window.resetsAt.getTime() - now.getTime()) / 1000)),
      'card_attempts_blocked',
      CARD_ATTEMPTS_BLOCKED,
    );
}

async function countDecline(deps: CardGuardDeps, scopes: Counted[]) {
  const now = deps.clock.now();
  await Promise.all(
    scopes.map(async ({ principal, limit }) => {
      const count = await deps.rateLimits.hit(principal, now, fixedWindow(now, limit.windowSeconds));
      if (count >= limit.declines)
        await deps.rateLimits.hold(principal, new Date(now.getTime() + limit.coolDownSeconds * 1000));
    }),
  );
}
