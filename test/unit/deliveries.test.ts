import { createHmac } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Tenant } from '#shared/domain/tenant';
import {
  DELIVERY_FAILED_METRIC,
  type DeliveryDeps,
  type DeliveryMessage,
  deliveryIdOf,
  fanOut,
  fanOutBatch,
  MAX_ATTEMPTS,
  processDeliveryMessage,
  RETRY_DELAYS_SECONDS,
  USER_AGENT,
  type WebhookDelivery,
} from '#shared/domain/webhooks/deliveries';
import type { WebhookEndpoint } from '#shared/domain/webhooks/endpoints';
import { FakeClock } from '../support/fakes/clock';
import { FakeDeliveryRepository } from '../support/fakes/delivery-repository';
import { FakeMetrics } from '../support/fakes/metrics';
import { FakeQueue } from '../support/fakes/queue';
import { FakeUrlPolicy } from '../support/fakes/url-policy';
import { FakeWebhookEndpointRepository } from '../support/fakes/webhook-endpoint-repository';
import { FakeWebhookSender } from '../support/fakes/webhook-sender';

const NOW = '2026-03-10T15:00:00.000Z';
const T0 = Date.parse(NOW);
const TENANT: Tenant = { sellerId: 7, environment: 'test' };
const ENDPOINT_ID = 'we_Endpoint01';
const EVENT_ID = 'evt_000000000000000000000001';
const DELIVERY_ID = deliveryIdOf(EVENT_ID, ENDPOINT_ID);
const URL = 'https://hooks.example.com/payments';
const PUBLIC_ADDRESS = '93.184.216.34';
const SECRET = 'whsec_current';
const BODY = JSON.stringify({
  id: EVENT_ID,
  event: 'transaction.created',
  timestamp: NOW,
  data: { id: 1001, updatedAt: NOW },
});

const OK = { statusCode: 200, durationMs: 42, error: null, responseExcerpt: '{"received":true}' };
const SERVER_ERROR = {
  statusCode: 500,
  durationMs: 37,
  error: null,
  responseExcerpt: 'Internal Server Error',
};
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

let clock: FakeClock;
let endpoints: FakeWebhookEndpointRepository;
let deliveries: FakeDeliveryRepository;
let queue: FakeQueue;
let sender: FakeWebhookSender;
let urlPolicy: FakeUrlPolicy;
let metrics: FakeMetrics;
let deps: DeliveryDeps;

