import { describe, expect, it } from 'vitest';
import { createCheckoutSessionRepository } from '#shared/adapters/dynamodb/checkout-session-repository';
import { keys } from '#shared/adapters/dynamodb/keys';
import type { CheckoutSession, SessionPayment } from '#shared/domain/checkout/session';
import type { DomainEvent } from '#shared/domain/events/events';
import type { CheckoutSessionRepository, SessionPage, SessionQuery } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';
import { FakeCheckoutSessionRepository } from '../support/fakes/checkout-session-repository';
import { freshTable } from './support';

const SELLER: Tenant = { sellerId: 7, environment: 'test' };
const OTHER_SELLER: Tenant = { sellerId: 8, environment: 'test' };
const LIVE: Tenant = { sellerId: 7, environment: 'live' };

/** Session n is created n minutes after noon; it expires 24 hours later unless told otherwise. */
const createdAt = (n: number) => new Date(Date.UTC(2026, 2, 10, 12, n)).toISOString();
const idOf = (n: number, tenant = SELLER) => `cs_${tenant.environment}_${String(n).padStart(24, '0')}`;
const HOUR = 3_600_000;
const plusHours = (iso: string, hours: number) => new Date(Date.parse(iso) + hours * HOUR).toISOString();

function session(n: number, overrides: Partial<CheckoutSession> = {}): CheckoutSession {
  const tenant = overrides.tenant ?? SELLER;
  const at = overrides.createdAt ?? createdAt(n);
  return {
    id: idOf(n, tenant),
    tenant,
    status: 'open',
    productId: 1,
    productUuid: 'p0000000-0000-4000-8000-000000000001',
    priceId: null,
    price: null,
    customer: {
      name: null,
      email: null,
      document: null,
      phone: null,
      zipCode: null,
      street: null,
      number: null,
      complement: null,
      neighborhood: null,
      city: null,
      state: null,
    },
    paymentMethods: ['pix', 'boleto', 'card'],
    metadata: {},
    successUrl: null,
    cancelUrl: null,
    clientReferenceId: null,
    affiliateId: null,
    transactionId: null,
    subscriptionId: null,
    payments: [],
    expiresAt: plusHours(at, 24),
    completedAt: null,
    expiredAt: null,
    createdAt: at,
    updatedAt: at,
    version: 1,
    ...overrides,
  };
}

const withEmail = (email: string) => ({ ...session(0).customer, email });

const payment = (transactionId: number, at: string, method: SessionPayment['method'] = 'pix') => ({
  transactionId,
  transactionUuid: `t0000000-0000-4000-8000-${String(transactionId).padStart(12, '0')}`,
  method,
  createdAt: at,
});

const event = (id: string, name = 'checkout.session.completed'): DomainEvent => ({
  tenant: SELLER,
  envelope: { id, event: name, timestamp: createdAt(30), data: { id } },
});

/** The next state as the use cases write it: status moved, version up. */
function completed(s: CheckoutSession, at = plusHours(s.createdAt, 1)): CheckoutSession {
  return {
    ...s,
    status: 'complete',
    transactionId: 1001,
    completedAt: at,
    updatedAt: at,
    version: s.version + 1,
  };
}

function expired(s: CheckoutSession, at = plusHours(s.createdAt, 1)): CheckoutSession {
  return { ...s, status: 'expired', expiredAt: at, updatedAt: at, version: s.version + 1 };
}

async function conflictOf(promise: Promise<unknown>): Promise<ConflictError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConflictError);
  return error as ConflictError;
}

const query = (q: Partial<SessionQuery> = {}): SessionQuery => ({ page: 1, limit: 50, ...q });
/** A page as the numbers of its sessions, with its total. */
const seen = (page: SessionPage) => [page.items.map((s) => Number(s.id.slice(-24))), page.totalCount];

interface Subject {
  repo: CheckoutSessionRepository;
  /** Whether the outbox holds the event. */
  hasEvent(id: string): Promise<boolean>;
}

