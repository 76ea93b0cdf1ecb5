import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeader } from '#events/signing';
import { REFERENCE_ASSETS } from '#functions/docs/routes';
import type { Runtime } from '#infra/local/runtime';
import { httpGroups } from '#infra/routes';
import { FAILED_AUTH_LIMIT } from '#shared/domain/auth/rate-limit';
import { cpfCheckDigits } from '#shared/domain/documents';
import { PAGE_ASSETS } from '#shared/domain/pages/asset-names';
import { notificationSchema } from '#shared/domain/transactions/notifications';
import { errorBodySchema } from '#shared/http/error-body';
import { type Route, routeKey } from '#shared/http/types';
import { type FakeAsaas, startFakeAsaas } from '../fake-asaas/server';
import { Receiver } from '../receiver';
import { client, logLines, startTestRuntime } from '../runtime';
import { caseArbitrary, type FuzzCase, paramsOf, type RouteFixture } from './cases';
import { inputSchemaOf } from './inputs';
import { closeRawAgent, type RawAnswer, type RawRequest, sendRaw } from './raw-http';
import { differences, type Snapshot, snapshot } from './table-snapshot';

/**
 * Issue 10: every route of httpGroups gets bad inputs derived from its own request schemas
 * (fast-check, fixed seed per route). Every answer must be below 500, every answer of 400 or more
 * must carry the error body with its own status, and a refused (4xx) request must write nothing.
 *
 * The routes are dealt round-robin to FUZZ_SHARDS test files (test/integration/fuzz-N.test.ts),
 * each with a runtime and table of its own: a write check scans the whole table, so one table
 * holding every route's fixtures made the scans (and the file) grow with the square of the routes.
 */
export const FUZZ_SHARDS = 4;
const SEED = 20_240_610;
/** Requests per rate window before the test clock moves on (the limit is 100 per minute). */
const WINDOW_BUDGET = 90;
/**
 * 401 answers per rate window before the test clock moves on: past FAILED_AUTH_LIMIT failed
 * authentications the client address gets 429 for the rest of the minute, which would hide the
 * answers the cases are about.
 */
const FAILURE_BUDGET = FAILED_AUTH_LIMIT;

let runtime: Runtime;
let api: ReturnType<typeof client>;
let receiver: Receiver;

interface Seller {
  sellerId: number;
  jwt: string;
  key: string;
}
let me: Seller;
let other: Seller;
/** Ids of the other seller's resources, per path parameter name and kind. */
const foreign: Record<string, string[]> = {};
/** The webhook endpoint with two deliveries, and their ids. */
let deliveredEndpoint: string;
let deliveryIds: string[] = [];
let sentSinceAdvance = 0;
let failedSinceAdvance = 0;
/** Whether the current rate window has room for one more case. */
const windowFull = () => sentSinceAdvance >= WINDOW_BUDGET || failedSinceAdvance >= FAILURE_BUDGET;

let nextDocument = 500_000_000 + Math.floor(Math.random() * 100_000_000);
const newCpf = () => {
  const base = String(nextDocument++);
  return `${base}${cpfCheckDigits(base)}`;
};
const buyer = () => ({
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: newCpf(),
  phone: '11987654321',
});
const card = {
  number: '4111111111111111',
  holderName: 'MARIA SOUZA',
  expiryMonth: 12,
  expiryYear: 2034,
  cvv: '123',
};

async function advance() {
  runtime.wallClock.skew(61);
  const res = await api.post('/api/test-helpers/clock/advance', { seconds: 61 });
  expect(res.status).toBe(200);
  sentSinceAdvance = 0;
  failedSinceAdvance = 0;
}

let scans = 0;
const scan = () => {
  scans++;
  return snapshot(runtime.deps.table);
};

/** Runs everything due now (stream, bus, fan-out, deliveries), so a snapshot sees a settled table. */
const settle = () => runtime.timeline.tick();

async function ok<T = any>(promise: Promise<{ status: number; body: any }>, what: string): Promise<T> {
  const res = await promise;
  sentSinceAdvance++;
  expect(res.status, `${what}: ${JSON.stringify(res.body).slice(0, 300)}`).toBeLessThan(300);
  return res.body as T;
}

