import { createHmac, timingSafeEqual } from 'node:crypto';
import { PaymentServiceError } from './errors.ts';
import type { components } from './schema.d.ts';

/**
 * Webhook verification. Every delivery is a POST whose `X-Signature` header is
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the endpoint's
 * `whsec_…` secret; during a secret rotation the header carries one `v1` per valid secret.
 * The signature covers the body's exact bytes, so it must be checked before anything parses it.
 */

/** The delivery's body: `{id, event, timestamp, data}`; de-duplicate by `id` (the same on every retry). */
export type WebhookEvent = components['schemas']['EventEnvelope'];

export const SIGNATURE_HEADER = 'x-signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;
export const SECRET_PREFIX = 'whsec_';

/** Which check refused a delivery. */
export type WebhookErrorCode =
  | 'missing_signature_header'
  | 'body_parsed_before_verification'
  | 'malformed_signature_header'
  | 'wrong_secret'
  | 'timestamp_outside_tolerance'
  | 'signature_mismatch'
  | 'body_too_large';

/** A delivery the check refused; `code` says which check, the message how to fix it. Answer it 400. */
export class WebhookVerificationError extends PaymentServiceError {
  constructor(
    readonly code: WebhookErrorCode,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** A body longer than the receiver reads (answered 413); deliveries are far smaller. */
export class BodyTooLargeError extends WebhookVerificationError {
  constructor(maxBytes: number) {
    super('body_too_large', `The body is longer than ${maxBytes} bytes, more than any delivery.`, 413);
  }
}

/** No X-Signature header: not a delivery of the service, or a proxy dropped the header. */
export class MissingSignatureHeaderError extends WebhookVerificationError {
  constructor() {
    super(
      'missing_signature_header',
      'No X-Signature header: the request is not a signed delivery of the payment service, or a proxy in between dropped the header.',
    );
  }
}

/** The body reached the check already parsed (an object), so its signed bytes are gone. */
export class BodyParsedError extends WebhookVerificationError {
  constructor(fix: string) {
    super(
      'body_parsed_before_verification',
      `The body was parsed before the signature check (it arrived as an object, not the raw bytes the signature covers). ${fix}`,
    );
  }
}

/** The header is there but has no `t=` timestamp or no `v1=` signature. */
export class MalformedSignatureHeaderError extends WebhookVerificationError {
  constructor(what: string) {
    super(
      'malformed_signature_header',
      `The X-Signature header ${what}; expected "t=<unix seconds>,v1=<hex>".`,
    );
  }
}

/** The secret given to the check cannot be an endpoint's signing secret. */
export class WrongSecretError extends WebhookVerificationError {
  constructor(message: string) {
    super('wrong_secret', message);
  }
}

/** The signature's time is further from now than the tolerance: a replay, or a clock out of sync. */
export class TimestampOutsideToleranceError extends WebhookVerificationError {
  constructor(
    readonly ageSeconds: number,
    readonly toleranceSeconds: number,
  ) {
    super(
      'timestamp_outside_tolerance',
      `The signature's timestamp is ${Math.abs(ageSeconds)} s ${ageSeconds >= 0 ? 'old' : 'in the future'}, outside the ${toleranceSeconds} s tolerance: a replayed delivery, or this machine's clock is off (sync it with NTP).`,
    );
  }
}

/** No `v1` matches: the body changed after signing, or the secret is another endpoint's. */
export class SignatureMismatchError extends WebhookVerificationError {
  constructor() {
    super(
      'signature_mismatch',
      "No signature matches the body with this secret: the body was changed after signing (re-serialised JSON, another charset, trimmed whitespace), or the secret is another endpoint's (each endpoint has its own whsec_ secret, shown when it is created or rotated).",
    );
  }
}

export interface VerifyWebhookOptions {
  /** The body exactly as received: a Buffer, Uint8Array or string, never a parsed object. */
  payload: string | Uint8Array | unknown;
  /** The X-Signature header's value. */
  header: string | string[] | null | undefined;
  /** The endpoint's `whsec_…` secret, or several while rotating. */
  secret: string | readonly string[];
  /** How far from now the signature's time may be. Default 300 s. */
  toleranceSeconds?: number;
  /** The time to check against; default now. */
  now?: Date;
}

/**
 * Checks a delivery and answers its event. Throws a WebhookVerificationError subclass naming the
 * check that failed: no header, a parsed body, a wrong secret, the timestamp outside the window,
 * or a signature that does not match.
 */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookEvent {
  const secrets = typeof options.secret === 'string' ? [options.secret] : [...(options.secret ?? [])];
  checkSecrets(secrets);
  const raw = rawBodyOf(options.payload);
  const header = Array.isArray(options.header) ? options.header.join(',') : options.header;
  if (!header) throw new MissingSignatureHeaderError();
  const { timestamp, signatures } = parseHeader(header);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - timestamp) > tolerance)
    throw new TimestampOutsideToleranceError(now - timestamp, tolerance);
  const signed = Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), raw]);
  const matches = secrets.some((secret) => {
    const expected = createHmac('sha256', secret).update(signed).digest();
    return signatures.some((candidate) => {
      const given = Buffer.from(candidate, 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  });
  if (!matches) throw new SignatureMismatchError();
  return JSON.parse(raw.toString('utf8')) as WebhookEvent;
}

/**
 * The check for a Fetch API `Request` (Next.js route handlers, Hono's `c.req.raw`, Bun, Deno):
 * reads the raw body itself, so call it before anything reads the request.
 *
 * ```ts
 * export async function POST(request: Request) {
 *   const event = await verifyRequest(request, process.env.WEBHOOK_SECRET!);
 * }
 * ```
 */
export async function verifyRequest(
  request: Request,
  secret: string | readonly string[],
  options: { toleranceSeconds?: number; now?: Date } = {},
): Promise<WebhookEvent> {
  checkSecrets(typeof secret === 'string' ? [secret] : [...secret]);
  if (request.bodyUsed) {
    throw new BodyParsedError(
      'The Request body was already read (request.json(), request.text() or a framework body parser) before verifyRequest; call verifyRequest first: it reads the raw body and answers the parsed event.',
    );
  }
  const payload = new Uint8Array(await request.arrayBuffer());
  return verifyWebhook({ payload, header: request.headers.get(SIGNATURE_HEADER), secret, ...options });
}

/**
 * A Fetch API handler that answers a refused delivery 400 with `{code, message}` and hands a
 * verified event to `handle` (whose Response, default 200, is the answer).
 */
export function webhookHandler(
  secret: string | readonly string[],
  handle: (event: WebhookEvent, request: Request) => unknown,
  options: { toleranceSeconds?: number } = {},
): (request: Request) => Promise<Response> {
  return async (request) => {
    let event: WebhookEvent;
    try {
      event = await verifyRequest(request, secret, options);
    } catch (error) {
      if (error instanceof WebhookVerificationError) return refusal(error);
      throw error;
    }
    const answer = await handle(event, request);
    return answer instanceof Response ? answer : new Response(null, { status: 200 });
  };
}

/** The answer to a refused delivery: 400 with the check's code and message. */
export function refusal(error: WebhookVerificationError): Response {
  return Response.json({ code: error.code, message: error.message }, { status: error.status });
}

function checkSecrets(secrets: string[]): void {
  if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s.trim() === '')) {
    throw new WrongSecretError(
      "No webhook secret was given (is the environment variable set?): pass the endpoint's whsec_ secret, shown when the endpoint is created or its secret rotated.",
    );
  }
  const other = secrets.find((s) => !s.startsWith(SECRET_PREFIX));
  if (other !== undefined) {
    const hint = /^(sk|pk)_(test|live)_/.test(other)
      ? ' It looks like an API key: the signing secret is a different value.'
      : '';
    throw new WrongSecretError(
      `The webhook secret does not start with "${SECRET_PREFIX}": pass the endpoint's signing secret (whsec_…, shown when the endpoint is created or its secret rotated), not its id or an API key.${hint}`,
    );
  }
}

function rawBodyOf(payload: unknown): Buffer {
  if (typeof payload === 'string') return Buffer.from(payload, 'utf8');
  if (payload instanceof Uint8Array)
    return Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  if (payload instanceof ArrayBuffer) return Buffer.from(payload);
  if (payload === undefined || payload === null) {
    throw new BodyParsedError(
      'No body reached the check: pass the raw request body (a Buffer or string) as payload.',
    );
  }
  throw new BodyParsedError(
    'Pass the raw body (a Buffer or string): in Express, express.raw({ type: "application/json" }) on the webhook route and no express.json() before it; in Fastify, register the fastifyWebhooks plugin in the route\'s scope.',
  );
}

function parseHeader(header: string): { timestamp: number; signatures: string[] } {
  let timestamp = Number.NaN;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value = ''] = part.trim().split('=', 2);
    if (key === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (!Number.isFinite(timestamp))
    throw new MalformedSignatureHeaderError('has no t=<unix seconds> timestamp');
  if (signatures.length === 0) throw new MalformedSignatureHeaderError('has no v1=<hex> signature');
  return { timestamp, signatures };
}
