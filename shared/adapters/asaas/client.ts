import type { ProviderCredentials, ProviderEnvironment } from '#shared/domain/ports/provider-connections';
import { CircuitBreaker, type CircuitBreakerOptions } from '../http/circuit-breaker';

/** docs.asaas.com "Authentication": one base URL per environment; the key goes in `access_token`. */
export const ASAAS_BASE_URLS: Readonly<Record<ProviderEnvironment, string>> = {
  sandbox: 'https://api-sandbox.asaas.com/v3',
  production: 'https://api.asaas.com/v3',
};

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface AsaasClientOptions {
  /** The tests point both environments at the local fake. */
  baseUrls?: Partial<Record<ProviderEnvironment, string>>;
  fetch?: FetchLike;
  timeoutMs?: number;
  /** Attempts of a request answered 429 before giving up (docs: "API limits"). */
  maxAttempts?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** The circuit breaker of each base URL (threshold, open period, its wall clock). */
  breaker?: CircuitBreakerOptions;
}

/** One error of the provider's 4xx body: `{ errors: [{ code, description }] }` (docs: HTTP response codes). */
export interface AsaasErrorItem {
  code: string;
  description: string;
}

/** The provider refused the request (4xx other than 429): its errors, as it sent them. */
export class AsaasRefusal extends Error {
  constructor(
    readonly status: number,
    readonly errors: AsaasErrorItem[],
  ) {
    super(`asaas refused the request (${status}: ${errors.map((e) => e.code).join(', ') || 'no code'})`);
    this.name = 'AsaasRefusal';
  }
}

/**
 * The provider could not answer: a timeout, a network failure, a 5xx or a 429 that outlived the
 * backoff. Never a decline: the charge's outcome is unknown, so callers report `errored`.
 */
export class AsaasUnavailable extends Error {
  constructor(
    /** `circuit_open`: the request was never sent (../http/circuit-breaker), so nothing happened. */
    readonly reason: 'timeout' | 'network' | 'server_error' | 'rate_limited' | 'circuit_open',
    readonly status?: number,
  ) {
    super(`asaas unavailable (${reason}${status ? ` ${status}` : ''})`);
    this.name = 'AsaasUnavailable';
  }
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_ATTEMPTS = 3;
/** A health check answers within API Gateway's patience, whatever the provider does. */
const PING_TIMEOUT_MS = 3_000;
const MAX_BACKOFF_MS = 5_000;

/** Money travels as decimal Reais in the provider's JSON; this marks a value to be written raw. */
export class Reais {
  constructor(readonly centavos: number) {}
  toJSON() {
    return `__reais:${this.centavos}`;
  }
}

/** Integer centavos as a JSON decimal number, digit by digit (never a float division). */
export function reaisText(centavos: number): string {
  const sign = centavos < 0 ? '-' : '';
  const abs = Math.abs(centavos);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** The provider's decimal Reais (a JSON number) as integer centavos, read from its decimal text. */
export function centavosOf(value: unknown): number {
  const text = typeof value === 'number' ? value.toFixed(2) : String(value ?? '0');
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?/.exec(text);
  if (!match) return 0;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '0').padEnd(2, '0'));
  return match[1] === '-' ? -cents : cents;
}

export const encodeBody = (body: unknown) =>
  JSON.stringify(body).replace(/"__reais:(-?\d+)"/g, (_m, c: string) => reaisText(Number(c)));

/** HTTP to Asaas API v3 for one seller's credentials: timeout, 429 backoff, no secret in any error. */
export class AsaasClient {
  /** One breaker per base URL: two environments pointed at one endpoint share it. */
  private readonly breakers = new Map<string, CircuitBreaker>();

  constructor(private readonly options: AsaasClientOptions = {}) {}

  baseUrl(environment: ProviderEnvironment): string {
    return this.options.baseUrls?.[environment] ?? ASAAS_BASE_URLS[environment];
  }