async function newSeller(sellerId: number): Promise<Seller> {
  const jwt = await runtime.issuer.sign(sellerId, { now: runtime.clock.now() });
  const created = await ok(
    api.post('/api/api-keys', { name: 'fuzz', environment: 'test' }, { token: jwt }),
    'key',
  );
  return { sellerId, jwt, key: created.key };
}

/** Resources made through the API, as a client would make them. */
const make = {
  product: (s: Seller) =>
    ok(
      api.post(
        '/api/products',
        { name: 'Curso', image: 'https://cdn.example.com/c.png', value: 100, installments: 6 },
        { token: s.key },
      ),
      'product',
    ),
  transaction: async (s: Seller, paymentMethod: 'pix' | 'boleto' | 'creditcard') => {
    const product = await make.product(s);
    const extra = paymentMethod === 'creditcard' ? { card, installments: 1 } : {};
    return ok(
      api.post('/api/transactions', { productId: product.uuid, paymentMethod, customer: buyer(), ...extra }),
      'transaction',
    );
  },
  customer: (s: Seller) =>
    ok(
      api.post(
        '/api/v1/customers',
        { ...buyer(), name: 'Ana Souza', personType: 'fisica' },
        { token: s.key },
      ),
      'customer',
    ),
  /** A carnê of a product that accepts it, for a new customer (installment 1 registered). */
  installmentPlan: async (s: Seller) => {
    const product = await ok(
      api.post(
        '/api/products',
        { name: 'Curso', image: 'https://cdn.example.com/c.png', value: 100, carne: { enabled: true } },
        { token: s.key },
      ),
      'carnê product',
    );
    const customer = await make.customer(s);
    return ok(
      api.post(
        '/api/v1/installment-plans',
        { productId: product.uuid, customerId: customer.id, installments: 3 },
        { token: s.key },
      ),
      'installment plan',
    );
  },
  endpoint: (s: Seller) =>
    ok(
      api.post(
        '/api/webhook-endpoints',
        { url: receiver.url, events: ['product.updated'] },
        { token: s.key },
      ),
      'endpoint',
    ),
  apiKey: async (s: Seller) =>
    ok(
      api.post(
        '/api/api-keys',
        { name: `fuzz-${sentSinceAdvance}-${Date.now()}`, environment: 'test' },
        { token: s.jwt },
      ),
      'api key',
    ),
  testClock: (s: Seller) =>
    ok(
      api.post(
        '/api/test-helpers/test-clocks',
        { frozenTime: runtime.clock.now().toISOString() },
        { token: s.key },
      ),
      'test clock',
    ),
  cursorOf: async (path: string, s: Seller) => {
    const page = await ok(
      api.get(`${path}${path.includes('?') ? '&' : '?'}limit=1`, { token: s.key }),
      'page',
    );
    expect(page.nextCursor, `a second page of ${path}`).toEqual(expect.any(String));
    return page.nextCursor as string;
  },
};

// ---- fixtures per route --------------------------------------------------------------------

