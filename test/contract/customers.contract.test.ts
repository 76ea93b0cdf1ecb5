import { describe, expect, it } from 'vitest';
import { createCustomerRepository } from '#shared/adapters/dynamodb/customer-repository';
import {
  CustomerContentionError,
  type CustomerProfile,
  type GlobalCustomer,
} from '#shared/domain/customers/customer';
import type { CustomerQuery, CustomerRepository, CustomerSearch } from '#shared/domain/ports';
import type { Environment, Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';
import { FakeCustomerRepository } from '../support/fakes/customer-repository';
import { customerProfile } from '../support/fixtures';
import { freshTable } from './support';

const SELLER: Tenant = { sellerId: 7, environment: 'test' };
const OTHER_SELLER: Tenant = { sellerId: 8, environment: 'test' };
const LIVE: Tenant = { sellerId: 7, environment: 'live' };

const NOW = '2026-03-10T15:30:00.000Z';
/** Registration times a minute apart, from the customer number (the fixed clock of every case). */
const at = (n: number) => new Date(Date.UTC(2026, 2, 1, 9, n)).toISOString();

const DOCUMENTS: Record<number, string> = {
  1: '52998224725',
  2: '11144477735',
  3: '39053344705',
  4: '12345678909',
  5: '11222333000181',
  6: '98765432100',
  7: '86288366757',
};

/** Customer n: a global per environment, with `name` and `email` as first registered. */
function globalCustomer(
  n: number,
  overrides: Partial<GlobalCustomer> & { environment?: Environment } = {},
): GlobalCustomer {
  const environment = overrides.environment ?? 'test';
  return {
    id: n,
    uuid: `c0000000-0000-4000-8${environment === 'live' ? '1' : '0'}00-${String(n).padStart(12, '0')}`,
    environment,
    document: DOCUMENTS[n],
    personType: DOCUMENTS[n].length === 14 ? 'juridica' : 'fisica',
    name: `Cliente ${n}`,
    email: `cliente${n}@example.com`,
    phone: '11987654321',
    createdAt: at(n),
    ...overrides,
  };
}

/** The tenant's profile of a global customer (its identity copied, its own contact data). */
function profileOf(
  g: GlobalCustomer,
  tenant: Tenant,
  overrides: Partial<CustomerProfile> = {},
): CustomerProfile {
  return customerProfile({
    tenant,
    id: g.id,
    uuid: g.uuid,
    document: g.document,
    personType: g.personType,
    name: g.name,
    email: g.email,
    phone: g.phone,
    globalEmail: g.email,
    createdAt: g.createdAt,
    updatedAt: g.createdAt,
    ...overrides,
  });
}

/** Registers customer n with the tenant as its first seller; answers the profile. */
async function register(
  repo: CustomerRepository,
  n: number,
  profile: Partial<CustomerProfile> = {},
  tenant: Tenant = SELLER,
): Promise<CustomerProfile> {
  const g = globalCustomer(n, {
    environment: tenant.environment,
    ...(profile.name === undefined ? {} : { name: profile.name }),
    ...(profile.email === undefined ? {} : { email: profile.email }),
  });
  const p = profileOf(g, tenant, profile);
  await repo.createGlobal(g, p);
  return p;
}

async function conflictOf(promise: Promise<unknown>): Promise<ConflictError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConflictError);
  return error as ConflictError;
}

const all: CustomerSearch = { kind: 'all' };
const query = (q: Partial<CustomerQuery> = {}): CustomerQuery => ({
  search: all,
  overdueOnly: false,
  skip: 0,
  take: 20,
  ...q,
});
const seen = (page: { items: CustomerProfile[]; total: number }) => [page.items.map((p) => p.id), page.total];

