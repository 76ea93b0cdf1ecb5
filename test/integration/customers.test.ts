import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { cnpjCheckDigits, cpfCheckDigits, normalizeDocument } from '#shared/domain/documents';
import { UUID_V4 } from '#shared/ids';
import { sellerFixtures } from '../support/fixtures';
import { client, startTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  runtime = await startTestRuntime();
  api = client(runtime.baseUrl);
});
afterAll(() => runtime?.stop());

const path = '/api/v1/customers';

const fixtures = sellerFixtures(() => ({ runtime, api }), 80_000);
interface Seller {
  sellerId: number;
  /** Dashboard JWT: acts on live unless X-Environment: test. */
  jwt: string;
  /** sk_test_ key: acts on test. */
  key: string;
}

/** A seller nobody else uses, so its lists hold only what the test made. */
async function freshSeller(): Promise<Seller> {
  const { sellerId, jwt, key } = await fixtures.seller();
  return { sellerId, jwt, key };
}

let nextDocument = 100_000_000 + Math.floor(Math.random() * 100_000_000);
const newCpf = () => {
  const base = String(nextDocument++);
  return `${base}${cpfCheckDigits(base)}`;
};
const newCnpj = () => {
  const base = `${String(nextDocument++).slice(-8)}0001`;
  return `${base}${cnpjCheckDigits(base)}`;
};
const mask = (cpf: string) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;

const body = (document: string, extra: Record<string, unknown> = {}) => ({
  name: 'Ana Souza',
  email: 'ana@example.com',
  document,
  phone: '11987654321',
  personType: normalizeDocument(document).length === 11 ? 'fisica' : 'juridica',
  ...extra,
});

async function create(token: string, document: string, extra: Record<string, unknown> = {}, expected = 201) {
  const res = await api.post(path, body(document, extra), { token });
  expect(res.status, JSON.stringify(res.body)).toBe(expected);
  return res.body;
}

const list = (token: string, query = '', headers?: Record<string, string>) =>
  api.get(`${path}${query}`, { token, headers });

/**
 * DynamoDB requests the runtime sent while `work` ran, by command; an id block claimed ahead in the
 * background (an UpdateItem the request does not wait for) is not the request's.
 */
async function tripsOf(work: () => Promise<unknown>) {
  const before = { ...runtime.roundTrips.byCommand };
  const total = runtime.roundTrips.total;
  const ahead = runtime.deps.table.aheadClaims;
  await work();
  const claimedAhead = runtime.deps.table.aheadClaims - ahead;
  const by: Record<string, number> = {};
  for (const [k, v] of Object.entries(runtime.roundTrips.byCommand)) {
    const n = v - (before[k] ?? 0) - (k === 'UpdateItemCommand' ? claimedAhead : 0);
    if (n !== 0) by[k] = n;
  }
  return { total: runtime.roundTrips.total - total - claimedAhead, by };
}

