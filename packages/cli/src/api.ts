import { CliError } from './config';

export interface ApiAnswer {
  status: number;
  body: any;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits this long at most for a 429's Retry-After (the service's windows are a minute). */
const MAX_RETRY_AFTER_MS = 65_000;

/**
 * The service's API with the logged-in key. A 429 (the key's 100 requests a minute, or the seller's
 * across its keys) is waited out and sent again: nothing was done, so resending is safe.
 */
export function apiClient(apiUrl: string, apiKey: string) {
  const base = apiUrl.replace(/\/+$/, '');
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(`${base}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${apiKey}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...headers,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (error) {
        throw new CliError(`Cannot reach ${base}: ${(error as Error).cause ?? (error as Error).message}`);
      }
      const text = await res.text();
      if (res.status === 429 && attempt < 10) {
        const seconds = Number(res.headers.get('retry-after') ?? '1');
        await pause(Math.min(MAX_RETRY_AFTER_MS, Math.max(1, seconds) * 1000));
        continue;
      }
      let parsed: unknown = text;
      try {
        parsed = text === '' ? null : JSON.parse(text);
      } catch {}
      return { status: res.status, body: parsed } as ApiAnswer;
    }
  }
  /** A call that must succeed: any other answer stops the command with the service's message. */
  async function expectOk(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
    const answer = await call(method, path, body, headers);
    if (answer.status >= 300) {
      const message = answer.body?.message ?? answer.body;
      throw new CliError(
        `${method} ${path} answered ${answer.status}: ${Array.isArray(message) ? message.join('; ') : JSON.stringify(message)}`,
      );
    }
    return answer.body;
  }
  return {
    call,
    get: (path: string) => expectOk('GET', path),
    post: (path: string, body: unknown = {}, headers?: Record<string, string>) =>
      expectOk('POST', path, body, headers),
    patch: (path: string, body: unknown) => expectOk('PATCH', path, body),
    put: (path: string, body: unknown) => expectOk('PUT', path, body),
    delete: (path: string) => expectOk('DELETE', path),
  };
}

export type Api = ReturnType<typeof apiClient>;
