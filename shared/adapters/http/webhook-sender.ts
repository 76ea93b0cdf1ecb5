import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AttemptResult, WebhookSender } from '#shared/domain/ports';

/**
 * Connections kept open between deliveries to the same host, as fetch's pool did; a container
 * posts to few hosts, so the bound only matters when one of them is slow.
 */
const AGENTS = {
  'http:': new HttpAgent({ keepAlive: true, maxSockets: 50 }),
  'https:': new HttpsAgent({ keepAlive: true, maxSockets: 50 }),
} as const;
/** The most of an answer's body read (and thrown away) before its connection is closed instead. */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** What names a failed connection in the delivery log: the system code (ECONNREFUSED), else the error's name. */
const codeOf = (error: unknown) =>
  (error as NodeJS.ErrnoException | undefined)?.code ?? (error instanceof Error ? error.name : 'Error');

/**
 * POSTs a delivery with node:http(s). Redirects are not followed (a redirect to a private address
 * would get around the SSRF check): a 3xx is the answer. The status must arrive within the
 * timeout; the body is then read and thrown away (at most MAX_ANSWER_BYTES, within the same
 * timeout) so the connection can serve the next delivery. node:http rather than fetch: the same
 * POST costs about a quarter of fetch's CPU (0.09 against 0.41 ms, client and server, measured on
 * loopback), and a delivery function spends most of its CPU there (docs/decisions.md).
 */
export const httpSender: WebhookSender = {
  post(url, body, headers, timeoutMs): Promise<AttemptResult> {
    const started = performance.now();
    const durationMs = () => Math.round(performance.now() - started);
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const settle = (result: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const failed = (error: string) => settle({ statusCode: null, durationMs: durationMs(), error });
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return failed('connection failed (invalid URL)');
      }
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        return failed(`connection failed (unsupported protocol ${target.protocol})`);
      }
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(target, {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        agent: AGENTS[target.protocol],
      });
      timer = setTimeout(() => {
        failed(`no answer within ${timeoutMs} ms`);
        req.destroy();
      }, timeoutMs);
      req.on('response', (res: IncomingMessage) => {
        settle({ statusCode: res.statusCode ?? null, durationMs: durationMs(), error: null });
        discard(res, timeoutMs);
      });
      req.on('error', (error) => failed(`connection failed (${codeOf(error)})`));
      req.end(body);
    });
  },
};

/** Reads an answer's body to its end and drops it; a body too long or too slow closes the connection. */
function discard(res: IncomingMessage, timeoutMs: number) {
  let read = 0;
  const deadline = setTimeout(() => res.destroy(), timeoutMs);
  res.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > MAX_ANSWER_BYTES) res.destroy();
  });
  res.on('close', () => clearTimeout(deadline));
  res.on('error', () => undefined);
}
