import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
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
/** The first bytes of an answer kept as the delivery log's excerpt (at most as many characters). */
export const EXCERPT_BYTES = 500;

/**
 * Control characters (C0 and C1, but tab and line feed: the log shows the answer's lines) and the
 * bidirectional overrides that could make the excerpt read as something else.
 */
const UNSHOWN = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu;
const unshown = (c: string) => (c === '\n' || c === '\t' ? c : '');

/**
 * The excerpt of an answer's first bytes: UTF-8 (a character cut at the end is left out, an invalid
 * byte reads as U+FFFD), without the characters a log should not show; null when nothing is left.
 */
export function excerptOf(bytes: Buffer): string | null {
  const text = new TextDecoder('utf-8')
    .decode(bytes.subarray(0, EXCERPT_BYTES), { stream: true })
    .replace(UNSHOWN, unshown)
    .slice(0, EXCERPT_BYTES);
  return text.length > 0 ? text : null;
}

/** What names a failed connection in the delivery log: the system code (ECONNREFUSED), else the error's name. */
const codeOf = (error: unknown) =>
  (error as NodeJS.ErrnoException | undefined)?.code ?? (error instanceof Error ? error.name : 'Error');

/**
 * Answers the host's lookup with the addresses the delivery was checked against, never asking DNS:
 * the connection goes where the check looked. The host name stays the request's, so the Host
 * header, the TLS server name and the certificate check are the URL's.
 */
function checkedAddresses(addresses: readonly string[]): LookupFunction {
  const answers = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_host, options, callback) => {
    const usable = answers.filter((a) => a.family !== 0 && (!options.family || a.family === options.family));
    if (usable.length === 0) {
      const error: NodeJS.ErrnoException = new Error('no checked address');
      error.code = 'ENOCHECKEDADDRESS';
      callback(error, '', 0);
    } else if (options.all) callback(null, usable);
    else callback(null, usable[0].address, usable[0].family);
  };
}

/**
 * POSTs a delivery with node:http(s) to one of the target's checked addresses: DNS is not asked
 * again, so a name that answers another address by now cannot move the connection (a kept-alive
 * connection reused for the host goes to an address an earlier check passed). Redirects are not
 * followed (a redirect to a private address would get around the SSRF check): a 3xx is the answer. The status must arrive within the
 * timeout; the attempt then waits, within the same timeout, for the body's first EXCERPT_BYTES (what
 * came in time is the excerpt), and the rest is read and thrown away (at most MAX_ANSWER_BYTES,
 * within a timeout of its own) so the connection can serve the next delivery. node:http rather than fetch: the same
 * POST costs about a quarter of fetch's CPU (0.09 against 0.41 ms, client and server, measured on
 * loopback), and a delivery function spends most of its CPU there (docs/decisions.md).
 */
export const httpSender: WebhookSender = {
  post({ url, addresses }, body, headers, timeoutMs): Promise<AttemptResult> {
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
      const failed = (error: string) =>
        settle({ statusCode: null, durationMs: durationMs(), error, responseExcerpt: null });
      /** Settles with the status once it came and the excerpt read so far (set at the status). */
      let answered: (() => void) | undefined;
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
        lookup: checkedAddresses(addresses),
      });
      timer = setTimeout(() => {
        if (answered) return answered();
        failed(`no answer within ${timeoutMs} ms`);
        req.destroy();
      }, timeoutMs);
      req.on('response', (res: IncomingMessage) => {
        const answer = { statusCode: res.statusCode ?? null, durationMs: durationMs(), error: null };
        const head: Buffer[] = [];
        let kept = 0;
        const done = () => settle({ ...answer, responseExcerpt: excerptOf(Buffer.concat(head)) });
        answered = done;
        res.on('data', (chunk: Buffer) => {
          if (kept >= EXCERPT_BYTES) return;
          const part = chunk.subarray(0, EXCERPT_BYTES - kept);
          head.push(part);
          kept += part.length;
          if (kept >= EXCERPT_BYTES) done();
        });
        res.on('end', done);
        res.on('close', done);
        discard(res, timeoutMs);
      });
      // A connection lost after the status still answered: the excerpt is what came before.
      req.on('error', (error) => (answered ? answered() : failed(`connection failed (${codeOf(error)})`)));
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
