import { Agent, request } from 'node:http';

/** A request exactly as the fuzz test means it: the path is sent as given (escapes and all). */
export interface RawRequest {
  method: string;
  /** Path and query, already percent-encoded where the case wants it encoded. */
  path: string;
  headers: Record<string, string>;
  /** Sent as bytes, so no content type is added unless the case sets one. */
  body?: Buffer;
}

export interface RawAnswer {
  status: number;
  contentType: string;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: unknown;
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/**
 * Sends one request with node:http rather than fetch: fetch adds `text/plain` to a string body,
 * normalises the path and refuses some header values, and the cases need all three untouched.
 * Rejects only when no answer arrived at all (a refused request, a reset before the status line).
 */
export async function sendRaw(baseUrl: string, req: RawRequest): Promise<RawAnswer> {
  try {
    return await sendOnce(baseUrl, req);
  } catch (error) {
    // A kept-alive socket the server closed after its idle timeout (5 s in node:http) while the
    // test was scanning the table: the request never reached it, so it is sent again on a new one
    // (the retry node's documentation recommends). A reset on a fresh socket is still an error.
    if (error instanceof StaleSocketError) return sendOnce(baseUrl, req);
    throw error;
  }
}

class StaleSocketError extends Error {}

function sendOnce(baseUrl: string, req: RawRequest): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let answered = false;
    const headers: Record<string, string> = { ...req.headers };
    if (req.body !== undefined) headers['content-length'] = String(req.body.length);
    const outgoing = request(
      { host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const contentType = String(res.headers['content-type'] ?? '');
          let json: unknown;
          if (contentType.includes('json')) {
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
          }
          resolve({ status: res.statusCode ?? 0, contentType, text, json });
        });
      },
    );
    // The server may answer (413, 431) and close before the whole body is written.
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) return;
      reject(
        outgoing.reusedSocket && error.code === 'ECONNRESET'
          ? new StaleSocketError(`reused socket reset: ${error.message}`)
          : error,
      );
    });
    outgoing.end(req.body);
  });
}

export function closeRawAgent(): void {
  agent.destroy();
}