describe.each([
  [
    'in-memory fake',
    async (): Promise<Subject> => {
      const repo = new FakeCheckoutSessionRepository();
      return { repo, hasEvent: async (id) => repo.outbox.events.some((e) => e.envelope.id === id) };
    },
  ],
  [
    'DynamoDB Local',
    async (): Promise<Subject> => {
      const table = await freshTable();
      return {
        repo: createCheckoutSessionRepository(table),
        hasEvent: async (id) => (await table.get(keys.outboxEvent(id), { consistent: true })) !== undefined,
      };
    },
  ],
])('CheckoutSessionRepository contract (%s)', (_name, make) => {
  describe('create and get', () => {
    it('reads back every field of a created session, whoever asks, with its events written', async () => {
      const { repo, hasEvent } = await make();
      const full = session(1, {
        tenant: OTHER_SELLER,
        customer: {
          name: 'Maria Silva',
          email: 'Maria@Example.com',
          document: '52998224725',
          phone: '11987654321',
          zipCode: '01310100',
          street: 'Avenida Paulista',
          number: '1000',
          complement: 'apto 12',
          neighborhood: 'Bela Vista',
          city: 'São Paulo',
          state: 'SP',
        },
        paymentMethods: ['card'],
        metadata: { order: 'A-1', channel: 'web' },
        successUrl: 'https://shop.example/ok?s={SESSION_ID}',
        cancelUrl: 'https://shop.example/cancel',
        clientReferenceId: 'ref-1',
        affiliateId: 99,
      });
      const bare = session(2);

      await repo.create(full, [event('evt_1', 'checkout.session.expired')]);
      await repo.create(bare, []);

      expect(await repo.get(full.id)).toEqual(full);
      expect(await repo.get(bare.id)).toEqual(bare);
      expect(await hasEvent('evt_1')).toBe(true);
    });

    it('answers null for an id nobody created', async () => {
      const { repo } = await make();
      await repo.create(session(1), []);

      expect(await repo.get(idOf(2))).toBeNull();
      expect(await repo.get(idOf(1, LIVE))).toBeNull();
    });

    it('refuses a second create of the same id with ConflictError already_exists, keeping the first and writing no event', async () => {
      const { repo, hasEvent } = await make();
      await repo.create(session(1), []);

      const error = await conflictOf(repo.create(session(1, { productId: 2 }), [event('evt_2')]));

      expect(error.reason).toBe('already_exists');
      expect(await repo.get(idOf(1))).toEqual(session(1));
      expect(await hasEvent('evt_2')).toBe(false);
      expect(seen(await repo.list(SELLER, query()))).toEqual([[1], 1]);
    });
  });

  describe('addPayment', () => {
    it('appends payments in order to an open session, moving its version and updatedAt', async () => {
      const { repo } = await make();
      const s = session(1);
      await repo.create(s, []);
      const first = plusHours(s.createdAt, 1);
      const second = plusHours(s.createdAt, 2);

      await repo.addPayment(s.id, payment(1001, first), first);
      const afterFirst = await repo.get(s.id);
      await repo.addPayment(s.id, payment(1002, second, 'card'), second);

      expect(afterFirst).toEqual({ ...s, payments: [payment(1001, first)], updatedAt: first, version: 2 });
      expect(await repo.get(s.id)).toEqual({
        ...s,
        payments: [payment(1001, first), payment(1002, second, 'card')],
        updatedAt: second,
        version: 3,
      });
    });

    it.each([
      ['complete', completed],
      ['expired', expired],
    ] as const)(
      'refuses a session that is %s with ConflictError invalid_state, changing nothing',
      async (_status, close) => {
        const { repo } = await make();
        const s = session(1);
        await repo.create(s, []);
        const closed = close(s);
        await repo.close(closed, s, []);
        const now = plusHours(s.createdAt, 2);

        const error = await conflictOf(repo.addPayment(s.id, payment(1001, now), now));

        expect(error.reason).toBe('invalid_state');
        expect(await repo.get(s.id)).toEqual(closed);
      },
    );

    it('refuses an open session once its expiresAt is reached, even before anything expired it', async () => {
      const { repo } = await make();
      const s = session(1);
      await repo.create(s, []);
      const justBefore = new Date(Date.parse(s.expiresAt) - 1).toISOString();

      const atExpiry = await conflictOf(repo.addPayment(s.id, payment(1001, s.expiresAt), s.expiresAt));
      const later = plusHours(s.expiresAt, 1);
      const afterExpiry = await conflictOf(repo.addPayment(s.id, payment(1002, later), later));
      await repo.addPayment(s.id, payment(1003, justBefore), justBefore);
      const accepted = await repo.get(s.id);

      expect([atExpiry.reason, afterExpiry.reason]).toEqual(['invalid_state', 'invalid_state']);
      expect(accepted?.payments.map((p) => p.transactionId)).toEqual([1003]);
      expect(accepted?.status).toBe('open');
    });

    it('refuses a session nobody created with ConflictError invalid_state, creating nothing', async () => {
      const { repo } = await make();
      const now = createdAt(5);

      const error = await conflictOf(repo.addPayment(idOf(9), payment(1001, now), now));

      expect(error.reason).toBe('invalid_state');
      expect(await repo.get(idOf(9))).toBeNull();
    });
  });

  describe('close', () => {
    it('writes the next state and its events when the session is open at the version read', async () => {
      const { repo, hasEvent } = await make();
      const s = session(1);
      await repo.create(s, []);
      const next = completed(s);

      await repo.close(next, s, [event('evt_done')]);

      expect(await repo.get(s.id)).toEqual(next);
      expect(await hasEvent('evt_done')).toBe(true);
    });

    it('refuses a version that moved (a payment recorded since the read) with ConflictError changed', async () => {
      const { repo, hasEvent } = await make();
      const s = session(1);
      await repo.create(s, []);
      const now = plusHours(s.createdAt, 1);
      await repo.addPayment(s.id, payment(1001, now), now);
      const paid = await repo.get(s.id);

      const error = await conflictOf(repo.close(expired(s), s, [event('evt_stale')]));

      expect(error.reason).toBe('changed');
      expect(await repo.get(s.id)).toEqual(paid);
      expect(await hasEvent('evt_stale')).toBe(false);
    });

    it('refuses to move a session that is no longer open, even at its current version', async () => {
      const { repo, hasEvent } = await make();
      const s = session(1);
      await repo.create(s, []);
      const done = completed(s);
      await repo.close(done, s, []);

      const error = await conflictOf(repo.close(expired(done), done, [event('evt_late')]));

      expect(error.reason).toBe('changed');
      expect(await repo.get(s.id)).toEqual(done);
      expect(await hasEvent('evt_late')).toBe(false);
    });

    it('lets exactly one of two concurrent closers win; the loser writes neither state nor event', async () => {
      const { repo, hasEvent } = await make();
      const s = session(1);
      await repo.create(s, []);
      const byPayment = completed(s);
      const byTime = expired(s);

      const results = await Promise.allSettled([
        repo.close(byPayment, s, [event('evt_completed')]),
        repo.close(byTime, s, [event('evt_expired', 'checkout.session.expired')]),
      ]);

      const won = results.map((r) => r.status === 'fulfilled');
      expect(won.filter(Boolean)).toHaveLength(1);
      const loser = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(loser.reason).toBeInstanceOf(ConflictError);
      expect((loser.reason as ConflictError).reason).toBe('changed');
      expect(await repo.get(s.id)).toEqual(won[0] ? byPayment : byTime);
      expect([await hasEvent('evt_completed'), await hasEvent('evt_expired')]).toEqual(won);
    });
  });

  describe('list', () => {
    const ANA = 'ana@example.com';
    const BRUNO = 'bruno@example.com';

    /**
     * Sessions 1..8 of SELLER, one minute apart: product 1 or 2, Ana, Bruno or no e-mail, and 3 and
     * 6 complete, 5 expired; then a session of another seller and one of the live environment that
     * match every filter.
     */
    async function seeded(): Promise<CheckoutSessionRepository> {
      const { repo } = await make();
      const plan: [number, number, string | null, 'open' | 'complete' | 'expired'][] = [
        [1, 1, ANA, 'open'],
        [2, 2, ANA, 'open'],
        [3, 1, BRUNO, 'complete'],
        [4, 1, null, 'open'],
        [5, 2, BRUNO, 'expired'],
        [6, 1, 'Ana@Example.COM', 'complete'],
        [7, 2, null, 'open'],
        [8, 1, ANA, 'open'],
      ];
      for (const [n, productId, email, status] of plan) {
        const s = session(n, { productId, customer: email ? withEmail(email) : session(n).customer });
        await repo.create(s, []);
        if (status === 'complete') await repo.close(completed(s), s, []);
        if (status === 'expired') await repo.close(expired(s), s, []);
      }
      await repo.create(session(9, { tenant: OTHER_SELLER, customer: withEmail(ANA) }), []);
      await repo.create(session(10, { tenant: LIVE, customer: withEmail(ANA) }), []);
      return repo;
    }

    it("answers the tenant's sessions newest first with the total, the closed ones as they are now", async () => {
      const repo = await seeded();

      const page = await repo.list(SELLER, query());

      expect(seen(page)).toEqual([[8, 7, 6, 5, 4, 3, 2, 1], 8]);
      expect(page.items.find((s) => s.id === idOf(3))).toEqual(
        completed(session(3, { customer: withEmail(BRUNO) })),
      );
      expect(seen(await repo.list(LIVE, query()))).toEqual([[10], 1]);
      expect(seen(await repo.list(OTHER_SELLER, query()))).toEqual([[9], 1]);
    });

    it('filters by each filter alone', async () => {
      const repo = await seeded();

      expect(seen(await repo.list(SELLER, query({ status: 'open' })))).toEqual([[8, 7, 4, 2, 1], 5]);
      expect(seen(await repo.list(SELLER, query({ status: 'complete' })))).toEqual([[6, 3], 2]);
      expect(seen(await repo.list(SELLER, query({ status: 'expired' })))).toEqual([[5], 1]);
      expect(seen(await repo.list(SELLER, query({ productId: 2 })))).toEqual([[7, 5, 2], 3]);
      expect(seen(await repo.list(SELLER, query({ productId: 3 })))).toEqual([[], 0]);
      expect(seen(await repo.list(SELLER, query({ customerEmail: BRUNO })))).toEqual([[5, 3], 2]);
    });

    it('matches the e-mail without regard to case, on either side', async () => {
      const repo = await seeded();

      expect(seen(await repo.list(SELLER, query({ customerEmail: ANA })))).toEqual([[8, 6, 2, 1], 4]);
      expect(seen(await repo.list(SELLER, query({ customerEmail: 'ANA@example.com' })))).toEqual([
        [8, 6, 2, 1],
        4,
      ]);
    });

    it('combines product with status, product with e-mail, and e-mail with status', async () => {
      const repo = await seeded();

      expect(seen(await repo.list(SELLER, query({ productId: 1, status: 'open' })))).toEqual([[8, 4, 1], 3]);
      expect(seen(await repo.list(SELLER, query({ productId: 1, status: 'complete' })))).toEqual([[6, 3], 2]);
      expect(seen(await repo.list(SELLER, query({ productId: 1, customerEmail: ANA })))).toEqual([
        [8, 6, 1],
        3,
      ]);
      expect(seen(await repo.list(SELLER, query({ productId: 2, customerEmail: BRUNO })))).toEqual([[5], 1]);
      expect(seen(await repo.list(SELLER, query({ customerEmail: ANA, status: 'open' })))).toEqual([
        [8, 2, 1],
        3,
      ]);
      expect(
        seen(await repo.list(SELLER, query({ productId: 1, customerEmail: ANA, status: 'complete' }))),
      ).toEqual([[6], 1]);
    });

    it('takes the created range as inclusive bounds, alone or with a filter', async () => {
      const repo = await seeded();

      expect(
        seen(await repo.list(SELLER, query({ createdFrom: createdAt(3), createdTo: createdAt(6) }))),
      ).toEqual([[6, 5, 4, 3], 4]);
      expect(seen(await repo.list(SELLER, query({ createdFrom: createdAt(7) })))).toEqual([[8, 7], 2]);
      expect(seen(await repo.list(SELLER, query({ createdTo: createdAt(2) })))).toEqual([[2, 1], 2]);
      expect(
        seen(await repo.list(SELLER, query({ createdFrom: createdAt(4), createdTo: createdAt(4) }))),
      ).toEqual([[4], 1]);
      expect(
        seen(
          await repo.list(
            SELLER,
            query({ productId: 1, status: 'open', createdFrom: createdAt(2), createdTo: createdAt(8) }),
          ),
        ),
      ).toEqual([[8, 4], 2]);
      expect(
        seen(
          await repo.list(
            SELLER,
            query({ createdFrom: '2026-03-10T12:03:30.000Z', createdTo: createdAt(4) }),
          ),
        ),
      ).toEqual([[4], 1]);
    });

    it('pages with the total of every match on every page, later pages included', async () => {
      const repo = await seeded();

      const pages = [];
      for (const page of [1, 2, 3, 4, 5])
        pages.push(seen(await repo.list(SELLER, query({ page, limit: 2 }))));

      expect(pages).toEqual([
        [[8, 7], 8],
        [[6, 5], 8],
        [[4, 3], 8],
        [[2, 1], 8],
        [[], 8],
      ]);
    });

    it('pages a filtered list with its filtered total', async () => {
      const repo = await seeded();

      const q = (page: number) => query({ productId: 1, customerEmail: ANA, page, limit: 2 });
      expect(seen(await repo.list(SELLER, q(1)))).toEqual([[8, 6], 3]);
      expect(seen(await repo.list(SELLER, q(2)))).toEqual([[1], 3]);
      expect(seen(await repo.list(SELLER, query({ status: 'open', page: 2, limit: 3 })))).toEqual([
        [2, 1],
        5,
      ]);
      expect(seen(await repo.list(SELLER, query({ status: 'open', page: 1, limit: 5 })))).toEqual([
        [8, 7, 4, 2, 1],
        5,
      ]);
    });

    it('orders sessions created in the same instant by id, newest first', async () => {
      const { repo } = await make();
      const same = createdAt(1);
      for (const n of [2, 1, 3]) await repo.create(session(n, { createdAt: same }), []);

      expect(seen(await repo.list(SELLER, query()))).toEqual([[3, 2, 1], 3]);
    });
  });

  describe('dueExpiries', () => {
    const NOW = new Date('2026-03-11T10:30:00.000Z');
    const expiring = (n: number, expiresAt: string, tenant = SELLER) =>
      session(n, { tenant, expiresAt, createdAt: plusHours(expiresAt, -24) });

    it('answers the sessions due by now in the hour buckets back to hoursBack, oldest first', async () => {
      const { repo } = await make();
      const plan: [number, string, Tenant?][] = [
        [1, '2026-03-11T10:30:00.000Z'], // due exactly now
        [2, '2026-03-11T04:00:00.000Z'], // the first minute of the oldest bucket looked at
        [3, '2026-03-11T03:59:59.999Z'], // an hour bucket too far back
        [4, '2026-03-11T10:30:00.001Z'], // not yet due
        [5, '2026-03-11T11:00:00.000Z'], // the next hour
        [6, '2026-03-11T07:15:00.000Z', OTHER_SELLER], // any tenant's
        [7, '2026-03-11T07:15:00.000Z', LIVE],
        [8, '2026-03-10T10:30:00.000Z'], // a day back
      ];
      for (const [n, at, tenant] of plan) await repo.create(expiring(n, at, tenant), []);

      expect(await repo.dueExpiries(NOW, 6)).toEqual([
        idOf(2),
        idOf(7, LIVE),
        idOf(6, OTHER_SELLER),
        idOf(1),
      ]);
      expect(await repo.dueExpiries(NOW, 0)).toEqual([idOf(1)]);
      expect(await repo.dueExpiries(NOW, 7)).toEqual([
        idOf(3),
        idOf(2),
        idOf(7, LIVE),
        idOf(6, OTHER_SELLER),
        idOf(1),
      ]);
    });

    it('still answers a session closed before its expiry (its marker stays; the job skips it)', async () => {
      const { repo } = await make();
      const s = expiring(1, '2026-03-11T09:00:00.000Z');
      await repo.create(s, []);
      await repo.close(completed(s, '2026-03-11T08:00:00.000Z'), s, []);

      expect(await repo.dueExpiries(NOW, 6)).toEqual([idOf(1)]);
    });

    it('answers nothing when nothing is due yet', async () => {
      const { repo } = await make();
      await repo.create(expiring(1, '2026-03-11T10:30:00.500Z'), []);
      await repo.create(expiring(2, '2026-03-12T10:00:00.000Z'), []);

      expect(await repo.dueExpiries(NOW, 6)).toEqual([]);
    });
  });
});