function endpoint(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: ENDPOINT_ID,
    tenant: TENANT,
    url: URL,
    events: ['transaction.created'],
    description: null,
    status: 'enabled',
    secret: SECRET,
    previousSecret: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function delivery(overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: DELIVERY_ID,
    tenant: TENANT,
    endpointId: ENDPOINT_ID,
    eventId: EVENT_ID,
    eventName: 'transaction.created',
    body: BODY,
    status: 'pending',
    scheduledAttempts: 0,
    manualAttempts: 0,
    lastStatusCode: null,
    lastDurationMs: null,
    lastError: null,
    lastResponseExcerpt: null,
    lastAttemptAt: null,
    nextAttemptAt: NOW,
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

const message = (attempt: number): DeliveryMessage => ({
  deliveryId: DELIVERY_ID,
  sellerId: TENANT.sellerId,
  environment: TENANT.environment,
  attempt,
});

const stored = () => deliveries.stored(TENANT, DELIVERY_ID);

/** The delivery after a first attempt answered 200 (OK). */
const succeededAtFirst = () =>
  delivery({
    status: 'succeeded',
    scheduledAttempts: 1,
    lastStatusCode: 200,
    lastDurationMs: 42,
    lastError: null,
    lastResponseExcerpt: '{"received":true}',
    lastAttemptAt: NOW,
    nextAttemptAt: null,
    updatedAt: NOW,
  });

beforeEach(async () => {
  clock = new FakeClock(NOW);
  endpoints = new FakeWebhookEndpointRepository();
  await endpoints.create(endpoint());
  deliveries = new FakeDeliveryRepository(endpoints);
  deliveries.seed(delivery());
  queue = new FakeQueue();
  sender = new FakeWebhookSender(OK);
  urlPolicy = new FakeUrlPolicy({ 'hooks.example.com': [PUBLIC_ADDRESS] });
  metrics = new FakeMetrics();
  deps = { deliveries, endpoints, queue, clock, wallClock: clock, sender, urlPolicy, metrics };
});

describe('processDeliveryMessage on success', () => {
  it('posts the stored body, signed, with the event headers and the 5 s timeout', async () => {
    await processDeliveryMessage(deps, message(1));

    const timestamp = T0 / 1000;
    const v1 = createHmac('sha256', SECRET).update(`${timestamp}.${BODY}`).digest('hex');
    expect(sender.requests).toEqual([
      {
        url: URL,
        addresses: [PUBLIC_ADDRESS],
        body: BODY,
        headers: {
          'content-type': 'application/json',
          'x-signature': `t=${timestamp},v1=${v1}`,
          'x-event-id': EVENT_ID,
          'x-event-type': 'transaction.created',
          'user-agent': USER_AGENT,
        },
        timeoutMs: 5_000,
      },
    ]);
  });

  it('marks the delivery succeeded with the outcome of the attempt and queues nothing', async () => {
    const outcome = await processDeliveryMessage(deps, message(1));

    expect(outcome).toBe('succeeded');
    expect(stored()).toEqual(succeededAtFirst());
    expect(queue.sent).toEqual([]);
    expect(metrics.counts.size).toBe(0);
  });

  it('signs with both secrets while a rotated secret is in its overlap', async () => {
    await endpoints.update(TENANT, ENDPOINT_ID, {
      previousSecret: { secret: 'whsec_old', expiresAt: at(60) },
      updatedAt: NOW,
    });

    await processDeliveryMessage(deps, message(1));

    const timestamp = T0 / 1000;
    const sign = (secret: string) =>
      createHmac('sha256', secret).update(`${timestamp}.${BODY}`).digest('hex');
    expect(sender.requests[0].headers['x-signature']).toBe(
      `t=${timestamp},v1=${sign(SECRET)},v1=${sign('whsec_old')}`,
    );
  });

  it('signs with the time of the wall clock, which a receiver checks, not the business clock', async () => {
    clock.advanceSeconds(32 * 86_400);
    const wall = new FakeClock(NOW);
    await processDeliveryMessage({ ...deps, wallClock: wall }, message(1));

    const timestamp = T0 / 1000;
    const v1 = createHmac('sha256', SECRET).update(`${timestamp}.${BODY}`).digest('hex');
    expect(sender.requests[0].headers['x-signature']).toBe(`t=${timestamp},v1=${v1}`);
  });
});

describe('processDeliveryMessage on a failed attempt', () => {
  it('re-queues the next attempt one minute later and keeps the delivery pending', async () => {
    sender.answer(SERVER_ERROR);

    const outcome = await processDeliveryMessage(deps, message(1));

    expect(outcome).toBe('retry');
    expect(queue.messages()).toEqual([
      {
        body: { deliveryId: DELIVERY_ID, sellerId: 7, environment: 'test', attempt: 2 },
        delaySeconds: 60,
      },
    ]);
    expect(stored()).toEqual(
      delivery({
        status: 'pending',
        scheduledAttempts: 1,
        lastStatusCode: 500,
        lastDurationMs: 37,
        lastError: null,
        lastResponseExcerpt: 'Internal Server Error',
        lastAttemptAt: NOW,
        nextAttemptAt: at(60),
        updatedAt: NOW,
      }),
    );
  });

  it.each([
    ['a redirect', { statusCode: 302, durationMs: 10, error: null, responseExcerpt: 'Moved' }],
    [
      'a timeout',
      { statusCode: null, durationMs: 5_000, error: 'timed out after 5000 ms', responseExcerpt: null },
    ],
  ])('treats %s as a failure', async (_name, result) => {
    sender.answer(result);

    expect(await processDeliveryMessage(deps, message(1))).toBe('retry');
    expect(stored()).toMatchObject({
      status: 'pending',
      lastStatusCode: result.statusCode,
      lastError: result.error,
      lastResponseExcerpt: result.responseExcerpt,
    });
  });

  it('waits 1m, 5m, 30m, 2h, 8h, 16h between attempts, in SQS hops of at most 900 s', async () => {
    expect(RETRY_DELAYS_SECONDS).toEqual([60, 300, 1_800, 7_200, 28_800, 57_600]);
    sender.answer(SERVER_ERROR);
    const outcomes: string[] = [];
    let next: DeliveryMessage = message(1);
    for (let step = 0; step < 500; step++) {
      outcomes.push(await processDeliveryMessage(deps, next));
      const sent = queue.sent.at(-1);
      if (outcomes.at(-1) === 'failed' || !sent) break;
      queue.sent.length = 0;
      expect(sent.delaySeconds).toBeLessThanOrEqual(900);
      clock.advanceSeconds(sent.delaySeconds ?? 0);
      next = JSON.parse(sent.body) as DeliveryMessage;
    }

    // Attempts happen at the cumulative delays: 0, 1m, 6m, 36m, 2h36m, 10h36m, 26h36m.
    const attemptTimes = sender.requests.map(
      (r) => Number(/^t=(\d+),/.exec(r.headers['x-signature'])?.[1]) - T0 / 1000,
    );
    expect(attemptTimes).toEqual([0, 60, 360, 2_160, 9_360, 38_160, 95_760]);
    // A wait of n seconds past 900 is reached with ceil(n / 900) - 1 hops before the attempt.
    const hopsBetweenAttempts = outcomes
      .join(',')
      .split(/retry|failed/)
      .slice(1, -1)
      .map((run) => run.split('hop').length - 1);
    expect(hopsBetweenAttempts).toEqual([0, 0, 1, 7, 31, 63]);
    expect(outcomes.filter((o) => o === 'retry')).toHaveLength(6);
    expect(outcomes.at(-1)).toBe('failed');
  });

  it('hops without posting when the message arrives before the attempt is due', async () => {
    deliveries.seed(delivery({ scheduledAttempts: 3, nextAttemptAt: at(1_000) }));

    const outcome = await processDeliveryMessage(deps, message(4));

    expect(outcome).toBe('hop');
    expect(sender.requests).toEqual([]);
    expect(queue.messages()).toEqual([
      {
        body: { deliveryId: DELIVERY_ID, sellerId: 7, environment: 'test', attempt: 4 },
        delaySeconds: 900,
      },
    ]);
    expect(stored()).toEqual(delivery({ scheduledAttempts: 3, nextAttemptAt: at(1_000) }));
  });

  it('hops for the rest of the wait, rounded up to the second, when under 900 s remain', async () => {
    deliveries.seed(delivery({ scheduledAttempts: 3, nextAttemptAt: at(99.2) }));

    await processDeliveryMessage(deps, message(4));

    expect(queue.sent.map((m) => m.delaySeconds)).toEqual([100]);
  });

  it('measures the next wait from when the attempt was due, not from when it ran', async () => {
    deliveries.seed(delivery({ scheduledAttempts: 1, nextAttemptAt: at(-20) }));
    sender.answer(SERVER_ERROR);

    await processDeliveryMessage(deps, message(2));

    // Due 20 s ago; the 5 minute wait ends 280 s from now.
    expect(stored()?.nextAttemptAt).toBe(at(280));
    expect(queue.sent.map((m) => m.delaySeconds)).toEqual([280]);
  });
});

describe('processDeliveryMessage on the last attempt', () => {
  beforeEach(() => {
    sender.answer(SERVER_ERROR);
  });

  it('schedules the 16 h retry after the sixth failure (seven attempts in all, docs/decisions.md)', async () => {
    expect(MAX_ATTEMPTS).toBe(7);
    deliveries.seed(delivery({ scheduledAttempts: 5 }));

    const outcome = await processDeliveryMessage(deps, message(6));

    expect(outcome).toBe('retry');
    expect(stored()).toMatchObject({ status: 'pending', scheduledAttempts: 6, nextAttemptAt: at(57_600) });
    expect(queue.messages()).toEqual([
      { body: { deliveryId: DELIVERY_ID, sellerId: 7, environment: 'test', attempt: 7 }, delaySeconds: 900 },
    ]);
    expect(metrics.counts.get(DELIVERY_FAILED_METRIC)).toBeUndefined();
  });

  it('marks the delivery failed after the seventh attempt, counts the metric once, queues nothing', async () => {
    deliveries.seed(delivery({ scheduledAttempts: 6 }));

    const outcome = await processDeliveryMessage(deps, message(7));

    expect(outcome).toBe('failed');
    expect(stored()).toEqual(
      delivery({
        status: 'failed',
        scheduledAttempts: 7,
        lastStatusCode: 500,
        lastDurationMs: 37,
        lastError: null,
        lastResponseExcerpt: 'Internal Server Error',
        lastAttemptAt: NOW,
        nextAttemptAt: null,
        updatedAt: NOW,
      }),
    );
    expect(queue.sent).toEqual([]);
    expect(DELIVERY_FAILED_METRIC).toBe('WebhookDeliveriesFailed');
    expect([...metrics.counts]).toEqual([['WebhookDeliveriesFailed', 1]]);
  });
});

describe('processDeliveryMessage when the endpoint changed meanwhile', () => {
  it('fails the delivery at once when the endpoint was deleted, without posting', async () => {
    await endpoints.delete(TENANT, ENDPOINT_ID);

    const outcome = await processDeliveryMessage(deps, message(1));

    expect(outcome).toBe('failed');
    expect(sender.requests).toEqual([]);
    expect(queue.sent).toEqual([]);
    expect(stored()).toMatchObject({
      status: 'failed',
      scheduledAttempts: 1,
      lastStatusCode: null,
      lastDurationMs: 0,
      lastError: 'endpoint was deleted',
      nextAttemptAt: null,
    });
    expect(metrics.counts.get(DELIVERY_FAILED_METRIC)).toBe(1);
  });

  it('does not post to a disabled endpoint and keeps the retry schedule', async () => {
    await endpoints.update(TENANT, ENDPOINT_ID, { status: 'disabled', updatedAt: NOW });

    const outcome = await processDeliveryMessage(deps, message(1));

    expect(outcome).toBe('retry');
    expect(sender.requests).toEqual([]);
    expect(stored()).toMatchObject({
      status: 'pending',
      scheduledAttempts: 1,
      lastStatusCode: null,
      lastError: 'endpoint is disabled',
      nextAttemptAt: at(60),
    });
    expect(queue.sent.map((m) => m.delaySeconds)).toEqual([60]);
  });

  it.each([
    ['a private address', '10.0.0.5'],
    ['the cloud metadata address', '169.254.169.254'],
    ['loopback', '127.0.0.1'],
  ])('refuses to post when the host now resolves to %s (SSRF), and retries', async (_name, address) => {
    urlPolicy.hosts.set('hooks.example.com', [PUBLIC_ADDRESS, address]);

    const outcome = await processDeliveryMessage(deps, message(1));

    expect(outcome).toBe('retry');
    expect(urlPolicy.lookups).toEqual(['hooks.example.com']);
    expect(sender.requests).toEqual([]);
    expect(stored()).toMatchObject({
      status: 'pending',
      scheduledAttempts: 1,
      lastStatusCode: null,
      lastDurationMs: 0,
      lastError: 'refused: url must not point to a private, loopback, link-local or metadata address',
    });
  });

  it.each([
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped loopback in hex', '::ffff:7f00:1'],
    ['IPv4-mapped metadata address, written out', '0:0:0:0:0:ffff:a9fe:a9fe'],
    ['IPv4-mapped public address', '::ffff:93.184.216.34'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['IPv4-compatible private address in hex', '::a00:5'],
    ['IPv4-translated loopback', '::ffff:0:7f00:1'],
    ['6to4 wrapping loopback', '2002:7f00:1::1'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['local-use NAT64', '64:ff9b:1::a00:5'],
    ['site-local', 'fec0::1'],
  ])(
    'refuses to post when the host resolves to an IPv6 form of an IPv4 address or a reserved range: %s',
    async (_name, address) => {
      urlPolicy.hosts.set('hooks.example.com', [address]);

      expect(await processDeliveryMessage(deps, message(1))).toBe('retry');

      expect(sender.requests).toEqual([]);
      expect(stored()?.lastError).toBe(
        'refused: url must not point to a private, loopback, link-local or metadata address',
      );
    },
  );

  it('hands the sender the addresses its one lookup checked, so a second answer (loopback) is never used', async () => {
    const answers = [[PUBLIC_ADDRESS], ['127.0.0.1']];
    urlPolicy.resolve = async (host) => {
      urlPolicy.lookups.push(host);
      return answers.shift() ?? ['127.0.0.1'];
    };

    expect(await processDeliveryMessage(deps, message(1))).toBe('succeeded');

    expect(urlPolicy.lookups).toEqual(['hooks.example.com']);
    expect(sender.requests.map((r) => r.addresses)).toEqual([[PUBLIC_ADDRESS]]);
  });

  it('posts to a public IPv6 address, and to every address the host answered', async () => {
    urlPolicy.hosts.set('hooks.example.com', ['2606:2800:220:1:248:1893:25c8:1946', PUBLIC_ADDRESS]);

    expect(await processDeliveryMessage(deps, message(1))).toBe('succeeded');

    expect(sender.requests.map((r) => r.addresses)).toEqual([
      ['2606:2800:220:1:248:1893:25c8:1946', PUBLIC_ADDRESS],
    ]);
  });

  it('refuses to post when the host no longer resolves', async () => {
    urlPolicy.hosts.clear();

    await processDeliveryMessage(deps, message(1));

    expect(sender.requests).toEqual([]);
    expect(stored()?.lastError).toBe('refused: url host hooks.example.com could not be resolved');
  });
});

describe('processDeliveryMessage is idempotent', () => {
  it('drops the same message when it arrives a second time after a success', async () => {
    expect(await processDeliveryMessage(deps, message(1))).toBe('succeeded');
    const after = structuredClone(stored());

    expect(await processDeliveryMessage(deps, message(1))).toBe('dropped');

    expect(sender.requests).toHaveLength(1);
    expect(queue.sent).toEqual([]);
    expect(stored()).toEqual(after);
  });

  it('drops the same message when it arrives a second time after a failure, queuing one retry only', async () => {
    sender.answer(SERVER_ERROR);
    expect(await processDeliveryMessage(deps, message(1))).toBe('retry');

    expect(await processDeliveryMessage(deps, message(1))).toBe('dropped');

    expect(sender.requests).toHaveLength(1);
    expect(queue.messages().map((m) => m.body)).toEqual([
      { deliveryId: DELIVERY_ID, sellerId: 7, environment: 'test', attempt: 2 },
    ]);
    expect(stored()?.scheduledAttempts).toBe(1);
  });

  it('records one outcome and counts the failure once when two copies race on the last attempt', async () => {
    sender.answer(SERVER_ERROR);
    const before = deliveries.seed(delivery({ scheduledAttempts: 6 }));
    // Both copies read the delivery before either records its attempt.
    const read = deliveries.get.bind(deliveries);
    deliveries.get = async () => structuredClone(before);

    const outcomes = [
      await processDeliveryMessage(deps, message(7)),
      await processDeliveryMessage(deps, message(7)),
    ];
    deliveries.get = read;

    expect(outcomes).toEqual(['failed', 'dropped']);
    expect(deliveries.recorded.map((r) => r.written)).toEqual([true, false]);
    expect(metrics.counts.get(DELIVERY_FAILED_METRIC)).toBe(1);
    expect(stored()?.scheduledAttempts).toBe(7);
  });

  it.each([
    ['an attempt already made', 1, { scheduledAttempts: 2, nextAttemptAt: at(300) }],
    ['an attempt from the future', 4, { scheduledAttempts: 1, nextAttemptAt: at(60) }],
    ['a delivery that already succeeded', 2, { status: 'succeeded' as const, scheduledAttempts: 1 }],
    ['a delivery that already failed', 8, { status: 'failed' as const, scheduledAttempts: 7 }],
  ])('drops a message for %s without posting or queuing', async (_name, attempt, state) => {
    deliveries.seed(delivery(state));

    expect(await processDeliveryMessage(deps, message(attempt))).toBe('dropped');

    expect(sender.requests).toEqual([]);
    expect(queue.sent).toEqual([]);
    expect(deliveries.recorded).toEqual([]);
  });

  it('drops a message whose delivery does not exist (another tenant, or expired)', async () => {
    const outcome = await processDeliveryMessage(deps, { ...message(1), sellerId: 8 });

    expect(outcome).toBe('dropped');
    expect(sender.requests).toEqual([]);
  });
});

describe('the first attempt writes the delivery (the fan-out stores nothing)', () => {
  const first = { eventId: EVENT_ID, eventName: 'transaction.created', body: BODY, createdAt: NOW };
  const firstMessage = (): DeliveryMessage => ({ ...message(1), first });
  const detail = {
    tenant: TENANT,
    envelope: JSON.parse(BODY) as { id: string; event: string; timestamp: string; data: unknown },
  };

  beforeEach(() => {
    deliveries.items.clear();
  });

  it('fanOut queues one first-attempt message per subscribed endpoint, carrying the delivery, and writes nothing', async () => {
    await endpoints.create(endpoint({ id: 'we_Other02', events: ['transaction.refunded'] }));
    await endpoints.create(endpoint({ id: 'we_Star03', events: ['*'] }));

    expect(await fanOut(deps, detail)).toEqual({ endpoints: 2 });

    expect(deliveries.items.size).toBe(0);
    expect(queue.messages().map((m) => m.body)).toEqual(
      expect.arrayContaining(
        [ENDPOINT_ID, 'we_Star03'].map((id) => ({
          deliveryId: deliveryIdOf(EVENT_ID, id),
          sellerId: 7,
          environment: 'test',
          attempt: 1,
          first,
        })),
      ),
    );
    expect(queue.sent.every((m) => m.delaySeconds === undefined)).toBe(true);
  });

  it('posts the body the message carries and writes the record with the outcome, in one write', async () => {
    expect(await processDeliveryMessage(deps, firstMessage())).toBe('succeeded');

    expect(sender.requests.map((r) => r.body)).toEqual([BODY]);
    expect(stored()).toEqual(succeededAtFirst());
    expect(deliveries.recorded.map((r) => r.written)).toEqual([true]);
  });

  it('writes a failed first attempt as pending with the next attempt queued; that attempt reads the record', async () => {
    sender.answer(SERVER_ERROR);
    expect(await processDeliveryMessage(deps, firstMessage())).toBe('retry');
    expect(stored()).toMatchObject({ status: 'pending', scheduledAttempts: 1, nextAttemptAt: at(60) });
    expect(queue.messages()).toEqual([
      { body: { deliveryId: DELIVERY_ID, sellerId: 7, environment: 'test', attempt: 2 }, delaySeconds: 60 },
    ]);

    clock.set(at(60));
    sender.answer(OK);
    expect(await processDeliveryMessage(deps, message(2))).toBe('succeeded');
    expect(stored()).toMatchObject({ status: 'succeeded', scheduledAttempts: 2 });
  });

  it('drops the same first message when it arrives again after the record was written, without posting', async () => {
    await processDeliveryMessage(deps, firstMessage());
    const after = structuredClone(stored());

    expect(await processDeliveryMessage(deps, firstMessage())).toBe('dropped');

    expect(sender.requests).toHaveLength(1);
    expect(stored()).toEqual(after);
  });

  it('keeps the first record when two copies race, reporting the second as a duplicate', async () => {
    const reports: string[] = [];
    const racing = { ...deps, onAttempt: (a: { outcome: string }) => reports.push(a.outcome) };
    // Both copies read "not stored" before either writes.
    const copies = [firstMessage(), firstMessage()];
    const loaded = { delivery: null, endpoint: endpoint() };
    const outcomes = await Promise.all(copies.map((m) => processDeliveryMessage(racing, m, loaded)));

    expect(outcomes.sort()).toEqual(['dropped', 'succeeded']);
    expect(reports.sort()).toEqual(['duplicate', 'succeeded']);
    expect(deliveries.recorded.map((r) => r.written).sort()).toEqual([false, true]);
  });

  it('fails the delivery at once when the endpoint was deleted before the first attempt', async () => {
    await endpoints.delete(TENANT, ENDPOINT_ID);

    expect(await processDeliveryMessage(deps, firstMessage())).toBe('failed');

    expect(sender.requests).toEqual([]);
    expect(stored()).toMatchObject({
      status: 'failed',
      scheduledAttempts: 1,
      lastError: 'endpoint was deleted',
    });
  });

  it('hops with the delivery still in the message when the first attempt is not due yet', async () => {
    const later = { ...first, createdAt: at(120) };

    expect(await processDeliveryMessage(deps, { ...message(1), first: later })).toBe('hop');

    expect(queue.messages()).toEqual([{ body: { ...message(1), first: later }, delaySeconds: 120 }]);
    expect(deliveries.items.size).toBe(0);
  });

  it('drops a later attempt whose record does not exist, even with a delivery in the message', async () => {
    expect(await processDeliveryMessage(deps, { ...message(2), first })).toBe('dropped');
    expect(sender.requests).toEqual([]);
  });

  it('still runs a first message of a delivery the fan-out stored before (queued before this change)', async () => {
    deliveries.seed(delivery());

    expect(await processDeliveryMessage(deps, message(1))).toBe('succeeded');

    expect(stored()).toMatchObject({ status: 'succeeded', scheduledAttempts: 1 });
  });
});

describe('fanOutBatch', () => {
  const detailOf = (tenant: Tenant, n: number) => ({
    tenant,
    envelope: {
      id: `evt_${String(n).padStart(24, '0')}`,
      event: 'transaction.created',
      timestamp: NOW,
      data: {},
    },
  });

  it("reads each tenant's endpoints once for the whole batch", async () => {
    const other: Tenant = { sellerId: 8, environment: 'test' };
    await endpoints.create(endpoint({ tenant: other, id: 'we_Seller08' }));
    const all = endpoints.all.bind(endpoints);
    const reads: Tenant[] = [];
    endpoints.all = async (t) => {
      reads.push(t);
      return all(t);
    };

    const failed = await fanOutBatch(deps, [detailOf(TENANT, 1), detailOf(other, 2), detailOf(TENANT, 3)]);

    expect(failed).toEqual([]);
    expect(reads).toEqual([TENANT, other]);
    expect(
      queue
        .messages()
        .map((m) => (m.body as DeliveryMessage).sellerId)
        .sort(),
    ).toEqual([7, 7, 8]);
  });

  it('answers the indexes of the events whose tenant read or queueing failed; the others are queued', async () => {
    const other: Tenant = { sellerId: 8, environment: 'test' };
    const all = endpoints.all.bind(endpoints);
    endpoints.all = async (t) => {
      if (t.sellerId === 8) throw new Error('read failed');
      return all(t);
    };

    expect(await fanOutBatch(deps, [detailOf(other, 1), detailOf(TENANT, 2), detailOf(other, 3)])).toEqual([
      0, 2,
    ]);
    expect(queue.sent).toHaveLength(1);
  });
});