/** Fresh resources of the calling seller for one route, so a destructive route spoils no other. */
async function fixtureFor(route: Route): Promise<RouteFixture> {
  const real: Record<string, string[]> = {};
  const foreignIds: Record<string, string[]> = {};
  const fixture: RouteFixture = { real, foreign: foreignIds, foreignSellerId: other.sellerId };
  const params = paramsOf(route);
  const group = httpGroups.find((g) => g.routes.includes(route))?.name;
  const op = route.operationId;

  if (group === 'products' || op === 'createTransaction') {
    const product = await make.product(me);
    if (params.includes('id')) real.id = [String(product.id), product.uuid];
    if (params.includes('uuid')) real.uuid = [product.uuid];
    foreignIds.id = foreign.product;
    foreignIds.uuid = [foreign.product[1]];
    if (op === 'createTransaction')
      fixture.body = { productId: product.uuid, paymentMethod: 'pix', customer: buyer() };
  }
  if (op.endsWith('TestClock')) {
    // The clock routes name a test clock of the seller's (a fresh one: delete and advance spoil it).
    real.id = [(await make.testClock(me)).id];
    foreignIds.id = foreign.testClock;
  } else if (group === 'transactions' || group === 'test-helpers') {
    if (params.length > 0) {
      const pix = await make.transaction(me, 'pix');
      const paid = await make.transaction(me, 'creditcard');
      const boleto = await make.transaction(me, 'boleto');
      const all = [pix, paid, boleto];
      real.id =
        op === 'cancelTransactionByGatewayPayId'
          ? all.map((t) => String(t.gatewayPayId))
          : all.map((t) => String(t.id));
      real.uuid = all.map((t) => t.uuid);
      real.gatewayPayId =
        op === 'getSandboxBoletoPdf' ? [String(boleto.gatewayPayId)] : all.map((t) => String(t.gatewayPayId));
      if (op === 'getSandboxBoletoPdf')
        fixture.query = { token: new URL(boleto.boleto.pdfUrl).searchParams.get('token') ?? '' };
      foreignIds.id = op === 'cancelTransactionByGatewayPayId' ? foreign.gatewayPayId : foreign.transaction;
      foreignIds.uuid = foreign.charge;
      foreignIds.gatewayPayId = foreign.gatewayPayId;
    }
    if (op === 'handleProviderNotification') {
      const pix = await make.transaction(me, 'pix');
      fixture.bodySchema = inputSchemaOf(notificationSchema);
      fixture.body = {
        id: `ntf_fuzz_${pix.id}`,
        provider: 'sandbox',
        type: 'charge.paid',
        gatewayPayId: pix.gatewayPayId,
        occurredAt: runtime.clock.now().toISOString(),
      };
    }
    if (op === 'listCharges') {
      await make.transaction(me, 'pix');
      fixture.cursors = [await make.cursorOf('/api/v1/charges', me)];
    }
    if (op === 'refundTransaction') fixture.body = { amount: 1, reason: 'fuzz' };
    if (op === 'emitTestEvent') fixture.body = { event: 'product.updated' };
  }
  if (group === 'customers') {
    if (params.includes('uuid')) real.uuid = [(await make.customer(me)).uuid];
    foreignIds.uuid = foreign.customer;
    fixture.body = {
      createCustomer: { ...buyer(), name: 'Ana Souza', personType: 'fisica' },
      updateCustomer: { name: 'Ana S.' },
      setBillingEmailOverride: { billingEmailOverride: 'billing@example.com' },
    }[op];
  }
  if (group === 'webhook-endpoints') {
    if (op === 'resendWebhookDelivery') real.id = deliveryIds;
    else if (params.includes('id'))
      real.id =
        op === 'listWebhookDeliveries' || op === 'getWebhookEndpoint'
          ? [deliveredEndpoint]
          : [(await make.endpoint(me)).id];
    foreignIds.id = foreign.endpoint;
    if (op === 'listWebhookEndpoints') fixture.cursors = [await make.cursorOf('/api/webhook-endpoints', me)];
    if (op === 'listWebhookDeliveries')
      fixture.cursors = [await make.cursorOf(`/api/webhook-endpoints/${deliveredEndpoint}/deliveries`, me)];
    fixture.body = {
      createWebhookEndpoint: { url: receiver.url, events: ['product.updated'] },
      updateWebhookEndpoint: { description: 'fuzz' },
    }[op];
  }
  if (group === 'api-keys') {
    if (params.includes('id')) real.id = [(await make.apiKey(me)).id];
    foreignIds.id = foreign.apiKey;
    if (op === 'createApiKey') fixture.body = { name: 'fuzz', environment: 'test' };
  }
  if (group === 'installment-plans') {
    if (params.includes('uuid')) {
      const plan = await make.installmentPlan(me);
      real.uuid = [plan.uuid];
      fixture.body = op === 'createInstallmentPlan' ? undefined : {};
    }
    if (params.includes('number')) real.number = ['1', '2'];
    foreignIds.uuid = foreign.installmentPlan;
    if (op === 'createInstallmentPlan') {
      const plan = await make.installmentPlan(me);
      fixture.body = { productId: plan.product.uuid, customerId: plan.customer.id, installments: 2 };
    }
  }
  if (group === 'docs' && params.includes('file')) real.file = [...REFERENCE_ASSETS];
  if (group === 'pages' && params.includes('file')) real.file = [...PAGE_ASSETS];
  const productBodies: Record<string, unknown> = {
    createProduct: { name: 'Curso', image: 'https://cdn.example.com/c.png', value: 100 },
    updateProduct: { name: 'Curso 2', value: 120 },
    createProductPortalConfig: { businessName: 'Loja' },
    patchProductPortalConfig: { primaryColor: '#112233' },
    putSellerPortalConfig: { businessName: 'Loja' },
  };
  if (op in productBodies) fixture.body = productBodies[op];
  return fixture;
}

