import type { SQSEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BusDetail } from '#shared/domain/events/events';
import type { Tenant } from '#shared/domain/tenant';
import { fanOutBatch } from '#shared/domain/webhooks/deliveries';
import { logger } from '#shared/logger';
import { FakeClock } from '../support/fakes/clock';
import { FakeDeliveryRepository } from '../support/fakes/delivery-repository';
import { FakeQueue } from '../support/fakes/queue';
import { FakeWebhookEndpointRepository } from '../support/fakes/webhook-endpoint-repository';

// The use case is observed (and, in the last test, run for real); the container is the fakes'.
vi.mock('#shared/domain/webhooks/deliveries', async (importOriginal) => {
  const actual = await importOriginal<typeof import('#shared/domain/webhooks/deliveries')>();
  return { ...actual, fanOutBatch: vi.fn(actual.fanOutBatch) };
});
const container = vi.hoisted(() => ({ current: undefined as unknown }));
vi.mock('#shared/platform/current', () => ({ getContainer: async () => container.current }));

const { handler } = await import('#functions/webhook-fanout/handler');
const actual = await vi.importActual<typeof import('#shared/domain/webhooks/deliveries')>(
  '#shared/domain/webhooks/deliveries',
);

const NOW = '2026-03-10T15:00:00.000Z';
const SELLER_A: Tenant = { sellerId: 7, environment: 'test' };
const SELLER_B: Tenant = { sellerId: 8, environment: 'live' };

const detailOf = (tenant: Tenant, n: number): BusDetail =>
  ({
    tenant,
    envelope: {
      id: `evt_${tenant.sellerId}_${n}`,
      event: 'product.updated',
      created_at: NOW,
      data: { n },
    },
  }) as unknown as BusDetail;

/** The body an EventBridge SQS target sends: the whole event, the detail inside. */
const busMessage = (detail: unknown) =>
  JSON.stringify({
    version: '0',
    id: 'f3b0c1d2-0000-4000-8000-000000000000',
    'detail-type': 'product.updated',
    source: 'payment-service',
    account: '123456789012',
    time: NOW,
    region: 'us-east-1',
    resources: [],
    detail,
  });

const sqsEvent = (bodies: string[]): SQSEvent => ({
  Records: bodies.map((body, i) => ({
    messageId: `m${i}`,
    receiptHandle: `r${i}`,
    body,
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: '0',
      SenderId: 'events',
      ApproximateFirstReceiveTimestamp: '0',
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:123456789012:fanout',
    awsRegion: 'us-east-1',
  })),
});

let endpoints: FakeWebhookEndpointRepository;
let queue: FakeQueue;
let errors: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  endpoints = new FakeWebhookEndpointRepository();
  queue = new FakeQueue();
  container.current = {
    deps: { deliveries: new FakeDeliveryRepository(endpoints), endpoints, queue, clock: new FakeClock(NOW) },
    unitOfWork: <T>(work: () => Promise<T>) => work(),
  };
  vi.mocked(fanOutBatch).mockClear();
  vi.mocked(fanOutBatch).mockImplementation(actual.fanOutBatch);
  errors = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
});
afterEach(() => errors.mockRestore());

describe('webhook fan-out handler (SQS batch of bus events)', () => {
  it('calls the use case once with the detail of every message, in batch order', async () => {
    const details = [detailOf(SELLER_A, 1), detailOf(SELLER_B, 1), detailOf(SELLER_A, 2)];
    const response = await handler(sqsEvent(details.map(busMessage)));
    expect(response).toEqual({ batchItemFailures: [] });
    expect(fanOutBatch).toHaveBeenCalledTimes(1);
    // The details exactly as the bus carried them: the envelope is sent and signed as is.
    expect(vi.mocked(fanOutBatch).mock.calls[0]?.[1]).toEqual(details);
    expect(errors).not.toHaveBeenCalled();
  });

  it('logs and drops a malformed message instead of returning it to the queue', async () => {
    const good = detailOf(SELLER_A, 1);
    const bodies = [
      'not json',
      JSON.stringify({ 'detail-type': 'product.updated', source: 'payment-service' }),
      busMessage({ tenant: { sellerId: '7', environment: 'test' }, envelope: good.envelope }),
      busMessage({ tenant: { sellerId: 7, environment: 'prod' }, envelope: good.envelope }),
      busMessage({ tenant: SELLER_A, envelope: { event: 'product.updated' } }),
      busMessage({ tenant: SELLER_A }),
      busMessage(good),
      'null',
    ];
    const response = await handler(sqsEvent(bodies));
    expect(response).toEqual({ batchItemFailures: [] });
    expect(fanOutBatch).toHaveBeenCalledTimes(1);
    expect(vi.mocked(fanOutBatch).mock.calls[0]?.[1]).toEqual([good]);
    const dropped = ['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm7'];
    expect(errors.mock.calls).toEqual(
      dropped.map((messageId) => ['malformed fan-out message', { messageId, outcome: 'dropped' }]),
    );
  });

  it('does not call the use case for a batch with no well-formed message', async () => {
    expect(await handler(sqsEvent(['{}', '[]']))).toEqual({ batchItemFailures: [] });
    expect(fanOutBatch).not.toHaveBeenCalled();
  });

  it('returns the message of each failed index to the queue, past the dropped ones', async () => {
    vi.mocked(fanOutBatch).mockResolvedValueOnce([1]);
    const response = await handler(
      sqsEvent(['garbage', busMessage(detailOf(SELLER_A, 1)), busMessage(detailOf(SELLER_A, 2))]),
    );
    // Index 1 of the use case's input is the third record: the first was dropped.
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
  });

  it("reads each tenant's endpoints once per batch and queues one delivery per event and endpoint", async () => {
    for (const [i, tenant] of [SELLER_A, SELLER_A, SELLER_B].entries()) {
      await endpoints.create({
        id: `we_${i}`,
        tenant,
        url: `https://hooks${i}.example.com/in`,
        events: ['*'],
        description: null,
        status: 'enabled',
        secret: 'whsec_x',
        previousSecret: null,
        createdAt: NOW,
        updatedAt: NOW,
      });
    }
    const reads = vi.spyOn(endpoints, 'all');
    const details = [1, 2, 3, 4].map((n) => detailOf(SELLER_A, n)).concat([detailOf(SELLER_B, 1)]);
    expect(await handler(sqsEvent(details.map(busMessage)))).toEqual({ batchItemFailures: [] });
    expect(reads.mock.calls.map(([tenant]) => tenant)).toEqual([SELLER_A, SELLER_B]);
    // Four events of A to its two endpoints, one event of B to its one.
    expect(queue.sent).toHaveLength(4 * 2 + 1);
  });
});