describe('POST /api/v1/customers', () => {
  it('registers a customer and answers the seller view, normalizing masked input', async () => {
    const { key } = await freshSeller();
    const cpf = newCpf();
    const res = await api.post(
      path,
      body(mask(cpf), {
        phone: '(11) 98765-4321',
        zipCode: '01310-100',
        street: 'Av. Paulista',
        number: '1000',
        state: 'sp',
      }),
      { token: key },
    );
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'id',
        'uuid',
        'name',
        'email',
        'phone',
        'document',
        'personType',
        'zipCode',
        'street',
        'number',
        'complement',
        'neighborhood',
        'city',
        'state',
        'billingEmail',
        'hasBillingEmailOverride',
        'createdAt',
        'updatedAt',
      ].sort(),
    );
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      name: 'Ana Souza',
      email: 'ana@example.com',
      document: cpf,
      phone: '11987654321',
      personType: 'fisica',
      zipCode: '01310100',
      street: 'Av. Paulista',
      number: '1000',
      complement: null,
      neighborhood: null,
      city: null,
      state: 'SP',
      billingEmail: 'ana@example.com',
      hasBillingEmailOverride: false,
    });
    expect(res.body.uuid).toMatch(UUID_V4);
  });

  it('accepts a masked alphanumeric CNPJ for a juridica customer', async () => {
    const { key } = await freshSeller();
    const res = await api.post(path, body('12.ABC.345/01DE-35', { personType: 'juridica' }), { token: key });
    expect(res.status).toBe(201);
    expect(res.body.document).toBe('12ABC34501DE35');
  });

  it('gives one message per invalid field', async () => {
    const { key } = await freshSeller();
    const res = await api.post(
      path,
      {
        name: 'Ana',
        email: 'not-an-email',
        document: '123.456.789-00',
        phone: '1234',
        personType: 'fisica',
        zipCode: '123',
        state: 'XX',
      },
      { token: key },
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual([
      'email must be a valid e-mail',
      'document is not a valid CPF or CNPJ',
      'phone must have 10 or 11 digits',
      'zipCode must have 8 digits',
      'state must be a Brazilian state (UF), e.g. SP',
    ]);
  });

  it('answers 400 when personType does not match the document, and names missing fields', async () => {
    const { key } = await freshSeller();
    const mismatch = await api.post(path, body(newCpf(), { personType: 'juridica' }), { token: key });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toEqual(['personType juridica requires a CNPJ (14 characters)']);
    const missing = await api.post(path, {}, { token: key });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toEqual([
      'name is required',
      'email is required',
      'document is required',
      'phone is required',
      'personType is required',
    ]);
  });

  it('reuses the global customer for a second seller, who gets a profile of its own', async () => {
    const a = await freshSeller();
    const b = await freshSeller();
    const doc = newCpf();
    const first = await create(a.key, doc, { name: 'Ana', email: 'ana@a.com', phone: '1133334444' });
    const second = await create(b.key, mask(doc), {
      name: 'Ana B',
      email: 'anab@b.com',
      phone: '21999998888',
    });
    expect(second.id).toBe(first.id);
    expect(second.uuid).toBe(first.uuid);
    expect(second).toMatchObject({
      name: 'Ana B',
      email: 'anab@b.com',
      phone: '21999998888',
      billingEmail: 'anab@b.com',
    });

    const seenByA = await list(a.key);
    expect(seenByA.body.data).toHaveLength(1);
    expect(seenByA.body.data[0]).toMatchObject({
      uuid: first.uuid,
      name: 'Ana',
      email: 'ana@a.com',
      phone: '1133334444',
    });
    const seenByB = await list(b.key);
    expect(seenByB.body.data[0]).toMatchObject({ uuid: first.uuid, name: 'Ana B', email: 'anab@b.com' });
    for (const search of [doc, 'ana']) {
      const asA = await list(a.key, `?search=${search}`);
      expect(asA.body.data.map((c: { email: string }) => c.email)).toEqual(['ana@a.com']);
      const asB = await list(b.key, `?search=${search}`);
      expect(asB.body.data.map((c: { email: string }) => c.email)).toEqual(['anab@b.com']);
    }
    const foreignEmail = await list(a.key, '?search=anab@b.com');
    expect(foreignEmail.body).toMatchObject({ data: [], count: 0, totalCount: 0 });
    expect(JSON.stringify((await list(a.key, '?search=Ana B')).body)).not.toContain('anab@b.com');
  });

  it('never de-duplicates by e-mail: two documents with one e-mail are two customers', async () => {
    const { key } = await freshSeller();
    const first = await create(key, newCpf(), { email: 'shared@example.com' });
    const second = await create(key, newCnpj(), { email: 'shared@example.com' });
    expect(second.id).not.toBe(first.id);
    expect(second.uuid).not.toBe(first.uuid);
    const found = await list(key, '?search=shared@example.com');
    expect(found.body).toMatchObject({ count: 2, totalCount: 2 });
    expect(found.body.data.map((c: { uuid: string }) => c.uuid)).toEqual([second.uuid, first.uuid]);
  });

  it('updates the profile when the same seller registers the document again (201)', async () => {
    const { key } = await freshSeller();
    const doc = newCpf();
    const first = await create(key, doc, { city: 'Santos' });
    const again = await create(key, doc, { name: 'Ana Maria', email: 'maria@example.com' });
    expect(again).toMatchObject({
      id: first.id,
      uuid: first.uuid,
      name: 'Ana Maria',
      email: 'maria@example.com',
      city: 'Santos',
    });
    const listed = await list(key);
    expect(listed.body).toMatchObject({ count: 1, totalCount: 1 });
    expect(listed.body.data[0].name).toBe('Ana Maria');
  });

  it('makes one global customer out of 20 concurrent registrations by two sellers', async () => {
    const a = await freshSeller();
    const b = await freshSeller();
    const doc = newCpf();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.post(path, body(doc, { name: `Seller ${i % 2}` }), { token: i % 2 ? b.key : a.key }),
      ),
    );
    expect(
      answers.map((r) => r.status).every((s) => s === 201),
      JSON.stringify(answers.map((r) => r.body)),
    ).toBe(true);
    expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
    expect(new Set(answers.map((r) => r.body.uuid)).size).toBe(1);
    // Exactly one profile per seller: the other requests found it (the lists below count one).
    for (const [seller, name] of [
      [a, 'Seller 0'],
      [b, 'Seller 1'],
    ] as const) {
      const listed = await list(seller.key);
      expect(listed.body).toMatchObject({ count: 1, totalCount: 1 });
      expect(listed.body.data[0]).toMatchObject({ uuid: answers[0].body.uuid, name });
    }
  });

  it('replays the answer for the same X-Idempotency-Key and body', async () => {
    const { key } = await freshSeller();
    const headers = { 'x-idempotency-key': `cust-${Math.random()}` };
    const payload = body(newCpf());
    const first = await api.post(path, payload, { token: key, headers });
    const second = await api.post(path, payload, { token: key, headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect((await list(key)).body.totalCount).toBe(1);
  });

  it('keeps test-mode customers away from live credentials', async () => {
    const seller = await freshSeller();
    const created = await create(seller.key, newCpf());
    expect((await list(seller.jwt)).body.data).toEqual([]);
    const asTest = await list(seller.jwt, '', { 'x-environment': 'test' });
    expect(asTest.body.data.map((c: { uuid: string }) => c.uuid)).toEqual([created.uuid]);
    const live = await api.post(
      '/api/api-keys',
      { name: 'live', environment: 'live' },
      { token: seller.jwt },
    );
    expect((await list(live.body.key)).body.totalCount).toBe(0);
    expect((await api.patch(`${path}/${created.uuid}`, { name: 'X' }, { token: seller.jwt })).status).toBe(
      404,
    );
  });
});