// ---- sending and checking ------------------------------------------------------------------

interface Sent {
  index: number;
  fuzz: FuzzCase;
  request: RawRequest;
}

interface Problem {
  kind: '5xx' | 'error body' | 'write' | 'no answer';
  sent: Sent;
  answer?: RawAnswer;
  note?: string;
}

function requestOf(route: Route, c: FuzzCase): RawRequest {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => c.params[name] ?? '') + c.query;
  const headers: Record<string, string> = {};
  const viaKey = route.auth.includes('apiKey');
  if (c.credential === 'default' && route.auth.length > 0) {
    headers.authorization = `Bearer ${viaKey ? me.key : me.jwt}`;
    if (!viaKey && route.auth.includes('panel')) headers['x-environment'] = 'test';
  } else if (c.credential === 'jwt') headers.authorization = `Bearer ${me.jwt}`;
  else if (typeof c.credential === 'object') headers.authorization = c.credential.authorization;
  Object.assign(headers, c.headers);
  if (c.body?.contentType !== undefined && c.body.contentType !== null)
    headers['content-type'] = c.body.contentType;
  if (c.signature && c.signature !== 'none') {
    const t = Math.floor(runtime.clock.now().getTime() / 1000);
    const text = c.body?.bytes.toString('utf8') ?? '';
    const secret = runtime.sandboxNotificationSecret;
    headers['x-signature'] =
      c.signature === 'garbage'
        ? 't=abc,v1=zz'
        : signatureHeader(
            [c.signature === 'wrong secret' ? 'not-the-secret' : secret],
            c.signature === 'stale' ? t - 3_600 : t,
            text,
          );
  }
  return { method: route.method, path, headers, body: c.body?.bytes };
}

const cut = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

function describeProblem(route: Route, p: Problem, similar: number): string {
  const { request } = p.sent;
  const body = request.body
    ? `${request.body.length} bytes${request.headers['content-type'] ? ` of ${request.headers['content-type']}` : ', no content type'}: ${cut(JSON.stringify(request.body.toString('utf8')), 400)}`
    : 'none';
  const credentials: Record<string, string> = {
    [`Bearer ${me.key}`]: `Bearer <sandbox key of seller ${me.sellerId}>`,
    [`Bearer ${me.jwt}`]: `Bearer <dashboard JWT of seller ${me.sellerId}>`,
  };
  const headers = Object.entries(request.headers)
    .map(([k, v]) => `${k}: ${credentials[v] ?? cut(v, 80)}`)
    .join('; ');
  return [
    `[${p.kind}] ${routeKey(route)} — ${p.sent.fuzz.family}: ${p.sent.fuzz.detail} (case ${p.sent.index}, seed ${seedOf(route)})${similar > 1 ? ` ×${similar} similar` : ''}`,
    `  request: ${request.method} ${cut(request.path, 300)}`,
    `  headers: ${headers || 'none'}`,
    `  body: ${body}`,
    `  answer: ${p.answer ? `${p.answer.status} ${cut(p.answer.text, 600)}` : 'none'}`,
    ...(p.note ? [`  ${p.note.split('\n').join('\n  ')}`] : []),
  ].join('\n');
}

/** One line per kind of failure (route, status, message), with the first case that showed it. */
function report(route: Route, problems: Problem[]): string[] {
  const groups = new Map<string, { first: Problem; count: number }>();
  for (const p of problems) {
    const message = (p.answer?.json as { message?: unknown } | undefined)?.message;
    // What went wrong and which kind of input did it: "body: malformed JSON", "query limit", …
    const input = `${p.sent.fuzz.family}: ${p.sent.fuzz.detail.split(/[:=]/)[0]}`;
    const key = `${p.kind}|${p.answer?.status}|${JSON.stringify(message)?.slice(0, 120)}|${input}`;
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { first: p, count: 1 });
  }
  return [...groups.values()].map((g) => describeProblem(route, g.first, g.count));
}