describe.each([
  ['in-memory fake', false, async (): Promise<CustomerRepository> => new FakeCustomerRepository()],
  [
    'DynamoDB Local',
    true,
    async (): Promise<CustomerRepository> => createCustomerRepository(await freshTable()),
  ],
])('CustomerRepository contract (%s)', (_name, _dynamo, make) => {
  describe('ids, create and read', () => {
    it('hands out increasing ids, starting at 1, never the same twice', async () => {
      const repo = await make();

      expect([await repo.nextId(), await repo.nextId(), await repo.nextId()]).toEqual([1, 2, 3]);
    });

    it('reads back the global customer and the profile, every field', async () => {
      const repo = await make();
      const g = globalCustomer(5);
      const p = profileOf(g, SELLER, {
        name: 'Loja Exemplo Ltda',
        zipCode: '01310100',
        street: 'Avenida Paulista',
        number: '1000',
        complement: null,
        neighborhood: 'Bela Vista',
        city: 'São Paulo',
        state: 'SP',
        emailSource: 'buyer',
        billingEmailOverride: 'financeiro@example.com',
        overrideSetBy: 'seller',
      });

      await repo.createGlobal(g, p);

      expect(await repo.findGlobal('test', DOCUMENTS[5])).toEqual(g);
      expect(await repo.findProfile(SELLER, g.uuid)).toEqual(p);
    });

    it('answers null for a document or uuid nobody registered', async () => {
      const repo = await make();
      await register(repo, 1);

      expect(await repo.findGlobal('test', DOCUMENTS[2])).toBeNull();
      expect(await repo.findProfile(SELLER, globalCustomer(2).uuid)).toBeNull();
    });

    it('refuses the same document twice in an environment with ConflictError already_exists, writing nothing of the loser', async () => {
      const repo = await make();
      const first = await register(repo, 1);
      const loser = globalCustomer(1, {
        uuid: 'c0000000-0000-4000-8000-999999999999',
        id: 99,
        name: 'Outro',
      });

      const error = await conflictOf(repo.createGlobal(loser, profileOf(loser, OTHER_SELLER)));
      expect(error.reason).toBe('already_exists');
      expect(await repo.findGlobal('test', DOCUMENTS[1])).toEqual(globalCustomer(1));
      expect(await repo.findProfile(OTHER_SELLER, loser.uuid)).toBeNull();
      expect(seen(await repo.list(OTHER_SELLER, query()))).toEqual([[], 0]);
      expect(seen(await repo.list(SELLER, query()))).toEqual([[first.id], 1]);
    });

    it('keeps a separate global customer per environment for the same document', async () => {
      const repo = await make();
      await register(repo, 1);
      const live = await register(repo, 1, { name: 'Cliente em produção' }, LIVE);

      expect((await repo.findGlobal('test', DOCUMENTS[1]))?.uuid).toBe(globalCustomer(1).uuid);
      expect(await repo.findGlobal('live', DOCUMENTS[1])).toEqual(
        globalCustomer(1, { environment: 'live', name: 'Cliente em produção' }),
      );
      expect(await repo.findProfile(LIVE, live.uuid)).toEqual(live);
    });
  });

  describe('profiles of other sellers', () => {
    it('links another seller to the existing global customer with a profile of its own', async () => {
      const repo = await make();
      const mine = await register(repo, 1);
      const g = globalCustomer(1);
      const theirs = profileOf(g, OTHER_SELLER, {
        name: 'Nome para o outro vendedor',
        email: 'outro@example.com',
        createdAt: NOW,
        updatedAt: NOW,
      });

      await repo.addProfile(theirs);

      expect(await repo.findProfile(OTHER_SELLER, g.uuid)).toEqual(theirs);
      expect(await repo.findProfile(SELLER, g.uuid)).toEqual(mine);
      expect(seen(await repo.list(OTHER_SELLER, query()))).toEqual([[1], 1]);
    });

    it('refuses a profile the tenant already has with ConflictError already_exists carrying the stored one', async () => {
      const repo = await make();
      const mine = await register(repo, 1, { phone: '11900000000' });

      const error = await conflictOf(repo.addProfile({ ...mine, phone: '21999999999', updatedAt: NOW }));
      expect(error.reason).toBe('already_exists');
      expect(error.current).toEqual(mine);
      expect(await repo.findProfile(SELLER, mine.uuid)).toEqual(mine);
      expect(seen(await repo.list(SELLER, query()))).toEqual([[1], 1]);
    });

    it("does not show one tenant's profile to another seller or environment", async () => {
      const repo = await make();
      const mine = await register(repo, 1);

      expect(await repo.findProfile(OTHER_SELLER, mine.uuid)).toBeNull();
      expect(await repo.findProfile(LIVE, mine.uuid)).toBeNull();
      expect(await repo.findGlobal('live', DOCUMENTS[1])).toBeNull();
      expect(seen(await repo.list(OTHER_SELLER, query()))).toEqual([[], 0]);
      expect(
        seen(await repo.list(LIVE, query({ search: { kind: 'document', document: DOCUMENTS[1] } }))),
      ).toEqual([[], 0]);
    });
  });

  describe('findProfileById', () => {
    it("finds the tenant's profile by the customer's numeric id, whether it created the customer or joined it", async () => {
      const repo = await make();
      const first = await register(repo, 3, { name: 'Maria Silva' });
      const joined = profileOf(globalCustomer(3), OTHER_SELLER, { name: 'Maria S.' });
      await repo.addProfile(joined);

      expect(await repo.findProfileById(SELLER, 3)).toEqual(first);
      expect(await repo.findProfileById(OTHER_SELLER, 3)).toEqual(joined);
    });

    it("answers null for an id the tenant has no profile of, and for another seller's or environment's customer", async () => {
      const repo = await make();
      await register(repo, 3);
      await register(repo, 4, {}, OTHER_SELLER);

      expect(await repo.findProfileById(SELLER, 4)).toBeNull();
      expect(await repo.findProfileById(SELLER, 99)).toBeNull();
      expect(await repo.findProfileById(OTHER_SELLER, 3)).toBeNull();
      expect(await repo.findProfileById({ ...SELLER, environment: 'live' }, 3)).toBeNull();
    });

    it('answers the profile as updated, not as first written', async () => {
      const repo = await make();
      const p = await register(repo, 3);

      const updated = await repo.updateProfile(p, { name: 'Maria Souza', updatedAt: at(9) });

      expect(await repo.findProfileById(SELLER, 3)).toEqual(updated);
    });
  });

  describe('findRefById', () => {
    it("answers the id and uuid of the tenant's customer, and null for another seller's, environment's or none", async () => {
      const repo = await make();
      const first = await register(repo, 3);
      await register(repo, 4, {}, OTHER_SELLER);

      expect(await repo.findRefById(SELLER, 3)).toEqual({ id: 3, uuid: first.uuid });
      expect(await repo.findRefById(SELLER, 4)).toBeNull();
      expect(await repo.findRefById(SELLER, 99)).toBeNull();
      expect(await repo.findRefById({ ...SELLER, environment: 'live' }, 3)).toBeNull();
    });
  });

  describe('registration (findRegistration, reRegister: one read and one write, issue 17)', () => {
    it("says whether the tenant has a profile of the document's global customer, per seller and environment", async () => {
      const repo = await make();
      await register(repo, 1);

      expect(await repo.findRegistration(SELLER, DOCUMENTS[1])).toEqual({
        global: globalCustomer(1),
        linked: true,
      });
      expect(await repo.findRegistration(OTHER_SELLER, DOCUMENTS[1])).toEqual({
        global: globalCustomer(1),
        linked: false,
      });
      expect(await repo.findRegistration(LIVE, DOCUMENTS[1])).toEqual({ global: null, linked: false });
      expect(await repo.findRegistration(SELLER, DOCUMENTS[2])).toEqual({ global: null, linked: false });
    });

    it('writes the registered fields, keeping the address fields left out, and answers the stored profile', async () => {
      const repo = await make();
      const p = await register(repo, 1, { city: 'Santos', street: 'Rua A' });

      const updated = await repo.reRegister(
        SELLER,
        p.uuid,
        { name: 'Ana Maria', email: p.email, phone: '11900000000', street: null, emailSource: 'seller' },
        NOW,
      );
      const expected = { ...p, name: 'Ana Maria', phone: '11900000000', street: null, updatedAt: NOW };
      expect(updated).toEqual(expected);
      expect(await repo.findProfile(SELLER, p.uuid)).toEqual(expected);
      // The name search follows the new name.
      const byName = await repo.list(SELLER, query({ search: { kind: 'name', prefix: 'ana ma' } }));
      expect(seen(byName)).toEqual([[p.id], 1]);
    });

    it('writes nothing when nothing differs, answering ConflictError changed with the stored profile', async () => {
      const repo = await make();
      const p = await register(repo, 1, { city: 'Santos' });

      const error = await conflictOf(
        repo.reRegister(
          SELLER,
          p.uuid,
          { name: p.name, email: p.email, phone: p.phone, city: 'Santos', emailSource: 'seller' },
          NOW,
        ),
      );
      expect(error.reason).toBe('changed');
      expect(error.current).toEqual(p);
      expect(await repo.findProfile(SELLER, p.uuid)).toEqual(p);
    });

    it('writes nothing for another e-mail (its pointer must move), answering the stored profile', async () => {
      const repo = await make();
      const p = await register(repo, 1);

      const error = await conflictOf(
        repo.reRegister(
          SELLER,
          p.uuid,
          { name: 'Outro', email: 'novo@example.com', phone: p.phone, emailSource: 'seller' },
          NOW,
        ),
      );
      expect(error.reason).toBe('changed');
      expect(error.current).toEqual(p);
      expect(await repo.findProfile(SELLER, p.uuid)).toEqual(p);
    });

    it('refuses a profile the tenant does not have (contended), creating nothing', async () => {
      const repo = await make();
      const p = await register(repo, 1);

      await expect(
        repo.reRegister(
          OTHER_SELLER,
          p.uuid,
          { name: 'X', email: p.email, phone: p.phone, emailSource: 'seller' },
          NOW,
        ),
      ).rejects.toBeInstanceOf(CustomerContentionError);
      expect(await repo.findProfile(OTHER_SELLER, p.uuid)).toBeNull();
    });
  });

  describe('updateProfile and the billing e-mail override', () => {
    it('writes the patch and answers the stored profile', async () => {
      const repo = await make();
      const mine = await register(repo, 1);

      const updated = await repo.updateProfile(mine, {
        name: 'Cliente Renomeado',
        phone: '21912345678',
        city: 'Rio de Janeiro',
        state: 'RJ',
        updatedAt: NOW,
      });

      const expected = {
        ...mine,
        name: 'Cliente Renomeado',
        phone: '21912345678',
        city: 'Rio de Janeiro',
        state: 'RJ',
        updatedAt: NOW,
      };
      expect(updated).toEqual(expected);
      expect(await repo.findProfile(SELLER, mine.uuid)).toEqual(expected);
    });

    it('clears an address field with null', async () => {
      const repo = await make();
      const mine = await register(repo, 1, { city: 'Campinas', state: 'SP' });

      const updated = await repo.updateProfile(mine, { city: null, updatedAt: NOW });

      expect(updated).toEqual({ ...mine, city: null, updatedAt: NOW });
      expect(await repo.findProfile(SELLER, mine.uuid)).toEqual({ ...mine, city: null, updatedAt: NOW });
    });

    it('moves the e-mail search to the new address', async () => {
      const repo = await make();
      const mine = await register(repo, 1, { email: 'antigo@example.com' });

      await repo.updateProfile(mine, { email: 'Novo@Example.com', updatedAt: NOW });

      const byOld = await repo.list(
        SELLER,
        query({ search: { kind: 'email', email: 'antigo@example.com' } }),
      );
      const byNew = await repo.list(SELLER, query({ search: { kind: 'email', email: 'novo@example.com' } }));
      expect([seen(byOld), seen(byNew)]).toEqual([
        [[], 0],
        [[1], 1],
      ]);
      expect(byNew.items[0].email).toBe('Novo@Example.com');
    });

    it('moves the name search to the new name', async () => {
      const repo = await make();
      const mine = await register(repo, 1, { name: 'Ana Souza' });

      await repo.updateProfile(mine, { name: 'Beatriz Souza', updatedAt: NOW });

      expect(seen(await repo.list(SELLER, query({ search: { kind: 'name', prefix: 'ana' } })))).toEqual([
        [],
        0,
      ]);
      expect(seen(await repo.list(SELLER, query({ search: { kind: 'name', prefix: 'beatriz' } })))).toEqual([
        [1],
        1,
      ]);
    });

    it('refuses a profile whose e-mail changed since it was read with ConflictError contended, keeping the winner', async () => {
      const repo = await make();
      const read = await register(repo, 1);
      const winner = await repo.updateProfile(read, { email: 'vencedor@example.com', updatedAt: NOW });

      const error = await conflictOf(repo.updateProfile(read, { name: 'Perdedor', updatedAt: NOW }));
      expect([error.reason, error.code]).toEqual(['contended', 'customer_contention']);
      expect(await repo.findProfile(SELLER, read.uuid)).toEqual(winner);
    });

    it('refuses to update a profile the tenant does not have (contended), creating nothing', async () => {
      const repo = await make();
      const theirs = await register(repo, 1, {}, OTHER_SELLER);

      const error = await conflictOf(
        repo.updateProfile({ ...theirs, tenant: SELLER }, { name: 'X', updatedAt: NOW }),
      );
      expect(error.reason).toBe('contended');
      expect(await repo.findProfile(SELLER, theirs.uuid)).toBeNull();
      expect(await repo.findProfile(OTHER_SELLER, theirs.uuid)).toEqual(theirs);
    });

    it('refuses an e-mail change over a profile changed since it was read, so the caller reads again', async () => {
      const repo = await make();
      const read = await register(repo, 1);
      const changed = await repo.updateProfile(read, { phone: '21900000000', updatedAt: at(30) });

      await expect(
        repo.updateProfile(read, { email: 'novo@example.com', updatedAt: NOW }),
      ).rejects.toBeInstanceOf(CustomerContentionError);
      expect(await repo.findProfile(SELLER, read.uuid)).toEqual(changed);
      const updated = await repo.updateProfile(changed, { email: 'novo@example.com', updatedAt: NOW });
      expect(updated).toEqual(await repo.findProfile(SELLER, read.uuid));
      expect(updated).toMatchObject({ phone: '21900000000', email: 'novo@example.com' });
    });

    it('sets and clears the billing e-mail override, answering the stored profile', async () => {
      const repo = await make();
      const mine = await register(repo, 1);

      const set = await repo.setBillingEmailOverride(
        SELLER,
        mine.uuid,
        'cobranca@example.com',
        'customer',
        at(30),
      );
      expect(set).toEqual({
        ...mine,
        billingEmailOverride: 'cobranca@example.com',
        overrideSetBy: 'customer',
        updatedAt: at(30),
      });
      const cleared = await repo.setBillingEmailOverride(SELLER, mine.uuid, null, 'seller', NOW);
      expect(cleared).toEqual({ ...mine, billingEmailOverride: null, overrideSetBy: null, updatedAt: NOW });
      expect(await repo.findProfile(SELLER, mine.uuid)).toEqual(cleared);
    });

    it('answers null for an override on a profile the tenant does not have, creating nothing', async () => {
      const repo = await make();
      const theirs = await register(repo, 1, {}, OTHER_SELLER);

      expect(
        await repo.setBillingEmailOverride(SELLER, theirs.uuid, 'x@example.com', 'seller', NOW),
      ).toBeNull();
      expect(
        await repo.setBillingEmailOverride(SELLER, globalCustomer(2).uuid, null, 'seller', NOW),
      ).toBeNull();
      expect(await repo.findProfile(SELLER, theirs.uuid)).toBeNull();
      expect(await repo.findProfile(OTHER_SELLER, theirs.uuid)).toEqual(theirs);
    });
  });

  describe('list', () => {
    /** Customers 1–6 of the seller, registered in order; one of another seller and one live. */
    async function seeded() {
      const repo = await make();
      const names = ['Ana Souza', 'Bruno Lima', 'Ána Paula', 'carla dias', 'Loja Anã Ltda', 'ANAÍS Costa'];
      for (const [i, name] of names.entries())
        await register(repo, i + 1, { name, email: i === 5 ? 'Anais@Example.com' : `c${i + 1}@example.com` });
      await repo.addProfile(profileOf(globalCustomer(2), OTHER_SELLER, { name: 'Ana do outro vendedor' }));
      await register(repo, 3, { name: 'Ana em produção' }, LIVE);
      return repo;
    }

    it('lists newest first with the total', async () => {
      const repo = await seeded();

      expect(seen(await repo.list(SELLER, query()))).toEqual([[6, 5, 4, 3, 2, 1], 6]);
    });

    it('pages by skip and take, every page carrying the full total', async () => {
      const repo = await seeded();

      const pages = [];
      for (const skip of [0, 4, 8]) pages.push(seen(await repo.list(SELLER, query({ skip, take: 4 }))));
      expect(pages).toEqual([
        [[6, 5, 4, 3], 6],
        [[2, 1], 6],
        [[], 6],
      ]);
    });

    it('finds a document exactly', async () => {
      const repo = await seeded();

      expect(
        seen(await repo.list(SELLER, query({ search: { kind: 'document', document: DOCUMENTS[4] } }))),
      ).toEqual([[4], 1]);
      expect(
        seen(await repo.list(SELLER, query({ search: { kind: 'document', document: '00000000191' } }))),
      ).toEqual([[], 0]);
    });

    it('finds an e-mail whatever its case, newest first when profiles share it', async () => {
      const repo = await seeded();
      // A later customer (another document) whose profile uses the same address in other case.
      await register(repo, 7, { email: 'ANAIS@example.com' });

      const found = await repo.list(SELLER, query({ search: { kind: 'email', email: 'anais@example.com' } }));
      expect(seen(found)).toEqual([[7, 6], 2]);
      expect(found.items.map((p) => p.email)).toEqual(['ANAIS@example.com', 'Anais@Example.com']);
    });

    it('finds a name prefix ignoring case and accents, newest first, paged with the total', async () => {
      const repo = await seeded();

      const found = await repo.list(SELLER, query({ search: { kind: 'name', prefix: 'ana' } }));
      expect(found.items.map((p) => p.name)).toEqual(['ANAÍS Costa', 'Ána Paula', 'Ana Souza']);
      expect(found.total).toBe(3);
      const second = await repo.list(
        SELLER,
        query({ search: { kind: 'name', prefix: 'ana' }, skip: 2, take: 2 }),
      );
      expect(seen(second)).toEqual([[1], 3]);
      expect(seen(await repo.list(SELLER, query({ search: { kind: 'name', prefix: 'loja ana' } })))).toEqual([
        [5],
        1,
      ]);
      expect(seen(await repo.list(SELLER, query({ search: { kind: 'name', prefix: 'ze' } })))).toEqual([
        [],
        0,
      ]);
    });
  });

  describe('overdue', () => {
    it('moves the overdue count by delta, never below 0, and answers it', async () => {
      const repo = await make();
      const mine = await register(repo, 1);

      const counts = [];
      for (const delta of [1, 1, -1, -5, -1, 2])
        counts.push(await repo.adjustOverdue(SELLER, mine.uuid, delta));
      expect(counts).toEqual([1, 2, 1, 0, 0, 2]);
      expect((await repo.findProfile(SELLER, mine.uuid))?.overdueCount).toBe(2);
    });

    it('answers null for a customer the tenant does not have', async () => {
      const repo = await make();
      const theirs = await register(repo, 1, {}, OTHER_SELLER);

      expect(await repo.adjustOverdue(SELLER, theirs.uuid, 1)).toBeNull();
      expect(await repo.adjustOverdue(LIVE, theirs.uuid, 1)).toBeNull();
      expect((await repo.findProfile(OTHER_SELLER, theirs.uuid))?.overdueCount).toBe(0);
    });

    it('lists only overdue customers, newest first, with their total, and drops one that is no longer overdue', async () => {
      const repo = await make();
      const profiles = [];
      for (let n = 1; n <= 5; n++) profiles.push(await register(repo, n, { name: `Cliente ${n}` }));
      const overdue = await register(repo, 6, {}, OTHER_SELLER);
      await repo.adjustOverdue(OTHER_SELLER, overdue.uuid, 1);
      for (const n of [1, 2, 4, 5]) await repo.adjustOverdue(SELLER, profiles[n - 1].uuid, 1);
      await repo.adjustOverdue(SELLER, profiles[4].uuid, -1);

      expect(seen(await repo.list(SELLER, query({ overdueOnly: true })))).toEqual([[4, 2, 1], 3]);
      expect(seen(await repo.list(SELLER, query({ overdueOnly: true, skip: 1, take: 1 })))).toEqual([[2], 3]);
      expect(seen(await repo.list(SELLER, query()))).toEqual([[5, 4, 3, 2, 1], 5]);
    });

    it('applies the overdue filter to a search', async () => {
      const repo = await make();
      const ana = await register(repo, 1, { name: 'Ana Souza', email: 'ana@example.com' });
      await register(repo, 2, { name: 'Ana Lima' });
      const bruno = await register(repo, 3, { name: 'Bruno Ana' });
      await repo.adjustOverdue(SELLER, ana.uuid, 1);
      await repo.adjustOverdue(SELLER, bruno.uuid, 3);

      const byName = query({ overdueOnly: true, search: { kind: 'name', prefix: 'ana' } });
      expect(seen(await repo.list(SELLER, byName))).toEqual([[1], 1]);
      const byEmail = query({ overdueOnly: true, search: { kind: 'email', email: 'ana@example.com' } });
      expect(seen(await repo.list(SELLER, byEmail))).toEqual([[1], 1]);
      const byDocument = query({ overdueOnly: true, search: { kind: 'document', document: DOCUMENTS[2] } });
      expect(seen(await repo.list(SELLER, byDocument))).toEqual([[], 0]);
    });
  });
  describe('relinkProfile', () => {
    /** The profile of customer 1 moved to document 2 (`created`: document 2 is new to the platform). */
    async function moved(repo: CustomerRepository, created: boolean) {
      const mine = await register(repo, 1, { name: 'Ana Souza', email: 'ana@example.com' });
      const target = created
        ? globalCustomer(2, { id: 20, uuid: 'c0000000-0000-4000-8000-000000000020' })
        : globalCustomer(2);
      if (!created) await repo.createGlobal(target, profileOf(target, OTHER_SELLER));
      const next: CustomerProfile = {
        ...mine,
        document: DOCUMENTS[2],
        name: 'Ana Souza Lima',
        email: 'ana.lima@example.com',
        globalEmail: target.email,
        updatedAt: NOW,
      };
      const spare = { id: 30, uuid: 'c0000000-0000-4000-8000-000000000030' };
      const answer = await repo.relinkProfile({ current: mine, next, target, createTarget: created, spare });
      return { mine, next, target, spare, answer };
    }

    for (const created of [false, true]) {
      it(`moves the profile to ${created ? 'a new' : 'a known'} document, keeping its id and uuid`, async () => {
        const repo = await make();
        const { mine, next, spare, answer } = await moved(repo, created);

        expect(answer).toEqual(next);
        expect(await repo.findProfile(SELLER, mine.uuid)).toMatchObject({
          id: mine.id,
          uuid: mine.uuid,
          document: DOCUMENTS[2],
          name: 'Ana Souza Lima',
          email: 'ana.lima@example.com',
        });
        expect(await repo.findProfileById(SELLER, mine.id)).toMatchObject({ document: DOCUMENTS[2] });
        // The new document is the seller's, naming the moved profile; the old one is not any more.
        const now = await repo.findRegistration(SELLER, DOCUMENTS[2]);
        expect(now.linked).toBe(true);
        expect(now.global?.profileRefs?.[SELLER.sellerId]).toEqual({ id: mine.id, uuid: mine.uuid });
        const before = await repo.findRegistration(SELLER, DOCUMENTS[1]);
        expect(before.linked).toBe(false);
        expect(before.global?.profileRefs?.[SELLER.sellerId]).toEqual(spare);
        // Searches follow: the new document and e-mail find it, the old ones do not.
        const search = (s: CustomerSearch) => repo.list(SELLER, query({ search: s })).then(seen);
        expect(await search({ kind: 'document', document: DOCUMENTS[2] })).toEqual([[mine.id], 1]);
        expect(await search({ kind: 'document', document: DOCUMENTS[1] })).toEqual([[], 0]);
        expect(await search({ kind: 'email', email: 'ana.lima@example.com' })).toEqual([[mine.id], 1]);
        expect(await search({ kind: 'email', email: 'ana@example.com' })).toEqual([[], 0]);
        expect(seen(await repo.list(SELLER, query()))).toEqual([[mine.id], 1]);
        // The other seller of document 2 is untouched.
        if (!created) expect((await repo.findRegistration(OTHER_SELLER, DOCUMENTS[2])).linked).toBe(true);
      });
    }

    it('gives a later profile of the old document the spare identity', async () => {
      const repo = await make();
      const { mine, spare } = await moved(repo, false);
      const old = (await repo.findRegistration(SELLER, DOCUMENTS[1])).global as GlobalCustomer;
      const again = profileOf(old, SELLER, { ...spare, name: 'Dono do CPF' });
      await repo.addProfile(again);

      expect(await repo.findProfile(SELLER, spare.uuid)).toMatchObject({
        document: DOCUMENTS[1],
        name: 'Dono do CPF',
      });
      expect(await repo.findProfile(SELLER, mine.uuid)).toMatchObject({ document: DOCUMENTS[2] });
      expect((await repo.findRegistration(SELLER, DOCUMENTS[1])).linked).toBe(true);
    });

    it('refuses a document the tenant already has with ConflictError already_exists, writing nothing', async () => {
      const repo = await make();
      const mine = await register(repo, 1);
      const theirs = await register(repo, 2);
      const target = (await repo.findGlobal('test', DOCUMENTS[2])) as GlobalCustomer;
      const next = { ...mine, document: DOCUMENTS[2], updatedAt: NOW };
      const spare = { id: 30, uuid: 'c0000000-0000-4000-8000-000000000030' };

      const error = await conflictOf(
        repo.relinkProfile({ current: mine, next, target, createTarget: false, spare }),
      );
      expect(error.reason).toBe('already_exists');
      expect(await repo.findProfile(SELLER, mine.uuid)).toMatchObject({ document: DOCUMENTS[1] });
      expect(await repo.findProfile(SELLER, theirs.uuid)).toMatchObject({ document: DOCUMENTS[2] });
      expect((await repo.findRegistration(SELLER, DOCUMENTS[1])).linked).toBe(true);
    });

    it('refuses a profile changed since it was read with CustomerContentionError', async () => {
      const repo = await make();
      const mine = await register(repo, 1);
      await repo.updateProfile(mine, { name: 'Outra', updatedAt: NOW });
      const target = globalCustomer(2, { id: 20, uuid: 'c0000000-0000-4000-8000-000000000020' });
      const next = { ...mine, document: DOCUMENTS[2], updatedAt: NOW };
      const spare = { id: 30, uuid: 'c0000000-0000-4000-8000-000000000030' };

      await expect(
        repo.relinkProfile({ current: mine, next, target, createTarget: true, spare }),
      ).rejects.toBeInstanceOf(CustomerContentionError);
      expect(await repo.findGlobal('test', DOCUMENTS[2])).toBeNull();
    });
  });
});
