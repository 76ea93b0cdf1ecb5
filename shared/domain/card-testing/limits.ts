/**
 * How many declined cards the public card forms take before they stop, per what the attempts share,
 * and for how long they stop (docs/decisions.md, "Card testing"). Declines only: an approved card,
 * a technical failure or a refused input costs a card tester nothing to learn from. Windows are
 * fixed, counted from the epoch; reaching the limit holds the scope for its cool-down from that
 * moment.
 */

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface DeclineLimit {
  declines: number;
  windowSeconds: number;
  coolDownSeconds: number;
}

export type DeclineScope = 'session' | 'charge' | 'portal' | 'link' | 'card' | 'ip' | 'seller';

export const DECLINE_LIMITS: Readonly<Record<DeclineScope, DeclineLimit>> = {
  /** One checkout session: one buyer, who rarely has more than two cards to try. */
  session: { declines: 5, windowSeconds: HOUR, coolDownSeconds: HOUR },
  /** One scheduled charge's pay links, as a session. */
  charge: { declines: 5, windowSeconds: HOUR, coolDownSeconds: HOUR },
  /** One customer portal session. */
  portal: { declines: 5, windowSeconds: HOUR, coolDownSeconds: HOUR },
  /** A product's payment link: every buyer of the product shares it. */
  link: { declines: 20, windowSeconds: HOUR, coolDownSeconds: 30 * MINUTE },
  /** One card number (its keyed fingerprint) at one seller: a tester guessing CVV or expiry. */
  card: { declines: 4, windowSeconds: DAY, coolDownSeconds: DAY },
  /** One client (an IPv4 address, an IPv6 /64), across sellers. */
  ip: { declines: 10, windowSeconds: HOUR, coolDownSeconds: HOUR },
  /** Every public card form of one seller: the circuit breaker of an attack from many clients. */
  seller: { declines: 100, windowSeconds: HOUR, coolDownSeconds: 30 * MINUTE },
};

/**
 * Card attempts, whatever their outcome, one client may start in a minute. Declines are counted when
 * the provider has answered, so a burst sent at once would all pass before the first is counted;
 * this count is taken before the provider sees the card, and cuts such a burst at 5.
 */
export const CLIENT_ATTEMPTS = { attempts: 5, windowSeconds: MINUTE } as const;

/**
 * Past this many declines of one client in its window, each further card needs a proof of work,
 * one bit harder per decline (16 bits: about 65 000 hashes, a second or so in a phone's browser).
 */
export const PROOF_OF_WORK = {
  afterDeclines: 3,
  baseBits: 16,
  maxBits: 20,
  lifetimeSeconds: 10 * MINUTE,
} as const;

/** The zero bits a client with `declines` in its window must find (0: no proof needed). */
export function proofBitsFor(declines: number): number {
  if (declines < PROOF_OF_WORK.afterDeclines) return 0;
  return Math.min(PROOF_OF_WORK.maxBits, PROOF_OF_WORK.baseBits + declines - PROOF_OF_WORK.afterDeclines);
}
