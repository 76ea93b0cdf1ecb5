import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EXCERPT_BYTES, excerptOf, httpSender, MAX_ANSWER_BYTES } from '#shared/adapters/http/webhook-sender';
import {
  DELIVERY_TIMEOUT_MS,
  deliveryIdOf,
  processDeliveryMessage,
} from '#shared/domain/webhooks/deliveries';
import { FakeClock } from '../support/fakes/clock';
import { FakeDeliveryRepository } from '../support/fakes/delivery-repository';
import { FakeMetrics } from '../support/fakes/metrics';
import { FakeQueue } from '../support/fakes/queue';
import { FakeWebhookEndpointRepository } from '../support/fakes/webhook-endpoint-repository';

const servers: Server[] = [];
const tcpServers: TcpServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  for (const s of tcpServers.splice(0)) await new Promise((r) => s.close(r));
});

/**
 * A bare TCP listener on loopback that records every connection and the first bytes each sends
 * (a TLS ClientHello carries the server name in clear), then hangs up.
 */
async function listenRaw() {
  const received: Buffer[] = [];
  const server = createTcpServer((socket) => {
    socket.once('data', (chunk: Buffer) => {
      received.push(chunk);
      socket.destroy();
    });
    socket.on('error', () => undefined);
  });
  tcpServers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  let connections = 0;
  server.on('connection', () => {
    connections++;
  });
  return { port: (server.address() as AddressInfo).port, received, connections: () => connections };
}

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
/** A target checked to be this machine's loopback address, as the test servers listen there. */
const at = (url: string) => ({ url, addresses: ['127.0.0.1'] });
const BODY = JSON.stringify({ id: 'evt_1', event: 'transaction.paid', data: { valor: 'R$ 10,00' } });

