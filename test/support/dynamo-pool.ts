import { createServer, type Server } from 'node:http';
import { type DynamoLocal, startDynamoLocal } from '#infra/local/dynamodb-local';

/**
 * DynamoDB Local for the test run, one fresh instance per test file.
 *
 * One shared instance got slower with everything written to it: DynamoDB Local keeps every
 * table's stream records in one store, and with 12,000 records written elsewhere a put took 3
 * times and an empty GetRecords 5 times as long as on a fresh instance (measured). Late files of
 * a full run took 10 to 16 times as long as alone and CI ran out of time. So each file leases an
 * instance of its own, and the pool keeps one started ahead (a start takes about 3.5 s) so that a
 * lease rarely waits; a released instance is stopped.
 */
export class DynamoPool {
  private spare?: Promise<DynamoLocal>;
  private readonly leased = new Map<string, DynamoLocal>();
  private closed = false;

  constructor(
    private readonly start: () => Promise<DynamoLocal> = () => startDynamoLocal({ dataDir: null }),
  ) {}

  private startSpare(): Promise<DynamoLocal> {
    const started = this.start();
    // A failed start surfaces at the lease that takes it, not as an unhandled rejection.
    started.catch(() => undefined);
    return started;
  }

  /** Starts the first spare now, so that the first lease finds it running. */
  warm(): void {
    this.spare ??= this.startSpare();
  }

  async lease(): Promise<string> {
    if (this.closed) throw new Error('the DynamoDB Local pool is closed');
    const next = this.spare ?? this.startSpare();
    this.spare = this.startSpare();
    const dynamo = await next;
    this.leased.set(dynamo.endpoint, dynamo);
    return dynamo.endpoint;
  }

  /** Stops a leased instance; an endpoint not leased (or released before) is ignored. */
  async release(endpoint: string): Promise<void> {
    const dynamo = this.leased.get(endpoint);
    if (!dynamo) return;
    this.leased.delete(endpoint);
    await dynamo.stop();
  }

  /** Stops every instance, the leased ones a crashed file never released and the spare. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.leased.values()];
    this.leased.clear();
    const spare = this.spare;
    this.spare = undefined;
    await Promise.all([
      ...all.map((d) => d.stop()),
      spare?.then(
        (d) => d.stop(),
        () => undefined,
      ),
    ]);
  }

  /**
   * The pool over loopback HTTP for the test workers (other processes): `POST /lease` answers
   * `{"endpoint": …}`, `POST /release` with `{"endpoint": …}` answers 204.
   */
  serve(): Promise<{ url: string; server: Server }> {
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        const answer = (status: number, payload?: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(payload === undefined ? undefined : JSON.stringify(payload));
        };
        const work =
          req.method === 'POST' && req.url === '/lease'
            ? this.lease().then((endpoint) => answer(200, { endpoint }))
            : req.method === 'POST' && req.url === '/release'
              ? this.release(String(JSON.parse(body || '{}').endpoint)).then(() => answer(204))
              : Promise.resolve(answer(404, { message: 'no such pool route' }));
        work.catch((error: unknown) => answer(500, { message: String(error) }));
      });
    });
    return new Promise((resolve) => {
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        const port = typeof address === 'object' && address ? address.port : 0;
        resolve({ url: `http://127.0.0.1:${port}`, server });
      });
    });
  }
}

/** A worker's side: leases an instance from the pool the global setup serves. */
export async function leaseDynamo(poolUrl: string): Promise<{ endpoint: string; release(): Promise<void> }> {
  const res = await fetch(`${poolUrl}/lease`, { method: 'POST' });
  const body = (await res.json()) as { endpoint?: string; message?: string };
  if (res.status !== 200 || !body.endpoint)
    throw new Error(`no DynamoDB Local from the test pool: ${body.message ?? res.status}`);
  const endpoint = body.endpoint;
  let released = false;
  return {
    endpoint,
    release: async () => {
      if (released) return;
      released = true;
      await fetch(`${poolUrl}/release`, { method: 'POST', body: JSON.stringify({ endpoint }) });
    },
  };
}