describe('PATCH /api/v1/customers/{uuid}', () => {
  it("changes only this seller's view", async () => {
    const a = await freshSeller();
    const b = await freshSeller();
    const doc = newCpf();
    const created = await create(a.key, doc);
    await create(b.key, doc, { name: 'Ana B', email: 'anab@b.com' });
    const res = await api.patch(
      `${path}/${created.uuid}`,
      { name: 'Ana Lima', city: 'Recife', state: 'pe', document: mask(doc), personType: 'fisica' },
      { token: a.key },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      uuid: created.uuid,
      name: 'Ana Lima',
      email: 'ana@example.com',
      city: 'Recife',
      state: 'PE',
    });
    expect(res.body.updatedAt >= created.updatedAt).toBe(true);
    expect((await list(b.key)).body.data[0]).toMatchObject({ name: 'Ana B', city: null });
    expect((await list(a.key, '?search=ana l')).body.data.map((c: { name: string }) => c.name)).toEqual([
      'Ana Lima',
    ]);
  });

  it('moves the e-mail search to the new e-mail and clears address fields with null', async () => {
    const { key } = await freshSeller();
    const created = await create(key, newCpf(), { email: 'old@example.com', city: 'Natal' });
    const res = await api.patch(
      `${path}/${created.uuid}`,
      { email: 'New@Example.com', city: null },
      { token: key },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: 'New@Example.com', city: null });
    expect((await list(key, '?search=old@example.com')).body.totalCount).toBe(0);
    expect(
      (await list(key, '?search=new@example.com')).body.data.map((c: { uuid: string }) => c.uuid),
    ).toEqual([created.uuid]);
  });

  it('changes the document (the profile keeps its uuid) and the personType with it, never one without the other', async () => {
    const { key } = await freshSeller();
    const created = await create(key, newCpf());
    const cpf = newCpf();
    const doc = await api.patch(`${path}/${created.uuid}`, { document: cpf }, { token: key });
    expect(doc.status, JSON.stringify(doc.body)).toBe(200);
    expect(doc.body).toMatchObject({
      uuid: created.uuid,
      id: created.id,
      document: cpf,
      personType: 'fisica',
    });
    const cnpj = newCnpj();
    const type = await api.patch(
      `${path}/${created.uuid}`,
      { document: cnpj, personType: 'juridica' },
      { token: key },
    );
    expect(type.body).toMatchObject({ uuid: created.uuid, document: cnpj, personType: 'juridica' });
    const alone = await api.patch(`${path}/${created.uuid}`, { personType: 'fisica' }, { token: key });
    expect(alone.status).toBe(400);
    expect(alone.body.message).toEqual(['personType fisica requires a CPF (11 digits)']);
    const invalid = await api.patch(`${path}/${created.uuid}`, { phone: '12' }, { token: key });
    expect(invalid.body.message).toEqual(['phone must have 10 or 11 digits']);
  });

  it("answers the same 404 for another seller's customer and for a missing one", async () => {
    const a = await freshSeller();
    const b = await freshSeller();
    const created = await create(a.key, newCpf());
    const foreign = await api.patch(`${path}/${created.uuid}`, { name: 'X' }, { token: b.key });
    const missing = await api.patch(`${path}/${crypto.randomUUID()}`, { name: 'X' }, { token: b.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Customer not found');
    expect(missing.body.message).toBe(foreign.body.message);
    expect((await list(a.key)).body.data[0].name).toBe('Ana Souza');
    const override = await api.patch(
      `${path}/${created.uuid}/billing-email-override`,
      { billingEmailOverride: 'b@b.com' },
      { token: b.key },
    );
    expect(override).toMatchObject({ status: 404, body: { message: 'Customer not found' } });
    expect((await list(a.key)).body.data[0].hasBillingEmailOverride).toBe(false);
  });
});

