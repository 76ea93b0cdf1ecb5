import { seededRandom } from '#infra/local/seeded-random';
import { cpfCheckDigits } from '#shared/domain/documents';

/** What a client got for one request, after its retries. */
export interface Outcome {
  status: number;
  body: any;
}

export interface ClientLog {
  /** Requests whose retries ran out without a final answer (the client gave up). */
  gaveUp: string[];
  /** Every attempt's status (or `network`), by label, for the failure report. */
  attempts: Record<string, number>;
}

/** Answers a client retries with the same key: the service did not finish (or could not be reached). */
const retryable = (status: number, code?: string) =>
  status >= 500 || status === 429 || (status === 409 && code === 'idempotency_in_progress');

/**
 * A client as a seller's integration should be written: every POST carries an X-Idempotency-Key,
 * and a request that died (a dropped connection, a 5xx, a 429, a 409 while the first try still
 * holds the key) is sent again with the same key and body. The idempotency lease runs on the test
 * clock (60 s): a key held by a request the crash killed is freed by moving the clock past it.
 */
export class RetryingClient {
  readonly log: ClientLog = { gaveUp: [], attempts: {} };

  constructor(
    private readonly baseUrl: () => string,
    /** How long a client keeps retrying one request (wall clock) before it gives up. */
    private readonly patienceMs = 60_000,
  ) {}

  private count(label: string) {
    this.log.attempts[label] = (this.log.attempts[label] ?? 0) + 1;
  }

  async send(
    method: string,
    path: string,
    options: { token?: string; body?: unknown; key?: string; label: string },
  ): Promise<Outcome> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.key) headers['x-idempotency-key'] = options.key;
    // An attempt whose connection dropped died with the runtime: its key's lease can be passed at
    // once. Otherwise the first try may still be running, and only API Gateway's 30 s limit says
    // it is over.
    let died = false;
    let firstConflict: number | undefined;
    const giveUpAt = Date.now() + this.patienceMs;
    while (Date.now() < giveUpAt) {
      let status = 0;
      let body: any;
      try {
        const res = await fetch(`${this.baseUrl()}${path}`, {
          method,
          headers,
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
          signal: AbortSignal.timeout(45_000),
        });
        status = res.status;
        const text = await res.text();
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = text;
        }
      } catch {
        died = true;
        this.count(`${options.label} network`);
        await pause(300);
        continue;
      }
      this.count(
        `${options.label} ${status}${status >= 400 && body?.code ? ` ${body.code} ${JSON.stringify(body.message)}` : ''}`,
      );
      if (!retryable(status, body?.code)) return { status, body };
      if (status === 409) {
        firstConflict ??= Date.now();
        if (died || Date.now() - firstConflict > 32_000) await this.passLease();
        else await pause(1_000);
      } else await pause(status === 429 ? 1_000 : 300);
    }
    this.log.gaveUp.push(`${method} ${path} (${options.label})`);
    return { status: 0, body: undefined };
  }

  /** Moves the test clock past the idempotency lease a killed request left on its key. */
  private async passLease() {
    await fetch(`${this.baseUrl()}/api/test-helpers/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 61 }),
    }).catch(() => undefined);
  }
}

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A valid CPF from a number: each purchase gets a buyer of its own, so the provider's payments group by purchase. */
export function cpfOf(n: number): string {
  const base = String(100_000_000 + (n % 800_000_000));
  return `${base}${cpfCheckDigits(base)}`;
}

/**
 * The seeded plan of a run. The chaos draws its pauses in one sequence; the clients, which run side
 * by side, take keys and buyers by label and count (each label belongs to one client), so a seed
 * gives the same request the same key and buyer whatever the interleaving.
 */
export function planOf(seed: number) {
  const draw = seededRandom(seed);
  const between = (min: number, max: number) => Math.round(min + draw() * (max - min));
  const counters = new Map<string, number>();
  const nth = (label: string) => {
    const n = (counters.get(label) ?? 0) + 1;
    counters.set(label, n);
    return n;
  };
  return {
    between,
    key: (label: string) => `fault-${seed}-${label.replace(/\W+/g, '-')}-${nth(`key ${label}`)}`,
    /** A buyer number of its own for the label's next purchase. */
    buyer: (label: string) => hashOf(`${seed} ${label} ${nth(`buyer ${label}`)}`) % 800_000_000,
  };
}

/** FNV-1a, 32 bits. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}
