import { describe, expect, it } from 'vitest';
import { createWebhookEndpointRepository } from '#shared/adapters/dynamodb/webhook-endpoint-repository';
import type { WebhookEndpointRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import {
  WEBHOOK_ENDPOINT_NOT_FOUND,
  type WebhookEndpoint,
  WebhookEndpointLimitError,
} from '#shared/domain/webhooks/endpoints';
import { ConflictError, NotFoundError, ValidationError } from '#shared/errors';
import { FakeWebhookEndpointRepository } from '../support/fakes/webhook-endpoint-repository';
import { freshTable } from './support';

const SELLER: Tenant = { sellerId: 7, environment: 'test' };
const OTHER_SELLER: Tenant = { sellerId: 8, environment: 'test' };
const LIVE: Tenant = { sellerId: 7, environment: 'live' };

const CREATED = '2026-03-01T12:00:00.000Z';
const NOW = '2026-03-10T15:30:00.000Z';
/** Endpoint ids as the use case makes them (`we_` + 20 characters); `n` orders them. */
const idOf = (n: number) => `we_${String(n).padStart(20, '0')}`;

function endpoint(n: number, overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: idOf(n),
    tenant: SELLER,
    url: `https://hooks.example.com/${n}`,
    events: ['transaction.created', 'transaction.payment.succeeded'],
    description: null,
    status: 'enabled',
    secret: `whsec_${String(n).padStart(32, 'a')}`,
    previousSecret: null,
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  };
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}

const ids = (items: WebhookEndpoint[]) => items.map((e) => e.id);

/** Every page of the tenant's list, as a client follows nextCursor. */
async function walk(repo: WebhookEndpointRepository, tenant: Tenant, limit: number) {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = await repo.list(tenant, { limit, cursor });
    pages.push(ids(page.items));
    cursor = page.cursor;
    if (pages.length > 6) throw new Error('the cursor never ends');
  } while (cursor);
  return pages;
}