  private breaker(environment: ProviderEnvironment): CircuitBreaker {
    const url = this.baseUrl(environment);
    let breaker = this.breakers.get(url);
    if (!breaker) {
      breaker = new CircuitBreaker(this.options.breaker);
      this.breakers.set(url, breaker);
    }
    return breaker;
  }

  /**
   * Throws `circuit_open` while the environment's circuit refuses calls: what a money call checks
   * before it writes anything, so a provider that is down costs no record and no wait.
   */
  assertReachable(environment: ProviderEnvironment): void {
    if (this.breaker(environment).refuses()) throw new AsaasUnavailable('circuit_open');
  }

  /** The circuit of an environment's endpoint, for the health check. */
  circuit(environment: ProviderEnvironment) {
    return this.breaker(environment).state();
  }

  async request<T>(
    credentials: ProviderCredentials,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<T> {
    const attempts = this.options.maxAttempts ?? DEFAULT_ATTEMPTS;
    for (let attempt = 1; ; attempt++) {
      const res = await this.send(credentials, method, path, body);
      if (res.status === 429) {
        if (attempt >= attempts) throw new AsaasUnavailable('rate_limited', 429);
        await this.backoff(res, attempt);
        continue;
      }
      if (res.status >= 500) throw new AsaasUnavailable('server_error', res.status);
      const json = (await res.json().catch(() => ({}))) as { errors?: unknown };
      if (res.status >= 400) {
        const errors = Array.isArray(json?.errors) ? (json.errors as AsaasErrorItem[]) : [];
        throw new AsaasRefusal(res.status, errors);
      }
      return json as T;
    }
  }

  /**
   * Any HTTP answer below 500 proves the API is up (a 401 without a key included). It goes through
   * the circuit like any call: refused while open, the probe when half-open, a failure counted.
   */
  async ping(environment: ProviderEnvironment): Promise<number> {
    const res = await this.guarded(environment, () =>
      this.fetchWithTimeout(
        `${this.baseUrl(environment)}/myAccount/commercialInfo`,
        { method: 'GET', headers: { 'user-agent': 'payment-service' } },
        PING_TIMEOUT_MS,
      ),
    );
    return res.status;
  }

  private send(credentials: ProviderCredentials, method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = {
      access_token: credentials.apiKey,
      'user-agent': 'payment-service',
      accept: 'application/json',
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return this.guarded(credentials.environment, () =>
      this.fetchWithTimeout(`${this.baseUrl(credentials.environment)}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : encodeBody(body),
      }),
    );
  }

  /** One request through the endpoint's circuit: a timeout, a network failure or a 5xx counts against it. */
  private async guarded(environment: ProviderEnvironment, call: () => Promise<Response>): Promise<Response> {
    const breaker = this.breaker(environment);
    if (!breaker.tryCall()) throw new AsaasUnavailable('circuit_open');
    let res: Response;
    try {
      res = await call();
    } catch (error) {
      breaker.failed();
      throw error;
    }
    if (res.status >= 500) breaker.failed();
    else breaker.succeeded();
    return res;
  }

  private async fetchWithTimeout(url: string, init: RequestInit, timeoutMs?: number): Promise<Response> {
    const doFetch = this.options.fetch ?? ((u: string, i: RequestInit) => fetch(u, i));
    try {
      return await doFetch(url, {
        ...init,
        signal: AbortSignal.timeout(timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
    } catch (error) {
      const name = (error as { name?: string })?.name;
      throw new AsaasUnavailable(name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network');
    }
  }

  /** The provider's RateLimit-Reset (seconds) when it sends one, else exponential with full jitter. */
  private async backoff(res: Response, attempt: number) {
    const reset = Number(res.headers.get('ratelimit-reset'));
    const random = this.options.random ?? Math.random;
    const ms =
      Number.isFinite(reset) && reset > 0
        ? Math.min(reset * 1000, MAX_BACKOFF_MS)
        : Math.round(random() * Math.min(MAX_BACKOFF_MS, 200 * 2 ** attempt));
    await (this.options.sleep ?? ((t) => new Promise((r) => setTimeout(r, t))))(ms);
  }
}