describe('PATCH /api/v1/customers/{uuid}/billing-email-override', () => {
  it('keeps the override through e-mail changes, and clearing it falls back to the profile e-mail', async () => {
    const { key } = await freshSeller();
    const created = await create(key, newCpf());
    const overridePath = `${path}/${created.uuid}/billing-email-override`;
    const set = await api.patch(
      overridePath,
      { billingEmailOverride: 'finance@example.com' },
      { token: key },
    );
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      billingEmail: 'finance@example.com',
      hasBillingEmailOverride: true,
      email: 'ana@example.com',
    });
    const changed = await api.patch(
      `${path}/${created.uuid}`,
      { email: 'ana.new@example.com' },
      { token: key },
    );
    expect(changed.body).toMatchObject({ email: 'ana.new@example.com', billingEmail: 'finance@example.com' });
    const cleared = await api.patch(overridePath, { billingEmailOverride: null }, { token: key });
    expect(cleared.body).toMatchObject({
      billingEmail: 'ana.new@example.com',
      hasBillingEmailOverride: false,
    });
  });

  it('answers 400 for a value that is neither an e-mail nor null, and 404 for an unknown customer', async () => {
    const { key } = await freshSeller();
    const created = await create(key, newCpf());
    for (const value of ['nope', 42, undefined]) {
      const res = await api.patch(
        `${path}/${created.uuid}/billing-email-override`,
        { billingEmailOverride: value },
        { token: key },
      );
      expect(res.status).toBe(400);
      expect(res.body.message).toEqual(['billingEmailOverride must be a valid e-mail or null']);
    }
    const missing = await api.patch(
      `${path}/${crypto.randomUUID()}/billing-email-override`,
      { billingEmailOverride: null },
      { token: key },
    );
    expect(missing).toMatchObject({ status: 404, body: { message: 'Customer not found' } });
  });
});

