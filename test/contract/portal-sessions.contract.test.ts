import { describe, expect, it } from 'vitest';
import { keys } from '#shared/adapters/dynamodb/keys';
import { createPortalSessionRepository } from '#shared/adapters/dynamodb/portal-session-repository';
import { TABLE } from '#shared/adapters/dynamodb/table';
import { rateWindow } from '#shared/domain/auth/rate-limit';
import type { PortalSession } from '#shared/domain/portal/session';
import type { PortalSessionRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { FakePortalSessionRepository } from '../support/fakes/portal-session-repository';
import { conflictOf, freshTable } from './support';

const SELLER: Tenant = { sellerId: 7, environment: 'test' };
const CREATED = '2026-03-10T15:00:00.000Z';
const EXPIRES = '2026-03-10T16:00:00.000Z';
const hashOf = (n: number) => n.toString(16).padStart(64, '0');

function session(id: number, overrides: Partial<PortalSession> = {}): PortalSession {
  return {
    id,
    tokenHash: hashOf(id),
    tenant: SELLER,
    customer: { id: 41, uuid: 'c0000000-0000-4000-8000-000000000041' },
    productId: null,
    returnUrl: null,
    expiresAt: EXPIRES,
    createdAt: CREATED,
    ...overrides,
  };
}

interface Subject {
  repo: PortalSessionRepository;
  /** The stored item's TTL (epoch seconds), where there is one. */
  ttlOf(tokenHash: string): Promise<number | undefined>;
}

describe.each([
  [
    'in-memory fake',
    async (): Promise<Subject> => {
      const repo = new FakePortalSessionRepository();
      return { repo, ttlOf: async (hash) => repo.ttlOf(hash) };
    },
  ],
  [
    'DynamoDB Local',
    async (): Promise<Subject> => {
      const table = await freshTable();
      return {
        repo: createPortalSessionRepository(table),
        ttlOf: async (hash) => (await table.get(keys.portalSession(hash)))?.[TABLE.ttlAttribute] as number,
      };
    },
  ],
])('PortalSessionRepository contract (%s)', (_name, make) => {
  it('hands out increasing ids', async () => {
    const { repo } = await make();
    const [a, b] = [await repo.nextId(), await repo.nextId()];

    expect(b).toBeGreaterThan(a);
  });

  it('finds a session by its token hash with every field, and nothing by another hash', async () => {
    const { repo } = await make();
    const withProduct = session(1, {
      productId: 12,
      returnUrl: 'https://loja.example/conta',
      tenant: { sellerId: 8, environment: 'live' },
    });
    await repo.create(withProduct);
    await repo.create(session(2));

    expect(await repo.findByTokenHash(hashOf(1))).toEqual(withProduct);
    expect(await repo.findByTokenHash(hashOf(2))).toEqual(session(2));
    expect(await repo.findByTokenHash(hashOf(3))).toBeNull();
  });

  it('refuses a second session under the same token hash with ConflictError already_exists', async () => {
    const { repo } = await make();
    await repo.create(session(1));

    const error = await conflictOf(repo.create(session(2, { tokenHash: hashOf(1) })));

    expect(error.reason).toBe('already_exists');
    expect(await repo.findByTokenHash(hashOf(1))).toEqual(session(1));
  });

  it('answers a session past its expiry until the TTL removes it (callers check expiresAt)', async () => {
    const { repo } = await make();
    await repo.create(session(1));

    expect((await repo.findByTokenHash(hashOf(1)))?.expiresAt).toBe(EXPIRES);
  });

  it('authenticates a live session and counts its requests per window, starting again in the next', async () => {
    const { repo } = await make();
    await repo.create(session(1, { productId: 12 }));
    const at = new Date(Date.parse(CREATED) + 5_000);
    const next = new Date(at.getTime() + 60_000);

    const first = await repo.authenticate(hashOf(1), at, rateWindow(at));
    const second = await repo.authenticate(hashOf(1), at, rateWindow(at));
    const later = await repo.authenticate(hashOf(1), next, rateWindow(next));

    expect(first).toEqual({ session: session(1, { productId: 12 }), count: 1 });
    expect(second?.count).toBe(2);
    expect(later?.count).toBe(1);
    expect(await repo.findByTokenHash(hashOf(1))).toEqual(session(1, { productId: 12 }));
  });

  it('authenticates nothing for an unknown hash, or at and after the expiry, and counts nothing then', async () => {
    const { repo } = await make();
    await repo.create(session(1));
    const lastMs = new Date(Date.parse(EXPIRES) - 1);
    const expiry = new Date(EXPIRES);

    expect(await repo.authenticate(hashOf(2), lastMs, rateWindow(lastMs))).toBeNull();
    expect(await repo.authenticate(hashOf(1), expiry, rateWindow(expiry))).toBeNull();
    expect(await repo.authenticate(hashOf(1), lastMs, rateWindow(lastMs))).toMatchObject({ count: 1 });
    expect(await repo.findByTokenHash(hashOf(2))).toBeNull();
  });

  it('sets the TTL a day after the expiry', async () => {
    const { repo, ttlOf } = await make();
    await repo.create(session(1));

    expect(await ttlOf(hashOf(1))).toBe(Date.parse(EXPIRES) / 1000 + 86_400);
  });
});

describe('FakePortalSessionRepository', () => {
  it('drops a session once its TTL (a day past expiry) has passed, not before', async () => {
    const repo = new FakePortalSessionRepository();
    await repo.create(session(1));

    repo.expireTtl(new Date(Date.parse(EXPIRES) + 86_399_000));
    expect(await repo.findByTokenHash(hashOf(1))).not.toBeNull();
    repo.expireTtl(new Date(Date.parse(EXPIRES) + 86_400_000));
    expect(await repo.findByTokenHash(hashOf(1))).toBeNull();
  });
});
