import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Hashcash for the public card forms. The server's challenge is stateless: its difficulty, expiry
 * and a random id, signed with the card-testing key and bound to the client it was issued to. The
 * page finds a decimal nonce such that SHA-256(challenge + nonce) starts with `bits` zero bits, and
 * sends `challenge:nonce` in the X-Proof-Of-Work header. Single use is the caller's job (by id).
 */

/** The request header that carries a solution, and the answer header that carries a challenge. */
export const PROOF_HEADER = 'x-proof-of-work';
export const CHALLENGE_HEADER = 'x-proof-of-work-challenge';

const VERSION = 'pow1';
const SHAPE = /^pow1\.(\d{1,2})\.(\d{13})\.([A-Za-z0-9_]{8,64})\.([A-Za-z0-9_-]{43})$/;
const NONCE = /^\d{1,16}$/;

export interface Challenge {
  bits: number;
  expiresAt: number;
  id: string;
}

function mac(key: Uint8Array, body: string, client: string): string {
  return createHmac('sha256', key).update(`proof-of-work\0${body}\0${client}`).digest('base64url');
}

export function issueChallenge(key: Uint8Array, challenge: Challenge, client: string): string {
  const body = `${VERSION}.${challenge.bits}.${challenge.expiresAt}.${challenge.id}`;
  return `${body}.${mac(key, body, client)}`;
}

/** How many zero bits `digest` starts with. */
export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

/**
 * The challenge a solution answers, when the header is one: well formed, signed for this client,
 * not expired at `now`, and its hash has the challenge's zero bits. Null for anything else.
 */
export function solvedChallenge(
  key: Uint8Array,
  header: string | undefined,
  client: string,
  now: Date,
): Challenge | null {
  if (!header || header.length > 200) return null;
  const cut = header.lastIndexOf(':');
  const [text, nonce] = [header.slice(0, cut), header.slice(cut + 1)];
  const parts = SHAPE.exec(text);
  if (cut < 0 || !parts || !NONCE.test(nonce)) return null;
  const expected = Buffer.from(mac(key, text.slice(0, text.lastIndexOf('.')), client));
  const given = Buffer.from(parts[4]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const challenge = { bits: Number(parts[1]), expiresAt: Number(parts[2]), id: parts[3] };
  if (challenge.expiresAt <= now.getTime()) return null;
  const digest = createHash('sha256').update(`${text}${nonce}`).digest();
  return leadingZeroBits(digest) >= challenge.bits ? challenge : null;
}
