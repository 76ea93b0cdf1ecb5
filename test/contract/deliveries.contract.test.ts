import { describe, expect, it } from 'vitest';
import { createDeliveryRepository } from '#shared/adapters/dynamodb/delivery-repository';
import { createWebhookEndpointRepository } from '#shared/adapters/dynamodb/webhook-endpoint-repository';
import type { DeliveryRepository, WebhookEndpointRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { deliveryIdOf, type WebhookDelivery } from '#shared/domain/webhooks/deliveries';
import type { WebhookEndpoint } from '#shared/domain/webhooks/endpoints';
import { ConflictError, ValidationError } from '#shared/errors';
import { FakeDeliveryRepository } from '../support/fakes/delivery-repository';
import { FakeWebhookEndpointRepository } from '../support/fakes/webhook-endpoint-repository';
import { freshTable } from './support';

const SELLER: Tenant = { sellerId: 7, environment: 'test' };
const OTHER_SELLER: Tenant = { sellerId: 8, environment: 'test' };
const LIVE: Tenant = { sellerId: 7, environment: 'live' };

const ENDPOINT = 'we_00000000000000000001';
const OTHER_ENDPOINT = 'we_00000000000000000002';
const NOW = '2026-03-10T15:30:00.000Z';
/** Creation times a minute apart, from the event number. */
const at = (n: number) => new Date(Date.UTC(2026, 2, 10, 12, n)).toISOString();
const eventId = (n: number) => `evt_${String(n).padStart(24, '0')}`;
const idOf = (n: number, endpointId = ENDPOINT) => deliveryIdOf(eventId(n), endpointId);

function delivery(n: number, overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  const endpointId = overrides.endpointId ?? ENDPOINT;
  return {
    id: idOf(n, endpointId),
    tenant: SELLER,
    endpointId,
    eventId: eventId(n),
    eventName: 'transaction.created',
    body: JSON.stringify({ id: eventId(n), event: 'transaction.created', data: { id: n } }),
    status: 'pending',
    scheduledAttempts: 0,
    manualAttempts: 0,
    lastStatusCode: null,
    lastDurationMs: null,
    lastError: null,
    lastResponseExcerpt: null,
    lastAttemptAt: null,
    nextAttemptAt: at(n),
    createdAt: at(n),
    updatedAt: at(n),
    ...overrides,
  };
}

function endpoint(id: string, tenant = SELLER): WebhookEndpoint {
  return {
    id,
    tenant,
    url: 'https://hooks.example.com/in',
    events: ['*'],
    description: null,
    status: 'enabled',
    secret: 'whsec_0123456789abcdef0123456789abcdef',
    previousSecret: null,
    createdAt: at(0),
    updatedAt: at(0),
  };
}

/** The first scheduled attempt's outcome, as the delivery function records it. */
const succeeded: Partial<WebhookDelivery> = {
  status: 'succeeded',
  scheduledAttempts: 1,
  lastStatusCode: 200,
  lastDurationMs: 87,
  lastError: null,
  lastAttemptAt: NOW,
  nextAttemptAt: null,
  updatedAt: NOW,
};

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}

async function conflictOf(promise: Promise<unknown>): Promise<ConflictError> {
  const error = await failureOf(promise);
  expect(error).toBeInstanceOf(ConflictError);
  return error as ConflictError;
}

interface Repos {
  deliveries: DeliveryRepository;
  endpoints: WebhookEndpointRepository;
}

