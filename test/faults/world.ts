import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { type DynamoLocal, freePort, localClient, startDynamoLocal } from '#infra/local/dynamodb-local';
import type { FaultPlan } from '../support/fake-asaas/server';

/**
 * The fault suite's world, every part in a process of its own as in production: the fake Asaas
 * (test/support/fake-asaas/main.ts), DynamoDB Local on a data folder, and the runtime (`npm start`'s
 * entry, infra/local/start.ts) as a process group pointed at both by its environment. Each part can
 * be killed and started again on the same data and port.
 */

const TABLE = 'payment-service';

/** Waits for the line containing `text` on the child's stdout; rejects if it exits first. */
function lineOf(child: ChildProcess, text: string, what: string, timeoutMs = 90_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`${what}: no "${text}" line in time: ${out}${err}`)),
      timeoutMs,
    );
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.includes(text));
      if (line) {
        clearTimeout(timer);
        resolve(line);
      }
    });
    child.stderr?.on('data', (chunk) => {
      err += chunk;
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code ?? signal}) before "${text}": ${out}${err}`));
    });
  });
}

function killGroup(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    return Promise.resolve();
  }
  return exited;
}

/** The fake Asaas in its own process, driven through its /__admin/ routes. */
export class FakeAsaasProcess {
  private child?: ChildProcess;
  baseUrl = '';
  private admin = '';

  async start(): Promise<this> {
    this.child = spawn('node', ['--import', 'tsx', 'test/support/fake-asaas/main.ts', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const line = await lineOf(this.child, 'fake asaas ready at', 'the fake Asaas', 30_000);
    this.baseUrl = line.slice(line.indexOf('http')).trim();
    this.admin = `${this.baseUrl.replace(/\/v3$/, '')}/__admin`;
    return this;
  }

  private async call(method: string, path: string, body?: unknown): Promise<any> {
    const res = await fetch(`${this.admin}/${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`fake Asaas admin ${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }

  addAccount = (apiKey: string, name: string) => this.call('POST', 'accounts', { apiKey, name });
  setWebhook = (apiKey: string, url: string, token: string) =>
    this.call('PUT', 'webhooks', { apiKey, url, token });
  faults = (plan: FaultPlan | null) =>
    plan ? this.call('PUT', 'faults', plan) : this.call('DELETE', 'faults');
  faultState = async (): Promise<{ plan: FaultPlan; hits: number } | null> =>
    (await this.call('GET', 'faults')).faults;
  pay = (paymentId: string) => this.call('POST', `payments/${paymentId}/pay`);

  async payments(): Promise<ProviderPayment[]> {
    return (await this.call('GET', 'payments')).data;
  }

  /** The charges and registrations the provider has received (POST /v3/payments), answered or not. */
  async paymentCalls(): Promise<number> {
    const requests: { method: string; path: string }[] = (await this.call('GET', 'requests')).data;
    return requests.filter((r) => r.method === 'POST' && r.path === '/v3/payments').length;
  }

  stop = () => killGroup(this.child);
}

export interface ProviderPayment {
  id: string;
  externalReference: string | null;
  status: string;
  billingType: string;
  value: number;
  refunds: { id: string; value: number; status: string }[] | null;
  deleted: boolean;
  dueDate: string;
  account: string;
  /** The cpfCnpj of the payment's customer: the suite gives each purchase a buyer of its own. */
  customerDocument: string;
}

/** DynamoDB Local on a data folder and a fixed port, so a restart serves the same data at the same endpoint. */
export class DynamoProcess {
  private dynamo?: DynamoLocal;
  port = 0;

  constructor(private readonly dataDir: string) {}

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    this.port ||= await freePort();
    this.dynamo = await startDynamoLocal({ dataDir: this.dataDir, port: this.port });
    return this;
  }

  /** SIGKILL: the JVM dies with whatever it was doing. */
  async kill(): Promise<void> {
    const pid = this.dynamo?.pid;
    if (pid === undefined) return;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await this.dynamo?.stop();
    this.dynamo = undefined;
  }

  stop = async () => {
    await this.dynamo?.stop();
    this.dynamo = undefined;
  };

  /** Every item of one entity (the suite reads the sandbox provider's own records this way). */
  async itemsOf(entity: string): Promise<Record<string, any>[]> {
    const client = localClient(this.endpoint);
    const doc = DynamoDBDocumentClient.from(client);
    const items: Record<string, any>[] = [];
    try {
      let start: Record<string, any> | undefined;
      do {
        const page = await doc.send(
          new ScanCommand({
            TableName: TABLE,
            FilterExpression: 'entity = :e',
            ExpressionAttributeValues: { ':e': entity },
            ExclusiveStartKey: start,
          }),
        );
        items.push(...(page.Items ?? []));
        start = page.LastEvaluatedKey;
      } while (start);
    } finally {
      client.destroy();
    }
    return items;
  }
}

export interface RuntimeEnvironment {
  port: number;
  dataDir: string;
  asaasBaseUrl: string;
  dynamoEndpoint: string;
}

/** The runtime as `npm start` runs it, a process group of its own, killed with SIGKILL. */
export class RuntimeProcess {
  private child?: ChildProcess;
  /** Every start's stdout and stderr, for the report of a failed run. */
  readonly output: string[] = [];
  starts = 0;

  constructor(private readonly env: RuntimeEnvironment) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.env.port}`;
  }

  /** Starts it; `throttle` (a share) makes its DynamoDB client throttle for this life. */
  async start(options: { throttle?: number; seed?: number } = {}): Promise<void> {
    this.starts += 1;
    const life = this.starts;
    this.child = spawn('node', ['--import', 'tsx', 'infra/local/start.ts'], {
      env: {
        ...process.env,
        PORT: String(this.env.port),
        LOCAL_DATA_DIR: this.env.dataDir,
        LOG_LEVEL: 'error',
        ASAAS_BASE_URL: this.env.asaasBaseUrl,
        LOCAL_DYNAMODB_ENDPOINT: this.env.dynamoEndpoint,
        LOCAL_DYNAMO_THROTTLE: options.throttle ? String(options.throttle) : '',
        LOCAL_DYNAMO_THROTTLE_SEED: String(options.seed ?? 1),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const keep = (chunk: Buffer) => this.output.push(`[life ${life}] ${chunk.toString().trimEnd()}`);
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    await lineOf(this.child, 'payment-service ready at', 'the runtime');
  }

  /** SIGKILL to the whole process group, whatever it is doing. */
  kill = () => killGroup(this.child);
}

export const dataPaths = (root: string) => ({ runtime: root, dynamo: join(root, 'dynamodb') });