describe('httpSender', () => {
  it('POSTs the body exactly, with the headers and its length, and answers the status', async () => {
    const { url, seen } = await serve((_req, res) => res.writeHead(204).end());

    const result = await httpSender.post(at(url), BODY, HEADERS, 5_000);

    expect(result).toEqual({
      statusCode: 204,
      durationMs: expect.any(Number),
      error: null,
      responseExcerpt: null,
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/hook', body: BODY });
    expect(seen[0].headers).toMatchObject({ ...HEADERS, 'content-length': String(Buffer.byteLength(BODY)) });
  });

  it('answers a 500 as the status, not an error, with its body as the excerpt', async () => {
    const { url } = await serve((_req, res) => res.writeHead(500).end('boom'));
    expect(await httpSender.post(at(url), BODY, HEADERS, 5_000)).toMatchObject({
      statusCode: 500,
      error: null,
      responseExcerpt: 'boom',
    });
  });

  it('keeps the first 500 characters of a longer answer, and the connection serves the next delivery', async () => {
    const long = `${'x'.repeat(EXCERPT_BYTES - 1)}yz${'w'.repeat(3_000)}`;
    const { url, seen, server } = await serve((_req, res) => res.writeHead(502).end(long));
    const sockets = new Set<number | undefined>();
    server.on('connection', (socket) => sockets.add(socket.remotePort));

    const first = await httpSender.post(at(url), BODY, HEADERS, 5_000);
    const second = await httpSender.post(at(url), BODY, HEADERS, 5_000);

    expect(EXCERPT_BYTES).toBe(500);
    expect(first).toMatchObject({ statusCode: 502, error: null, responseExcerpt: long.slice(0, 500) });
    expect(first.responseExcerpt).toHaveLength(500);
    expect(second).toMatchObject({ statusCode: 502, responseExcerpt: long.slice(0, 500) });
    expect(seen).toHaveLength(2);
    expect(sockets.size).toBe(1);
  });

  it('answers the status with the part of the body that came within the timeout', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(503);
      res.write('partial ');
    });

    expect(await httpSender.post(at(url), BODY, HEADERS, 200)).toMatchObject({
      statusCode: 503,
      error: null,
      responseExcerpt: 'partial ',
    });
  });

  it('does not follow a redirect: the 3xx is the answer and the other address gets nothing', async () => {
    const other = await serve((_req, res) => res.writeHead(200).end());
    const { url } = await serve((_req, res) => res.writeHead(302, { location: other.url }).end());

    expect(await httpSender.post(at(url), BODY, HEADERS, 5_000)).toMatchObject({
      statusCode: 302,
      error: null,
    });
    expect(other.seen).toEqual([]);
  });

  it('gives up on an endpoint that does not answer within the timeout', async () => {
    const { url } = await serve(() => undefined);

    const result = await httpSender.post(at(url), BODY, HEADERS, 150);

    expect(result).toEqual({
      statusCode: null,
      durationMs: expect.any(Number),
      error: 'no answer within 150 ms',
      responseExcerpt: null,
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(100);
  });

  it('names a refused connection by its code', async () => {
    const { url, server } = await serve(() => undefined);
    servers.splice(servers.indexOf(server), 1);
    await new Promise((r) => server.close(r));

    expect(await httpSender.post(at(url), BODY, HEADERS, 5_000)).toMatchObject({
      statusCode: null,
      error: 'connection failed (ECONNREFUSED)',
    });
  });

  it('refuses a URL it cannot post to without connecting', async () => {
    expect(await httpSender.post(at('ftp://example.com/x'), BODY, HEADERS, 5_000)).toMatchObject({
      statusCode: null,
      error: 'connection failed (unsupported protocol ftp:)',
    });
    expect(await httpSender.post(at('not a url'), BODY, HEADERS, 5_000)).toMatchObject({
      error: 'connection failed (invalid URL)',
    });
  });

  it('reuses the connection for the next delivery to the same host', async () => {
    const { url, seen } = await serve((_req, res) => res.writeHead(200).end('ok'));
    const sockets = new Set<string>();
    const server = servers[0];
    server.on('connection', (socket) => sockets.add(`${socket.remotePort}`));

    for (let i = 0; i < 3; i++) await httpSender.post(at(url), BODY, HEADERS, 5_000);

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

    expect(await httpSender.post(at(url), BODY, HEADERS, 5_000)).toMatchObject({
      statusCode: 200,
      error: null,
    });
    await socketClosed;
    expect(closed).toBe(true);
    expect(MAX_ANSWER_BYTES).toBe(64 * 1024);
  });
});

describe('excerptOf', () => {
  it('decodes UTF-8, leaves out a character cut at the end and the control characters, keeps lines', () => {
    const text = `ação\u0000\u001b[31m\r\n\tok\u202Eevil\u0085`;
    expect(excerptOf(Buffer.from(text))).toBe('ação[31m\n\tokevil');
    const cut = Buffer.concat([Buffer.alloc(EXCERPT_BYTES - 1, 'a'), Buffer.from('é')]);
    expect(excerptOf(cut)).toBe('a'.repeat(EXCERPT_BYTES - 1));
  });

  it('is null for no body or a body of control characters only', () => {
    expect(excerptOf(Buffer.alloc(0))).toBeNull();
    expect(excerptOf(Buffer.from('\u0000\u0007'))).toBeNull();
  });
});

describe('httpSender connects only to the checked addresses (DNS rebinding)', () => {
  it('reaches the checked address without resolving the host, and names the host in the Host header', async () => {
    const { seen, server } = await serve((_req, res) => res.writeHead(204).end());
    const port = (server.address() as AddressInfo).port;
    // `.invalid` never resolves (RFC 6761): only the checked address can take this request.
    const url = `http://hooks.invalid:${port}/hook`;

    const result = await httpSender.post({ url, addresses: ['127.0.0.1'] }, BODY, HEADERS, 5_000);

    expect(result).toMatchObject({ statusCode: 204, error: null });
    expect(seen).toHaveLength(1);
    expect(seen[0].headers.host).toBe(`hooks.invalid:${port}`);
  });

  it('never connects to what the host resolves to now when the check found another address', async () => {
    const loopback = await listenRaw();
    // localhost resolves to this listener; the check found an address that is not it.
    const url = `http://localhost:${loopback.port}/hook`;

    const result = await httpSender.post({ url, addresses: ['2001:db8::10'] }, BODY, HEADERS, 300);

    expect(result.statusCode).toBeNull();
    expect(loopback.connections()).toBe(0);
  });

  it('sends the URL host as the TLS server name while connecting to the checked address', async () => {
    const listener = await listenRaw();
    const url = `https://hooks.example.test:${listener.port}/hook`;

    const result = await httpSender.post({ url, addresses: ['127.0.0.1'] }, BODY, HEADERS, 5_000);

    // The listener hangs up after the ClientHello: no answer, but the hello named the URL's host.
    expect(result.statusCode).toBeNull();
    expect(listener.connections()).toBe(1);
    expect(listener.received[0].includes(Buffer.from('hooks.example.test'))).toBe(true);
  });

  it('refuses to connect when no checked address is given', async () => {
    const loopback = await listenRaw();
    const url = `http://localhost:${loopback.port}/hook`;

    const result = await httpSender.post({ url, addresses: [] }, BODY, HEADERS, 5_000);

    expect(result).toMatchObject({ statusCode: null, error: 'connection failed (ENOCHECKEDADDRESS)' });
    expect(loopback.connections()).toBe(0);
  });
});

describe('a delivery whose host answers a public address, then loopback (DNS rebinding)', () => {
  it(
    'posts to the address it checked and never connects to loopback',
    async () => {
      const loopback = await listenRaw();
      const now = '2026-03-10T15:00:00.000Z';
      const tenant = { sellerId: 7, environment: 'test' as const };
      const endpoints = new FakeWebhookEndpointRepository();
      await endpoints.create({
        id: 'we_Rebinding1',
        tenant,
        // localhost: a second lookup by the system resolver would answer loopback too.
        url: `https://localhost:${loopback.port}/hook`,
        events: ['*'],
        description: null,
        status: 'enabled',
        secret: 'whsec_rebinding',
        previousSecret: null,
        createdAt: now,
        updatedAt: now,
      });
      const deliveries = new FakeDeliveryRepository(endpoints);
      const deliveryId = deliveryIdOf('evt_000000000000000000000001', 'we_Rebinding1');
      deliveries.seed({
        id: deliveryId,
        tenant,
        endpointId: 'we_Rebinding1',
        eventId: 'evt_000000000000000000000001',
        eventName: 'product.updated',
        body: BODY,
        status: 'pending',
        scheduledAttempts: 0,
        manualAttempts: 0,
        lastStatusCode: null,
        lastDurationMs: null,
        lastError: null,
        lastResponseExcerpt: null,
        lastAttemptAt: null,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      });
      // The attacker's name server: a public address for the check, loopback for any lookup after it.
      const answers = [['2001:db8::10'], ['127.0.0.1']];
      const lookups: string[] = [];
      const urlPolicy = {
        allowLocalHttp: false,
        resolve: async (host: string) => {
          lookups.push(host);
          return answers.shift() ?? ['127.0.0.1'];
        },
      };

      const outcome = await processDeliveryMessage(
        {
          deliveries,
          endpoints,
          queue: new FakeQueue(),
          clock: new FakeClock(now),
          wallClock: new FakeClock(now),
          sender: httpSender,
          urlPolicy,
          metrics: new FakeMetrics(),
        },
        { deliveryId, sellerId: 7, environment: 'test', attempt: 1 },
      );

      expect(outcome).toBe('retry');
      expect(lookups).toEqual(['localhost']);
      expect(loopback.connections()).toBe(0);
      expect(deliveries.stored(tenant, deliveryId)?.lastStatusCode).toBeNull();
    },
    DELIVERY_TIMEOUT_MS * 3,
  );
});
