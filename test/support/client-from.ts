import { request } from 'node:http';
import type { Call } from './runtime';

/**
 * The test client's calls, sent from a loopback address of their own: all of 127.0.0.0/8 is this
 * machine, so the runtime (listening on 127.0.0.1) sees each address as another client. What public
 * routes count per client (rate limits, card declines) can then be tested for one client apart
 * from the others.
 */
export function clientFrom(baseUrl: string, localAddress: string) {
  const url = new URL(baseUrl);
  const call = (
    method: string,
    path: string,
    options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Call> => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    return new Promise((resolve, reject) => {
      const req = request(
        // A connection per call: an idle kept-alive socket may be closed by the server under it.
        { host: url.hostname, port: url.port, path, method, headers, localAddress, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              parsed = text;
            }
            const answered = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (value !== undefined) answered.set(name, Array.isArray(value) ? value.join(', ') : value);
            }
            resolve({ status: res.statusCode ?? 0, body: parsed, headers: answered });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
  return {
    address: localAddress,
    call,
    get: (path: string, options?: Parameters<typeof call>[2]) => call('GET', path, options),
    post: (path: string, body?: unknown, options?: Parameters<typeof call>[2]) =>
      call('POST', path, { ...options, body }),
  };
}

let next = 0;

/** A loopback address no other test of this process used (127.1.0.0 onwards). */
export function freshLoopback(): string {
  const n = next++;
  return `127.1.${Math.floor(n / 250)}.${(n % 250) + 1}`;
}