describe.each([
  [
    'in-memory fake',
    false,
    async (): Promise<WebhookEndpointRepository> => new FakeWebhookEndpointRepository(),
  ],
  [
    'DynamoDB Local',
    true,
    async (): Promise<WebhookEndpointRepository> => createWebhookEndpointRepository(await freshTable()),
  ],
])('WebhookEndpointRepository contract (%s)', (_name, _dynamo, make) => {
  describe('create and read', () => {
    it('reads back every field of a created endpoint', async () => {
      const repo = await make();
      const created = endpoint(1, { description: 'Pedidos', events: ['*'] });
      await repo.create(created);
      await repo.create(endpoint(2, { status: 'disabled' }));

      expect(await repo.get(SELLER, idOf(1))).toEqual(created);
      expect(await repo.get(SELLER, idOf(2))).toEqual(endpoint(2, { status: 'disabled' }));
    });

    it('reads back a previous secret given at creation', async () => {
      const repo = await make();
      const created = endpoint(1, { previousSecret: { secret: 'whsec_old', expiresAt: NOW } });
      await repo.create(created);

      expect(await repo.get(SELLER, idOf(1))).toEqual(created);
    });

    it('answers null for an id nobody created', async () => {
      const repo = await make();
      await repo.create(endpoint(1));

      expect(await repo.get(SELLER, idOf(2))).toBeNull();
    });

    it('refuses a second create of the same id with ConflictError already_exists and keeps the first', async () => {
      const repo = await make();
      await repo.create(endpoint(1));

      const error = await failureOf(repo.create(endpoint(1, { url: 'https://other.example.com/' })));
      expect(error).toBeInstanceOf(ConflictError);
      expect((error as ConflictError).reason).toBe('already_exists');
      expect((await repo.get(SELLER, idOf(1)))?.url).toBe('https://hooks.example.com/1');
    });
  });

  describe('tenant isolation', () => {
    it("does not show another seller's or the other environment's endpoint", async () => {
      const repo = await make();
      await repo.create(endpoint(1));

      expect(await repo.get(OTHER_SELLER, idOf(1))).toBeNull();
      expect(await repo.get(LIVE, idOf(1))).toBeNull();
      expect(await repo.list(OTHER_SELLER, { limit: 10 })).toEqual({ items: [] });
      expect(await repo.all(LIVE)).toEqual([]);
    });

    it('keeps the same id apart per tenant', async () => {
      const repo = await make();
      await repo.create(endpoint(1));
      await repo.create(endpoint(1, { tenant: LIVE, url: 'https://live.example.com/' }));

      expect((await repo.get(SELLER, idOf(1)))?.url).toBe('https://hooks.example.com/1');
      expect((await repo.get(LIVE, idOf(1)))?.url).toBe('https://live.example.com/');
    });

    it("does not update another tenant's endpoint", async () => {
      const repo = await make();
      await repo.create(endpoint(1));

      expect(await repo.update(OTHER_SELLER, idOf(1), { status: 'disabled', updatedAt: NOW })).toBeNull();
      expect(await repo.get(SELLER, idOf(1))).toEqual(endpoint(1));
      expect(await repo.get(OTHER_SELLER, idOf(1))).toBeNull();
    });

    it("answers NotFoundError for another tenant's endpoint on delete and keeps it", async () => {
      const repo = await make();
      await repo.create(endpoint(1));

      const error = await failureOf(repo.delete(LIVE, idOf(1)));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(await repo.get(SELLER, idOf(1))).toEqual(endpoint(1));
    });

    it("refuses a cursor from another tenant's list (ValidationError)", async () => {
      const repo = await make();
      for (const n of [1, 2, 3]) await repo.create(endpoint(n));
      await repo.create(endpoint(4, { tenant: OTHER_SELLER }));
      const { cursor } = await repo.list(SELLER, { limit: 1 });

      const error = await failureOf(repo.list(OTHER_SELLER, { limit: 1, cursor }));
      expect(error).toBeInstanceOf(ValidationError);
      expect(await failureOf(repo.list(SELLER, { limit: 1, cursor: 'not-a-cursor' }))).toBeInstanceOf(
        ValidationError,
      );
    });
  });

  describe('list and all', () => {
    it('pages by cursor in id order, the last page without a cursor', async () => {
      const repo = await make();
      for (const n of [3, 1, 5, 2, 4]) await repo.create(endpoint(n));
      await repo.create(endpoint(6, { tenant: OTHER_SELLER }));

      expect(await walk(repo, SELLER, 2)).toEqual([[idOf(1), idOf(2)], [idOf(3), idOf(4)], [idOf(5)]]);
      const first = await repo.list(SELLER, { limit: 2 });
      expect(first.items).toEqual([endpoint(1), endpoint(2)]);
    });

    it('orders ids as the store sorts keys, upper case before lower case', async () => {
      const repo = await make();
      const made = [
        'we_alpha0000000000000',
        'we_Zeta00000000000000',
        'we_beta00000000000000',
        'we_Beta00000000000000',
      ];
      for (const id of made) await repo.create(endpoint(1, { id }));

      const pages = [];
      let cursor: string | undefined;
      do {
        const page = await repo.list(SELLER, { limit: 3, cursor });
        pages.push(ids(page.items));
        cursor = page.cursor;
      } while (cursor);
      expect(pages).toEqual([
        ['we_Beta00000000000000', 'we_Zeta00000000000000', 'we_alpha0000000000000'],
        ['we_beta00000000000000'],
      ]);
    });

    it('answers an empty page without a cursor for a tenant without endpoints', async () => {
      const repo = await make();

      expect(await repo.list(SELLER, { limit: 10 })).toEqual({ items: [] });
    });

    it('gives no cursor with the page that holds the last endpoint', async () => {
      const repo = await make();
      for (const n of [1, 2, 3, 4]) await repo.create(endpoint(n));

      expect(await walk(repo, SELLER, 2)).toEqual([
        [idOf(1), idOf(2)],
        [idOf(3), idOf(4)],
      ]);
    });

    it("answers every one of the tenant's endpoints, and only those", async () => {
      const repo = await make();
      for (const n of [2, 3, 1]) await repo.create(endpoint(n));
      await repo.create(endpoint(4, { tenant: OTHER_SELLER }));
      await repo.create(endpoint(5, { tenant: LIVE }));

      const all = await repo.all(SELLER);
      expect(all.sort((a, b) => a.id.localeCompare(b.id))).toEqual([endpoint(1), endpoint(2), endpoint(3)]);
      expect(await repo.all(LIVE)).toEqual([endpoint(5, { tenant: LIVE })]);
    });
  });

  describe('update', () => {
    it('writes the patched fields, keeps the others and answers the stored endpoint', async () => {
      const repo = await make();
      await repo.create(endpoint(1, { description: 'Pedidos' }));
      const previousSecret = { secret: 'whsec_old', expiresAt: '2026-03-11T15:30:00.000Z' };

      const updated = await repo.update(SELLER, idOf(1), {
        url: 'https://hooks.example.com/v2',
        events: ['*'],
        status: 'disabled',
        description: null,
        secret: 'whsec_new',
        previousSecret,
        updatedAt: NOW,
      });

      const expected = endpoint(1, {
        url: 'https://hooks.example.com/v2',
        events: ['*'],
        status: 'disabled',
        description: null,
        secret: 'whsec_new',
        previousSecret,
        updatedAt: NOW,
      });
      expect(updated).toEqual(expected);
      expect(await repo.get(SELLER, idOf(1))).toEqual(expected);
    });

    it('clears the previous secret with null', async () => {
      const repo = await make();
      await repo.create(endpoint(1));
      await repo.update(SELLER, idOf(1), {
        secret: 'whsec_new',
        previousSecret: { secret: 'whsec_old', expiresAt: NOW },
        updatedAt: NOW,
      });

      const updated = await repo.update(SELLER, idOf(1), { previousSecret: null, updatedAt: NOW });
      expect(updated).toEqual(endpoint(1, { secret: 'whsec_new', updatedAt: NOW }));
    });

    it('answers null for an endpoint nobody created, creating nothing', async () => {
      const repo = await make();

      expect(await repo.update(SELLER, idOf(1), { status: 'disabled', updatedAt: NOW })).toBeNull();
      expect(await repo.get(SELLER, idOf(1))).toBeNull();
      expect(await repo.all(SELLER)).toEqual([]);
    });
  });

  describe('delete', () => {
    it('removes the endpoint from reads and lists', async () => {
      const repo = await make();
      for (const n of [1, 2]) await repo.create(endpoint(n));

      await repo.delete(SELLER, idOf(1));

      expect(await repo.get(SELLER, idOf(1))).toBeNull();
      expect(ids((await repo.list(SELLER, { limit: 10 })).items)).toEqual([idOf(2)]);
      expect(ids(await repo.all(SELLER))).toEqual([idOf(2)]);
    });

    it('answers NotFoundError (webhook endpoint not found) for an endpoint that is not there', async () => {
      const repo = await make();
      await repo.create(endpoint(1));
      await repo.delete(SELLER, idOf(1));

      const error = await failureOf(repo.delete(SELLER, idOf(1)));
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).message).toBe(WEBHOOK_ENDPOINT_NOT_FOUND);
    });
  });
  describe('the cap', () => {
    it('refuses an endpoint past the maximum of the tenant with WebhookEndpointLimitError', async () => {
      const repo = await make();
      for (let n = 1; n <= 3; n++) await repo.create(endpoint(n), 3);

      const error = await failureOf(repo.create(endpoint(4), 3));
      expect(error).toBeInstanceOf(WebhookEndpointLimitError);
      expect(error).toMatchObject({ statusCode: 409, code: 'limit_reached' });
      expect(await repo.get(SELLER, idOf(4))).toBeNull();
      await repo.create(endpoint(5, { tenant: LIVE }), 3);
      await repo.create(endpoint(6, { tenant: OTHER_SELLER }), 3);
    });

    it('gives a deleted endpoint’s place back, and a delete of a missing one gives nothing', async () => {
      const repo = await make();
      for (let n = 1; n <= 2; n++) await repo.create(endpoint(n), 2);
      await repo.delete(SELLER, idOf(1));
      await failureOf(repo.delete(SELLER, idOf(1)));
      await repo.create(endpoint(3), 2);
      expect(await failureOf(repo.create(endpoint(4), 2))).toBeInstanceOf(WebhookEndpointLimitError);
    });

    it('counts the endpoints created without a cap', async () => {
      const repo = await make();
      await repo.create(endpoint(1));
      await repo.create(endpoint(2));
      expect(await failureOf(repo.create(endpoint(3), 2))).toBeInstanceOf(WebhookEndpointLimitError);
    });
  });
});