describe('GET /api/v1/customers', () => {
  it('lists newest first in pages with counts', async () => {
    const { key } = await freshSeller();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await create(key, newCpf(), { name: `Cliente ${i}` }));
    const first = await list(key, '?limit=2');
    expect(first.body).toMatchObject({ count: 2, totalCount: 5, totalPages: 3 });
    expect(first.body.data.map((c: { name: string }) => c.name)).toEqual(['Cliente 4', 'Cliente 3']);
    const third = await list(key, '?limit=2&page=3');
    expect(third.body.data.map((c: { name: string }) => c.name)).toEqual(['Cliente 0']);
    expect((await list(key, '?page=9')).body).toMatchObject({
      data: [],
      count: 0,
      totalCount: 5,
      totalPages: 1,
    });
  });

  it('answers 400 for a bad limit, page or status, and an empty page past the end however deep', async () => {
    const { key } = await freshSeller();
    for (const query of ['?limit=101', '?limit=0', '?page=0', '?status=late']) {
      const res = await list(key, query);
      expect(res.status, query).toBe(400);
    }
    for (const query of ['?page=500&limit=20', '?page=501&limit=20', '?page=101&limit=100']) {
      const res = await list(key, query);
      expect([res.status, res.body], query).toEqual([
        200,
        { data: [], count: 0, totalCount: 0, totalPages: 0 },
      ]);
    }
  });

  it('searches by document, e-mail and name prefix ignoring case and accents', async () => {
    const { key } = await freshSeller();
    const doc = newCpf();
    const jose = await create(key, doc, { name: 'José Álvares', email: 'Jose@Example.com' });
    await create(key, newCpf(), { name: 'Joana Prado', email: 'joana@example.com' });
    await create(key, newCnpj(), { name: 'Mercado Zé', email: 'ze@example.com' });
    const names = async (search: string) =>
      (await list(key, `?search=${encodeURIComponent(search)}`)).body.data.map(
        (c: { name: string }) => c.name,
      );
    expect(await names(mask(doc))).toEqual(['José Álvares']);
    expect(await names('jose@example.COM')).toEqual(['José Álvares']);
    expect(await names('JOSE alv')).toEqual(['José Álvares']);
    expect(await names('jo')).toEqual(['Joana Prado', 'José Álvares']);
    expect(await names('nobody')).toEqual([]);
    const counted = await list(key, '?search=jo&limit=1');
    expect(counted.body).toMatchObject({ count: 1, totalCount: 2, totalPages: 2 });
    expect((await list(key, '?search=jo&limit=1&page=2')).body.data[0].uuid).toBe(jose.uuid);
  });

  it('lists only customers with overdue charges for status=overdue, kept by adjustOverdue', async () => {
    const seller = await freshSeller();
    const tenant = { sellerId: seller.sellerId, environment: 'test' as const };
    const late = await create(seller.key, newCpf(), { name: 'Late Payer' });
    await create(seller.key, newCpf(), { name: 'On Time' });
    const overdue = async (query = '') => (await list(seller.key, `?status=overdue${query}`)).body;
    expect(await overdue()).toMatchObject({ data: [], totalCount: 0 });

    const repo = runtime.deps.repos.customers;
    expect(await repo.adjustOverdue(tenant, late.uuid, 1)).toBe(1);
    expect((await overdue()).data.map((c: { name: string }) => c.name)).toEqual(['Late Payer']);
    expect(await repo.adjustOverdue(tenant, late.uuid, 1)).toBe(2);
    expect(await repo.adjustOverdue(tenant, late.uuid, -1)).toBe(1);
    expect(await overdue()).toMatchObject({ count: 1, totalCount: 1 });
    expect((await overdue('&search=late')).data).toHaveLength(1);
    expect((await overdue('&search=on')).data).toHaveLength(0);
    expect(await repo.adjustOverdue(tenant, late.uuid, -1)).toBe(0);
    expect(await overdue()).toMatchObject({ data: [], totalCount: 0 });
    expect(await repo.adjustOverdue({ ...tenant, environment: 'live' }, late.uuid, 1)).toBeNull();
  });
});