function seedOf(route: Route): number {
  let h = SEED;
  for (const ch of route.operationId) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

const runsOf = (route: Route) =>
  route.request?.body || route.operationId === 'handleProviderNotification'
    ? 60
    : route.request?.path || route.request?.query
      ? 40
      : 20;

/**
 * Snapshots the table once per run of 4xx answers (rate-limit, idempotency, counter and health
 * items aside: table-snapshot.ts). An answer below 400 may write, so it closes the run. When the
 * table changed across a run that held refusals, the run is sent again, and if that writes too,
 * each refusal alone between two snapshots, to name the one that wrote.
 */
class WriteWatch {
  private before: Snapshot = new Map();
  private refused: Sent[] = [];

  constructor(
    private readonly problems: Problem[],
    private readonly send: (s: Sent) => Promise<RawAnswer | undefined>,
  ) {}

  async open() {
    await settle();
    this.before = await scan();
    this.refused = [];
  }

  async record(sent: Sent, answer: RawAnswer) {
    if (answer.status >= 400 && answer.status < 500) this.refused.push(sent);
    else await this.close(true);
  }

  /** Closes the run: `allowed` when the last request answered below 400 (or 5xx) and may have written. */
  async close(allowed = false) {
    await settle();
    const after = await scan();
    const changed = differences(this.before, after);
    if (changed.length > 0 && this.refused.length > 0) {
      const culprits = await this.rerun(this.refused);
      if (culprits === 0 && !allowed)
        this.problems.push({
          kind: 'write',
          sent: this.refused[0],
          note: `the table changed across ${this.refused.length} refused requests (no single one repeated it):\n${changed.slice(0, 10).join('\n')}`,
        });
      await this.open();
      return;
    }
    this.before = after;
    this.refused = [];
  }

  /** Sends the run again as a whole, then (only if the table changed) one request at a time. */
  private async rerun(batch: Sent[]): Promise<number> {
    await advance();
    await settle();
    const before = await scan();
    for (const sent of batch) {
      if (windowFull()) await advance();
      await this.send(sent);
    }
    await settle();
    if (differences(before, await scan()).length === 0) return 0;
    let culprits = 0;
    await advance();
    for (const sent of batch) {
      if (windowFull()) await advance();
      await settle();
      const before = await scan();
      const answer = await this.send(sent);
      await settle();
      const changed = differences(before, await scan());
      if (answer && answer.status >= 400 && answer.status < 500 && changed.length > 0) {
        culprits++;
        this.problems.push({
          kind: 'write',
          sent,
          answer,
          note: `wrote:\n${changed.slice(0, 10).join('\n')}`,
        });
      }
    }
    return culprits;
  }
}

/** A status the route declares as raw content (a hosted page's HTML 404) is its answer, not an error body. */
function declaresRawAnswer(route: Route, status: number): boolean {
  const declared = route.responses[status];
  return typeof declared === 'object' && declared !== null && 'contentType' in declared;
}

/** Registers the fuzz cases of every FUZZ_SHARDS-th route from `shard` (0-based) on. */
export function fuzzShard(shard: number) {
  const routes = httpGroups.flatMap((g) => g.routes).filter((_, i) => i % FUZZ_SHARDS === shard);
  const summary: string[] = [];

  let asaas: FakeAsaas | undefined;
  beforeAll(async () => {
    // Asaas is the fake (no internet): a well-formed key it does not know is a 400, never a 503.
    asaas = await startFakeAsaas();
    runtime = await startTestRuntime({ asaasBaseUrl: asaas.baseUrl });
    api = client(runtime.baseUrl);
    receiver = await new Receiver().start();
    me = await newSeller(97_001);
    other = await newSeller(97_002);
    const [product, tx, customer, endpoint, key, plan, clock] = [
      await make.product(other),
      await make.transaction(other, 'pix'),
      await make.customer(other),
      await make.endpoint(other),
      await make.apiKey(other),
      await make.installmentPlan(other),
      await make.testClock(other),
    ];
    Object.assign(foreign, {
      product: [String(product.id), product.uuid],
      transaction: [String(tx.id)],
      gatewayPayId: [String(tx.gatewayPayId)],
      charge: [tx.uuid],
      customer: [customer.uuid],
      endpoint: [endpoint.id],
      apiKey: [key.id],
      installmentPlan: [plan.uuid],
      testClock: [clock.id],
    });
    await advance();
    deliveredEndpoint = (await make.endpoint(me)).id;
    await make.endpoint(me);
    for (let i = 0; i < 2; i++)
      await ok(
        api.post('/api/test-helpers/events', { event: 'product.updated' }, { token: me.key }),
        'event',
      );
    await settle();
    const deliveries = await ok(
      api.get(`/api/webhook-endpoints/${deliveredEndpoint}/deliveries`, { token: me.key }),
      'log',
    );
    deliveryIds = deliveries.data.map((d: { id: string }) => d.id);
    expect(deliveryIds).toHaveLength(2);
  }, 120_000);

  afterAll(async () => {
    closeRawAgent();
    await receiver?.stop();
    await runtime?.stop();
    await asaas?.stop();
  });

  if (shard === 0)
    it(`the fuzz-1 … fuzz-${FUZZ_SHARDS} test files cover every route`, () => {
      const files = readdirSync(new URL('../../integration/', import.meta.url)).filter((f) =>
        /^fuzz-\d+\.test\.ts$/.test(f),
      );
      expect(files.sort()).toEqual(
        Array.from({ length: FUZZ_SHARDS }, (_, i) => `fuzz-${i + 1}.test.ts`).sort(),
      );
    });

  describe('every route refuses bad input with a 4xx error body and writes nothing', () => {
    afterAll(() => {
      console.log(
        `fuzz cases per route, shard ${shard + 1} of ${FUZZ_SHARDS} (status: count)\n${summary.join('\n')}`,
      );
    });

    it.each(routes.map((r) => [routeKey(r), r] as const))(
      '%s',
      async (_, route) => {
        const scansBefore = scans;
        await advance();
        me.jwt = await runtime.issuer.sign(me.sellerId, { now: runtime.clock.now() });
        const fixture = await fixtureFor(route);
        await advance();
        const cases = fc.sample(caseArbitrary(route, fixture), {
          seed: seedOf(route),
          numRuns: runsOf(route),
        });
        const problems: Problem[] = [];
        const statuses: Record<number, number> = {};
        const pdf = route.operationId === 'getSandboxBoletoPdf';

        const send = async (sent: Sent): Promise<RawAnswer | undefined> => {
          sentSinceAdvance++;
          try {
            const answer = await sendRaw(runtime.baseUrl, sent.request);
            if (answer.status === 401) failedSinceAdvance++;
            return answer;
          } catch (error) {
            problems.push({ kind: 'no answer', sent, note: String(error) });
            return undefined;
          }
        };
        const watch = new WriteWatch(problems, send);
        await watch.open();

        for (const [index, fuzz] of cases.entries()) {
          if (windowFull()) {
            await watch.close();
            await advance();
            await watch.open();
          }
          const sent: Sent = { index, fuzz, request: requestOf(route, fuzz) };
          const mark = logLines.length;
          const answer = await send(sent);
          if (!answer) continue;
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          if (answer.status >= 500) {
            const log = logLines.slice(mark).filter((l) => l.includes('"level":"error"'));
            problems.push({
              kind: '5xx',
              sent,
              answer,
              note: log.map((l) => `log: ${cut(l, 1_500)}`).join('\n'),
            });
          } else if (answer.status >= 400 && !pdf && !declaresRawAnswer(route, answer.status)) {
            const shape = errorBodySchema.safeParse(answer.json);
            const same = shape.success && shape.data.statusCode === answer.status;
            if (!same)
              problems.push({
                kind: 'error body',
                sent,
                answer,
                note: shape.success
                  ? `statusCode ${shape.data.statusCode} ≠ ${answer.status}`
                  : shape.error.message,
              });
          }
          if (!pdf) await watch.record(sent, answer);
        }
        if (!pdf) await watch.close();

        const total = Object.values(statuses).reduce((a, b) => a + b, 0);
        summary.push(
          `${routeKey(route)}: ${cases.length} cases, ${JSON.stringify(statuses)}, ${scans - scansBefore} table scans`,
        );
        expect(report(route, problems)).toEqual([]);
        expect(statuses[429] ?? 0, 'rate-limited answers hide real ones').toBeLessThan(total / 2);
      },
      300_000,
    );
  });
}
