import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, as Stripe signs.
 * During a secret rotation the header carries one v1 per valid secret. Exported for receivers.
 */
export const SIGNATURE_HEADER = 'x-signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

export function computeSignature(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

export function signatureHeader(secrets: string[], timestamp: number, rawBody: string): string {
  if (secrets.length === 0) throw new Error('at least one secret is needed to sign');
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${computeSignature(s, timestamp, rawBody)}`)].join(',');
}

export class SignatureVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignatureVerificationError';
  }
}

export function parseSignatureHeader(header: string): { timestamp: number; signatures: string[] } {
  let timestamp = Number.NaN;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && /^\d+$/.test(value ?? '')) timestamp = Number(value);
    if (key === 'v1' && /^[0-9a-f]{64}$/.test(value ?? '')) signatures.push(value);
  }
  if (!Number.isFinite(timestamp))
    throw new SignatureVerificationError('signature header has no valid timestamp');
  if (signatures.length === 0) throw new SignatureVerificationError('signature header has no v1 signature');
  return { timestamp, signatures };
}

/**
 * Verifies a delivery against one secret (or several while rotating). Rejects a timestamp more
 * than `toleranceSeconds` away from now, and compares in constant time. Returns the timestamp.
 */
export function verifySignature(options: {
  header: string | undefined | null;
  rawBody: string;
  secrets: string | string[];
  now?: Date;
  toleranceSeconds?: number;
}): number {
  if (!options.header) throw new SignatureVerificationError('missing signature header');
  const { timestamp, signatures } = parseSignatureHeader(options.header);
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - timestamp) > tolerance) {
    throw new SignatureVerificationError('signature timestamp is outside the tolerance');
  }
  const secrets = Array.isArray(options.secrets) ? options.secrets : [options.secrets];
  for (const secret of secrets) {
    const expected = Buffer.from(computeSignature(secret, timestamp, options.rawBody), 'hex');
    for (const candidate of signatures) {
      const given = Buffer.from(candidate, 'hex');
      if (given.length === expected.length && timingSafeEqual(given, expected)) return timestamp;
    }
  }
  throw new SignatureVerificationError('no signature matches');
}
