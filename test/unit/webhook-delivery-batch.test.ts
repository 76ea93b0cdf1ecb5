import { beforeEach, describe, expect, it } from 'vitest';
import { DELIVERY_ATTEMPT_LOG, deliverBatch } from '#functions/webhook-delivery/deliver';
import type { AttemptResult } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { type DeliveryDeps, deliveryIdOf, type WebhookDelivery } from '#shared/domain/webhooks/deliveries';
import type { Logger } from '#shared/logger';
import { FakeClock } from '../support/fakes/clock';
import { FakeDeliveryRepository } from '../support/fakes/delivery-repository';
import { FakeMetrics } from '../support/fakes/metrics';
import { FakeQueue } from '../support/fakes/queue';
import { FakeUrlPolicy } from '../support/fakes/url-policy';
import { FakeWebhookEndpointRepository } from '../support/fakes/webhook-endpoint-repository';

const NOW = '2026-03-10T15:00:00.000Z';
const TENANT: Tenant = { sellerId: 7, environment: 'test' };
const SECRET = 'whsec_current';

interface Line {
  level: string;
  message: string;
  fields: Record<string, unknown>;
}

/** A logger that keeps every line, so the test reads the fields the function writes. */
function capturingLogger(lines: Line[]): Logger {
  const at =
    (level: string) =>
    (message: string, fields: Record<string, unknown> = {}) =>
      lines.push({ level, message, fields });
  const log: Logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: () => log,
  };
  return log;
}

/** Answers per endpoint host; counts how many posts are in flight at once. */
class HostSender {
  inFlight = 0;
  maxInFlight = 0;
  readonly bodies: string[] = [];
  constructor(private readonly answers: Record<string, AttemptResult>) {}
  async post({ url }: { url: string }, body: string): Promise<AttemptResult> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    this.bodies.push(body);
    // Yield once so that posts started together overlap; a sequential loop never overlaps.
    await new Promise((resolve) => setImmediate(resolve));
    this.inFlight--;
    return this.answers[new URL(url).hostname] as AttemptResult;
  }
}

let deliveries: FakeDeliveryRepository;
let endpoints: FakeWebhookEndpointRepository;
let sender: HostSender;
let deps: DeliveryDeps;
let lines: Line[];

async function seedDelivery(endpointId: string, host: string, eventId: string): Promise<WebhookDelivery> {
  await endpoints.create({
    id: endpointId,
    tenant: TENANT,
    url: `https://${host}/hooks`,
    events: ['transaction.created'],
    description: null,
    status: 'enabled',
    secret: SECRET,
    previousSecret: null,
    createdAt: NOW,
    updatedAt: NOW,
  });
  return deliveries.seed({
    id: deliveryIdOf(eventId, endpointId),
    tenant: TENANT,
    endpointId,
    eventId,
    eventName: 'transaction.created',
    body: JSON.stringify({ id: eventId, event: 'transaction.created', data: { customer: 'Ana' } }),
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
  });
}

const record = (id: string, deliveryId: string) => ({
  id,
  body: JSON.stringify({
    deliveryId,
    sellerId: TENANT.sellerId,
    environment: TENANT.environment,
    attempt: 1,
  }),
});

beforeEach(() => {
  endpoints = new FakeWebhookEndpointRepository();
  deliveries = new FakeDeliveryRepository(endpoints);
  sender = new HostSender({
    'ok.example.com': { statusCode: 204, durationMs: 40, error: null, responseExcerpt: null },
    'down.example.com': { statusCode: 503, durationMs: 75, error: null, responseExcerpt: 'down' },
    'slow.example.com': {
      statusCode: null,
      durationMs: 5_000,
      error: 'no answer within 5000 ms',
      responseExcerpt: null,
    },
  });
  deps = {
    deliveries,
    endpoints,
    queue: new FakeQueue(),
    clock: new FakeClock(NOW),
    wallClock: new FakeClock(NOW),
    sender,
    urlPolicy: new FakeUrlPolicy({
      'ok.example.com': ['93.184.216.34'],
      'down.example.com': ['93.184.216.35'],
      'slow.example.com': ['93.184.216.36'],
    }),
    metrics: new FakeMetrics(),
  };
  lines = [];
});