describe('round trips', () => {
  it('creates with one BatchGetItem and one write after authentication, re-registration included', async () => {
    const a = await freshSeller();
    const b = await freshSeller();
    const doc = newCpf();
    await create(a.key, newCpf()); // reserve an id block first, so no counter update lands in the measurement
    const fresh = await tripsOf(() => create(a.key, doc));
    expect(fresh).toEqual({
      total: 3,
      by: { UpdateItemCommand: 1, BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 },
    });
    const linked = await tripsOf(() => create(b.key, doc));
    expect(linked).toEqual({
      total: 3,
      by: { UpdateItemCommand: 1, BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 },
    });
    // Re-registration: one conditional UpdateItem, which writes only when something differs.
    const same = await tripsOf(() => create(b.key, doc, {}));
    expect(same).toEqual({ total: 3, by: { UpdateItemCommand: 2, BatchGetItemCommand: 1 } });
    const changed = await tripsOf(() => create(b.key, doc, { name: 'Other', city: 'Santos' }));
    expect(changed).toEqual({ total: 3, by: { UpdateItemCommand: 2, BatchGetItemCommand: 1 } });
    // A new e-mail moves its search pointer: the stored profile comes back with the failed condition.
    const moved = await tripsOf(() =>
      create(b.key, doc, { name: 'Other', email: 'moved@example.com', city: 'Santos' }),
    );
    expect(moved).toEqual({
      total: 4,
      by: { UpdateItemCommand: 2, BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 },
    });
    const again = await api.get(`${path}?search=moved@example.com`, { token: b.key });
    expect(again.body.data.map((c: { name: string; city: string }) => [c.name, c.city])).toEqual([
      ['Other', 'Santos'],
    ]);
  });

  it('searches through keys and indexes: GetItems for a document, a pointer Query for an e-mail, one Query for a name', async () => {
    const { key } = await freshSeller();
    const doc = newCpf();
    await create(key, doc, { email: 'trip@example.com', name: 'Trip Name' });
    const byDocument = await tripsOf(() => list(key, `?search=${doc}`));
    expect(byDocument).toEqual({ total: 3, by: { UpdateItemCommand: 1, GetItemCommand: 2 } });
    const byEmail = await tripsOf(() => list(key, '?search=trip@example.com'));
    // The one profile the pointer names: the unit of work sends a read of one key as a GetItem.
    expect(byEmail).toEqual({
      total: 3,
      by: { UpdateItemCommand: 1, QueryCommand: 1, GetItemCommand: 1 },
    });
    // Every match of the name prefix in one Query (sorted newest first in memory), the total with it.
    const byName = await tripsOf(() => list(key, '?search=trip'));
    expect(byName).toEqual({ total: 2, by: { UpdateItemCommand: 1, QueryCommand: 1 } });
  });

  it('patches with one GetItem and one write, and lists with one Query (the count comes with the page)', async () => {
    const { key } = await freshSeller();
    const created = await create(key, newCpf());
    const patch = await tripsOf(() =>
      api.patch(`${path}/${created.uuid}`, { email: 'x@example.com' }, { token: key }),
    );
    expect(patch).toEqual({
      total: 3,
      by: { UpdateItemCommand: 1, GetItemCommand: 1, TransactWriteItemsCommand: 1 },
    });
    const listed = await tripsOf(() => list(key));
    expect(listed).toEqual({ total: 2, by: { UpdateItemCommand: 1, QueryCommand: 1 } });
  });
});