describe.each([
  [
    'in-memory fake',
    false,
    async (): Promise<Repos> => {
      const endpoints = new FakeWebhookEndpointRepository();
      return { deliveries: new FakeDeliveryRepository(endpoints), endpoints };
    },
  ],
  [
    'DynamoDB Local',
    true,
    async (): Promise<Repos> => {
      const table = await freshTable();
      return {
        deliveries: createDeliveryRepository(table),
        endpoints: createWebhookEndpointRepository(table),
      };
    },
  ],
])('DeliveryRepository contract (%s)', (_name, _dynamo, make) => {
  /** Every page of an endpoint's deliveries, as a client follows nextCursor. */
  async function walk(repo: DeliveryRepository, limit: number, tenant = SELLER, endpointId = ENDPOINT) {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await repo.listByEndpoint(tenant, endpointId, { limit, cursor });
      pages.push(page.items.map((d) => d.id));
      cursor = page.cursor;
      if (pages.length > 6) throw new Error('the cursor never ends');
    } while (cursor);
    return pages;
  }

  describe('createIfAbsent', () => {
    it('stores a new delivery and answers it', async () => {
      const { deliveries } = await make();
      const created = delivery(1);

      expect(await deliveries.createIfAbsent(created)).toEqual(created);
      expect(await deliveries.get(SELLER, idOf(1))).toEqual(created);
    });

    it('answers the stored delivery, unchanged, when a repeated fan-out creates it again', async () => {
      const { deliveries } = await make();
      const first = delivery(1);
      await deliveries.createIfAbsent(first);
      await deliveries.recordAttempt(SELLER, idOf(1), { scheduledAttempts: 0, manualAttempts: 0 }, succeeded);
      const stored = { ...first, ...succeeded };

      const again = await deliveries.createIfAbsent(
        delivery(1, { body: '{"changed":true}', createdAt: NOW }),
      );

      expect(again).toEqual(stored);
      expect(await deliveries.get(SELLER, idOf(1))).toEqual(stored);
      expect((await deliveries.listByEndpoint(SELLER, ENDPOINT, { limit: 10 })).items).toEqual([stored]);
    });

    it('answers null for a delivery nobody created', async () => {
      const { deliveries } = await make();
      await deliveries.createIfAbsent(delivery(1));

      expect(await deliveries.get(SELLER, idOf(2))).toBeNull();
    });
  });

  describe('tenant isolation', () => {
    it("does not show another seller's or the other environment's delivery", async () => {
      const { deliveries } = await make();
      await deliveries.createIfAbsent(delivery(1));

      expect(await deliveries.get(OTHER_SELLER, idOf(1))).toBeNull();
      expect(await deliveries.get(LIVE, idOf(1))).toBeNull();
      expect(await deliveries.getWithEndpoint(LIVE, idOf(1), ENDPOINT)).toEqual({
        delivery: null,
        endpoint: null,
      });
    });

    it("keeps the same delivery id apart per tenant (a repeat in one tenant never answers another's)", async () => {
      const { deliveries } = await make();
      await deliveries.createIfAbsent(delivery(1));

      const live = delivery(1, { tenant: LIVE, eventName: 'product.created' });
      expect(await deliveries.createIfAbsent(live)).toEqual(live);
      expect((await deliveries.get(SELLER, idOf(1)))?.eventName).toBe('transaction.created');
      expect((await deliveries.get(LIVE, idOf(1)))?.eventName).toBe('product.created');
    });

    it("lists only the tenant's deliveries of the endpoint", async () => {
      const { deliveries } = await make();
      await deliveries.createIfAbsent(delivery(1));
      await deliveries.createIfAbsent(delivery(2, { tenant: OTHER_SELLER }));
      await deliveries.createIfAbsent(delivery(3, { tenant: LIVE }));
      await deliveries.createIfAbsent(delivery(4));

      const mine = await deliveries.listByEndpoint(SELLER, ENDPOINT, { limit: 10 });
      expect(mine.items.map((d) => d.id)).toEqual([idOf(4), idOf(1)]);
      const live = await deliveries.listByEndpoint(LIVE, ENDPOINT, { limit: 10 });
      expect(live.items).toEqual([delivery(3, { tenant: LIVE })]);
    });

    it("does not record an attempt on another tenant's delivery (changed), creating nothing", async () => {
      const { deliveries } = await make();
      await deliveries.createIfAbsent(delivery(1));

      const error = await conflictOf(
        deliveries.recordAttempt(
          OTHER_SELLER,
          idOf(1),
          { scheduledAttempts: 0, manualAttempts: 0 },
          succeeded,
        ),
      );
      expect(error.reason).toBe('changed');
      expect(await deliveries.get(OTHER_SELLER, idOf(1))).toBeNull();
      expect(await deliveries.get(SELLER, idOf(1))).toEqual(delivery(1));
    });
  });

  describe('getWithEndpoint', () => {
    it('answers the delivery and its endpoint together', async () => {
      const { deliveries, endpoints } = await make();
      await endpoints.create(endpoint(ENDPOINT));
      await deliveries.createIfAbsent(delivery(1));

      expect(await deliveries.getWithEndpoint(SELLER, idOf(1), ENDPOINT)).toEqual({
        delivery: delivery(1),
        endpoint: endpoint(ENDPOINT),
      });
    });

    it('answers null for whichever is missing', async () => {
      const { deliveries, endpoints } = await make();
      await endpoints.create(endpoint(OTHER_ENDPOINT));
      await deliveries.createIfAbsent(delivery(1));

      expect(await deliveries.getWithEndpoint(SELLER, idOf(1), ENDPOINT)).toEqual({
        delivery: delivery(1),
        endpoint: null,
      });
      expect(await deliveries.getWithEndpoint(SELLER, idOf(2), OTHER_ENDPOINT)).toEqual({
        delivery: null,
        endpoint: endpoint(OTHER_ENDPOINT),
      });
    });

    it("does not answer another tenant's endpoint with the tenant's delivery", async () => {
      const { deliveries, endpoints } = await make();
      await endpoints.create(endpoint(ENDPOINT, OTHER_SELLER));
      await deliveries.createIfAbsent(delivery(1));

      expect(await deliveries.getWithEndpoint(SELLER, idOf(1), ENDPOINT)).toEqual({
        delivery: delivery(1),
        endpoint: null,
      });
    });
  });

  describe('getManyWithEndpoints', () => {
    it('answers each asked pair in the order asked, a pair asked twice twice, missing ones as null', async () => {
      const { deliveries, endpoints } = await make();
      await endpoints.create(endpoint(ENDPOINT));
      await endpoints.create(endpoint(OTHER_ENDPOINT));
      await deliveries.createIfAbsent(delivery(1));
      await deliveries.createIfAbsent(delivery(2, { endpointId: OTHER_ENDPOINT }));

      expect(
        await deliveries.getManyWithEndpoints([
          { tenant: SELLER, id: idOf(2, OTHER_ENDPOINT), endpointId: OTHER_ENDPOINT },
          { tenant: SELLER, id: idOf(1), endpointId: ENDPOINT },
          { tenant: SELLER, id: idOf(3), endpointId: ENDPOINT },
          { tenant: SELLER, id: idOf(1), endpointId: ENDPOINT },
        ]),
      ).toEqual([
        { delivery: delivery(2, { endpointId: OTHER_ENDPOINT }), endpoint: endpoint(OTHER_ENDPOINT) },
        { delivery: delivery(1), endpoint: endpoint(ENDPOINT) },
        { delivery: null, endpoint: endpoint(ENDPOINT) },
        { delivery: delivery(1), endpoint: endpoint(ENDPOINT) },
      ]);
      expect(await deliveries.getManyWithEndpoints([])).toEqual([]);
    });

    it("answers another tenant's or environment's delivery and endpoint as missing", async () => {
      const { deliveries, endpoints } = await make();
      await endpoints.create(endpoint(ENDPOINT));
      await deliveries.createIfAbsent(delivery(1));

      const missing = { delivery: null, endpoint: null };
      expect(
        await deliveries.getManyWithEndpoints([
          { tenant: OTHER_SELLER, id: idOf(1), endpointId: ENDPOINT },
          { tenant: LIVE, id: idOf(1), endpointId: ENDPOINT },
        ]),
      ).toEqual([missing, missing]);
    });
  });

  describe('listByEndpoint', () => {
    async function seeded() {
      const repos = await make();
      for (const n of [3, 1, 5, 2, 4]) await repos.deliveries.createIfAbsent(delivery(n));
      await repos.deliveries.createIfAbsent(delivery(6, { endpointId: OTHER_ENDPOINT }));
      return repos;
    }

    it("lists the endpoint's deliveries newest first", async () => {
      const { deliveries } = await seeded();

      const page = await deliveries.listByEndpoint(SELLER, ENDPOINT, { limit: 10 });
      expect(page.items).toEqual([delivery(5), delivery(4), delivery(3), delivery(2), delivery(1)]);
      expect(page.cursor).toBeUndefined();
      const other = await deliveries.listByEndpoint(SELLER, OTHER_ENDPOINT, { limit: 10 });
      expect(other.items).toEqual([delivery(6, { endpointId: OTHER_ENDPOINT })]);
    });

    it('orders deliveries created in the same millisecond by id', async () => {
      const { deliveries } = await make();
      const same = [7, 8, 9].map((n) => delivery(n, { createdAt: NOW }));
      for (const d of same) await deliveries.createIfAbsent(d);

      const page = await deliveries.listByEndpoint(SELLER, ENDPOINT, { limit: 10 });
      expect(page.items.map((d) => d.id)).toEqual(same.map((d) => d.id).sort((a, b) => (a < b ? 1 : -1)));
    });

    it('pages by cursor to the last delivery', async () => {
      const { deliveries } = await seeded();

      expect(await walk(deliveries, 2)).toEqual([[idOf(5), idOf(4)], [idOf(3), idOf(2)], [idOf(1)]]);
    });

    it("refuses a cursor from another endpoint's list, or one it never gave (ValidationError)", async () => {
      const { deliveries } = await seeded();
      await deliveries.createIfAbsent(delivery(7, { endpointId: OTHER_ENDPOINT }));
      const { cursor } = await deliveries.listByEndpoint(SELLER, ENDPOINT, { limit: 2 });

      const foreign = await failureOf(
        deliveries.listByEndpoint(SELLER, OTHER_ENDPOINT, { limit: 2, cursor }),
      );
      expect(foreign).toBeInstanceOf(ValidationError);
      const made = await failureOf(
        deliveries.listByEndpoint(SELLER, ENDPOINT, { limit: 2, cursor: 'bm90LWEtY3Vyc29y' }),
      );
      expect(made).toBeInstanceOf(ValidationError);
    });

    it('answers an empty page without a cursor for an endpoint without deliveries', async () => {
      const { deliveries } = await make();

      expect(await deliveries.listByEndpoint(SELLER, ENDPOINT, { limit: 10 })).toEqual({ items: [] });
    });

    it('gives no cursor with the page that holds the last delivery', async () => {
      const { deliveries } = await make();
      for (const n of [1, 2, 3, 4]) await deliveries.createIfAbsent(delivery(n));

      expect(await walk(deliveries, 2)).toEqual([
        [idOf(4), idOf(3)],
        [idOf(2), idOf(1)],
      ]);
    });
  });

  describe('recordFirstAttempt', () => {
    it('writes the delivery with its first outcome, listed under its endpoint', async () => {
      const { deliveries } = await make();
      const first = { ...delivery(1), ...succeeded };

      await deliveries.recordFirstAttempt(first);

      expect(await deliveries.get(SELLER, idOf(1))).toEqual(first);
      expect((await deliveries.listByEndpoint(SELLER, ENDPOINT, { limit: 10 })).items).toEqual([first]);
    });

    it('refuses a delivery that exists with ConflictError changed, keeping the stored one', async () => {
      const { deliveries } = await make();
      const first = { ...delivery(1), ...succeeded };
      await deliveries.recordFirstAttempt(first);

      const error = await conflictOf(
        deliveries.recordFirstAttempt({ ...delivery(1), ...succeeded, lastStatusCode: 503 }),
      );

      expect(error.code).toBe('attempt_already_recorded');
      expect(error.reason).toBe('changed');
      expect(await deliveries.get(SELLER, idOf(1))).toEqual(first);
    });

    it("writes another tenant's delivery of the same id apart", async () => {
      const { deliveries } = await make();
      await deliveries.recordFirstAttempt({ ...delivery(1), ...succeeded });
      const live = { ...delivery(1, { tenant: LIVE }), ...succeeded };

      await deliveries.recordFirstAttempt(live);

      expect(await deliveries.get(LIVE, idOf(1))).toEqual(live);
    });
  });

  describe('recordAttempt', () => {
    it("writes the attempt's outcome when nobody recorded that attempt first", async () => {
      const { deliveries } = await make();
      await deliveries.createIfAbsent(delivery(1));

      await deliveries.recordAttempt(SELLER, idOf(1), { scheduledAttempts: 0, manualAttempts: 0 }, succeeded);

      expect(await deliveries.get(SELLER, idOf(1))).toEqual({ ...delivery(1), ...succeeded });
    });

    it('refuses an attempt recorded by someone else first with ConflictError changed, keeping theirs', async () => {
      const { deliveries } = await make();
      await deliveries.createIfAbsent(delivery(1));
      const failedFirst: Partial<WebhookDelivery> = {
        scheduledAttempts: 1,
        lastStatusCode: 500,
        lastDurationMs: 1_200,
        lastError: 'HTTP 500',
        lastAttemptAt: NOW,
        nextAttemptAt: '2026-03-10T15:31:00.000Z',
        updatedAt: NOW,
      };
      await deliveries.recordAttempt(
        SELLER,
        idOf(1),
        { scheduledAttempts: 0, manualAttempts: 0 },
        failedFirst,
      );

      const error = await conflictOf(
        deliveries.recordAttempt(SELLER, idOf(1), { scheduledAttempts: 0, manualAttempts: 0 }, succeeded),
      );
      expect([error.reason, error.code]).toEqual(['changed', 'attempt_already_recorded']);
      expect(await deliveries.get(SELLER, idOf(1))).toEqual({ ...delivery(1), ...failedFirst });
    });

    it('counts manual attempts apart: a resend moves only them, and a scheduled attempt that read before loses', async () => {
      const { deliveries } = await make();
      await deliveries.createIfAbsent(delivery(1));
      await deliveries.recordAttempt(SELLER, idOf(1), { scheduledAttempts: 0, manualAttempts: 0 }, succeeded);

      const resent = { manualAttempts: 1, lastStatusCode: 204, lastDurationMs: 40, updatedAt: at(59) };
      await deliveries.recordAttempt(SELLER, idOf(1), { scheduledAttempts: 1, manualAttempts: 0 }, resent);
      const stale = await conflictOf(
        deliveries.recordAttempt(
          SELLER,
          idOf(1),
          { scheduledAttempts: 1, manualAttempts: 0 },
          { scheduledAttempts: 2 },
        ),
      );

      expect(stale.reason).toBe('changed');
      expect(await deliveries.get(SELLER, idOf(1))).toEqual({ ...delivery(1), ...succeeded, ...resent });
    });

    it('refuses an attempt on a delivery nobody created (changed), creating nothing', async () => {
      const { deliveries } = await make();

      const error = await conflictOf(
        deliveries.recordAttempt(SELLER, idOf(1), { scheduledAttempts: 0, manualAttempts: 0 }, succeeded),
      );
      expect(error.reason).toBe('changed');
      expect(await deliveries.get(SELLER, idOf(1))).toBeNull();
    });

    it('never moves a delivery to another id or tenant', async () => {
      const { deliveries } = await make();
      await deliveries.createIfAbsent(delivery(1));

      await deliveries.recordAttempt(
        SELLER,
        idOf(1),
        { scheduledAttempts: 0, manualAttempts: 0 },
        { ...succeeded, id: idOf(2), tenant: LIVE },
      );

      expect(await deliveries.get(SELLER, idOf(1))).toEqual({ ...delivery(1), ...succeeded });
      expect(await deliveries.get(SELLER, idOf(2))).toBeNull();
      expect(await deliveries.get(LIVE, idOf(1))).toBeNull();
    });
  });
});