describe('a delivery batch of several records', () => {
  it('delivers every record and returns to the queue only the one whose attempt could not run', async () => {
    const ok = await seedDelivery('we_Ok', 'ok.example.com', 'evt_1');
    const down = await seedDelivery('we_Down', 'down.example.com', 'evt_2');
    const slow = await seedDelivery('we_Slow', 'slow.example.com', 'evt_3');
    const get = deliveries.get.bind(deliveries);
    deliveries.get = async (tenant, id) => {
      if (id === 'whd_broken_0000000000000000') throw new Error('table unavailable');
      return get(tenant, id);
    };

    const failed = await deliverBatch(
      deps,
      [
        record('m1', ok.id),
        record('m2', 'whd_broken_0000000000000000'),
        record('m3', down.id),
        { id: 'm4', body: '{not json' },
        record('m5', slow.id),
      ],
      capturingLogger(lines),
    );

    expect(failed).toEqual(['m2']);
    expect(deliveries.stored(TENANT, ok.id)?.status).toBe('succeeded');
    expect(deliveries.stored(TENANT, down.id)?.scheduledAttempts).toBe(1);
    expect(deliveries.stored(TENANT, slow.id)?.scheduledAttempts).toBe(1);
    expect(sender.maxInFlight).toBe(3);
  });

  it('writes one line per attempt with its identifiers, status, duration and outcome, never the body or secret', async () => {
    const ok = await seedDelivery('we_Ok', 'ok.example.com', 'evt_1');
    const down = await seedDelivery('we_Down', 'down.example.com', 'evt_2');
    const slow = await seedDelivery('we_Slow', 'slow.example.com', 'evt_3');

    await deliverBatch(
      deps,
      [record('m1', ok.id), record('m2', down.id), record('m3', slow.id)],
      capturingLogger(lines),
    );

    const attempts = lines.filter((l) => l.message === DELIVERY_ATTEMPT_LOG);
    expect(attempts.sort((a, b) => String(a.fields.eventId).localeCompare(String(b.fields.eventId)))).toEqual(
      [
        {
          level: 'info',
          message: DELIVERY_ATTEMPT_LOG,
          fields: {
            eventId: 'evt_1',
            endpointId: 'we_Ok',
            deliveryId: ok.id,
            attempt: 1,
            status: 204,
            durationMs: 40,
            outcome: 'succeeded',
            error: null,
          },
        },
        {
          level: 'warn',
          message: DELIVERY_ATTEMPT_LOG,
          fields: {
            eventId: 'evt_2',
            endpointId: 'we_Down',
            deliveryId: down.id,
            attempt: 1,
            status: 503,
            durationMs: 75,
            outcome: 'retry',
            error: null,
          },
        },
        {
          level: 'warn',
          message: DELIVERY_ATTEMPT_LOG,
          fields: {
            eventId: 'evt_3',
            endpointId: 'we_Slow',
            deliveryId: slow.id,
            attempt: 1,
            status: null,
            durationMs: 5_000,
            outcome: 'retry',
            error: 'no answer within 5000 ms',
          },
        },
      ],
    );
    const written = JSON.stringify(lines);
    expect(written).not.toContain('Ana');
    expect(written).not.toContain(SECRET);
  });

  it('logs a duplicate when another run recorded the same attempt first', async () => {
    const ok = await seedDelivery('we_Ok', 'ok.example.com', 'evt_1');

    const failed = await deliverBatch(
      deps,
      [record('m1', ok.id), record('m2', ok.id)],
      capturingLogger(lines),
    );

    expect(failed).toEqual([]);
    expect(sender.bodies).toHaveLength(2);
    expect(lines.map((l) => l.fields.outcome).sort()).toEqual(['duplicate', 'succeeded']);
  });

  it('logs a record that could not run and a malformed one with their message ids', async () => {
    deliveries.get = async () => {
      throw new Error('table unavailable');
    };

    await deliverBatch(
      deps,
      [record('m1', 'whd_Ok_0000000000000000'), { id: 'm2', body: '[]' }],
      capturingLogger(lines),
    );

    expect(lines.map((l) => [l.level, l.message, l.fields.messageId, l.fields.outcome])).toEqual([
      ['error', 'malformed delivery message', 'm2', 'dropped'],
      ['error', 'delivery attempt failed to run', 'm1', 'requeued'],
    ]);
  });
});
