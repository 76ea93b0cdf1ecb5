import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { httpSender, MAX_ANSWER_BYTES } from '#shared/adapters/http/webhook-sender';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

interface Seen {
  method?: string;
  url?: string;
  headers: IncomingMessage['headers'];
  body: string;
}

async function serve(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      answer(req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, seen, server };
}

const HEADERS = {
  'content-type': 'application/json',
  'x-event-id': 'evt_1',
  'user-agent': 'payment-service-webhooks/1.0',
};
const BODY = JSON.stringify({ id: 'evt_1', event: 'transaction.paid', data: { valor: 'R$ 10,00' } });

describe('httpSender', () => {
  it('POSTs the body exactly, with the headers and its length, and answers the status', async () => {
    const { url, seen } = await serve((_req, res) => res.writeHead(204).end());

    const result = await httpSender.post(url, BODY, HEADERS, 5_000);

    expect(result).toEqual({ statusCode: 204, durationMs: expect.any(Number), error: null });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/hook', body: BODY });
    expect(seen[0].headers).toMatchObject({ ...HEADERS, 'content-length': String(Buffer.byteLength(BODY)) });
  });

  it('answers a 500 as the status, not an error', async () => {
    const { url } = await serve((_req, res) => res.writeHead(500).end('boom'));
    expect(await httpSender.post(url, BODY, HEADERS, 5_000)).toMatchObject({ statusCode: 500, error: null });
  });

  it('does not follow a redirect: the 3xx is the answer and the other address gets nothing', async () => {
    const other = await serve((_req, res) => res.writeHead(200).end());
    const { url } = await serve((_req, res) => res.writeHead(302, { location: other.url }).end());

    expect(await httpSender.post(url, BODY, HEADERS, 5_000)).toMatchObject({ statusCode: 302, error: null });
    expect(other.seen).toEqual([]);
  });

  it('gives up on an endpoint that does not answer within the timeout', async () => {
    const { url } = await serve(() => undefined);

    const result = await httpSender.post(url, BODY, HEADERS, 150);

    expect(result).toEqual({
      statusCode: null,
      durationMs: expect.any(Number),
      error: 'no answer within 150 ms',
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(100);
  });

  it('names a refused connection by its code', async () => {
    const { url, server } = await serve(() => undefined);
    servers.splice(servers.indexOf(server), 1);
    await new Promise((r) => server.close(r));

    expect(await httpSender.post(url, BODY, HEADERS, 5_000)).toMatchObject({
      statusCode: null,
      error: 'connection failed (ECONNREFUSED)',
    });
  });

  it('refuses a URL it cannot post to without connecting', async () => {
    expect(await httpSender.post('ftp://example.com/x', BODY, HEADERS, 5_000)).toMatchObject({
      statusCode: null,
      error: 'connection failed (unsupported protocol ftp:)',
    });
    expect(await httpSender.post('not a url', BODY, HEADERS, 5_000)).toMatchObject({
      error: 'connection failed (invalid URL)',
    });
  });

  it('reuses the connection for the next delivery to the same host', async () => {
    const { url, seen } = await serve((_req, res) => res.writeHead(200).end('ok'));
    const sockets = new Set<string>();
    const server = servers[0];
    server.on('connection', (socket) => sockets.add(`${socket.remotePort}`));

    for (let i = 0; i < 3; i++) await httpSender.post(url, BODY, HEADERS, 5_000);

    expect(seen).toHaveLength(3);
    expect(sockets.size).toBe(1);
  });

  it('answers at the status and closes a connection whose body runs past MAX_ANSWER_BYTES', async () => {
    let closed = false;
    let onClose: () => void = () => undefined;
    const socketClosed = new Promise<void>((r) => {
      onClose = r;
    });
    const { url } = await serve((req, res) => {
      req.socket.on('close', () => {
        closed = true;
        onClose();
      });
      res.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 'a');
      const push = () => {
        if (res.destroyed || closed) return;
        res.write(chunk, () => setImmediate(push));
      };
      push();
    });

    expect(await httpSender.post(url, BODY, HEADERS, 5_000)).toMatchObject({ statusCode: 200, error: null });
    await socketClosed;
    expect(closed).toBe(true);
    expect(MAX_ANSWER_BYTES).toBe(64 * 1024);
  });
});
