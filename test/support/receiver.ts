import { createServer, type IncomingMessage, type Server } from 'node:http';

export interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  json: any;
}

/** A webhook receiver on 127.0.0.1 whose answer each test decides (status, delay). */
export class Receiver {
  readonly received: Received[] = [];
  status = 200;
  delayMs = 0;
  /** The answer's body. */
  answer = 'ok';
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      this.received.push({ headers: req.headers, body, json });
      if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
      res.writeHead(this.status, { 'content-type': 'text/plain' });
      res.end(this.answer);
    });
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', () => r()));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
    return this;
  }

  async stop() {
    await new Promise<void>((r) => {
      this.server?.close(() => r());
      this.server?.closeAllConnections();
    });
  }
}

/** Polls an asynchronous check (an API read) until it holds, or fails after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
