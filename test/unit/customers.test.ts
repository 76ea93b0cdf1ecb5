import { describe, expect, it } from 'vitest';
import { buyerStateOf, recordBuyer } from '#shared/domain/customers/buyer';
import {
  billingEmailOf,
  CustomerContentionError,
  type CustomerProfile,
  type GlobalCustomer,
  type ProfilePatch,
  type ProfileRelink,
  type RegisteredFields,
  searchableName,
} from '#shared/domain/customers/customer';
import {
  createCustomer,
  DOCUMENT_TAKEN,
  setBillingEmailOverride,
  updateCustomer,
} from '#shared/domain/customers/customers';
import { classifySearch, listCustomers } from '#shared/domain/customers/listing';
import {
  billingEmailOverrideSchema,
  createCustomerSchema,
  listCustomersSchema,
  updateCustomerSchema,
} from '#shared/domain/customers/schemas';
import type { CustomerQuery, CustomerRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, NotFoundError, ValidationError } from '#shared/errors';
import { parseInput } from '#shared/validation';
import { FakeCustomerRepository } from '../support/fakes/customer-repository';
import { fakeAtomically } from '../support/fakes/unit-of-work';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const A: Tenant = { sellerId: 1, environment: 'test' };
const B: Tenant = { sellerId: 2, environment: 'test' };
const CPF = '52998224725';

const profileKey = (t: Tenant, uuid: string) => `${t.sellerId}#${t.environment}#${uuid}`;

/** In-memory repository with the same outcomes as the DynamoDB one; tests override methods to stage races. */
class FakeCustomers implements Omit<CustomerRepository, 'addBuyer' | 'findBuyer' | 'confirmUnchanged'> {
  globals = new Map<string, GlobalCustomer>();
  profiles = new Map<string, CustomerProfile>();
  writes = 0;
  private ids = 0;
  async nextId() {
    return ++this.ids;
  }
  async findGlobal(environment: string, document: string) {
    return this.globals.get(`${environment}#${document}`) ?? null;
  }
  async findRegistration(tenant: Tenant, document: string) {
    const global = this.globals.get(`${tenant.environment}#${document}`) ?? null;
    const linked = [...this.profiles.values()].some(
      (p) =>
        p.document === document &&
        p.tenant.sellerId === tenant.sellerId &&
        p.tenant.environment === tenant.environment,
    );
    return { global, linked: global !== null && linked };
  }
  async findProfile(tenant: Tenant, uuid: string) {
    return this.profiles.get(profileKey(tenant, uuid)) ?? null;
  }
  async findRefById(tenant: Tenant, id: number) {
    const found = await this.findProfileById(tenant, id);
    return found ? { id: found.id, uuid: found.uuid } : null;
  }
  async findProfileById(tenant: Tenant, id: number) {
    return (
      [...this.profiles.values()].find(
        (p) =>
          p.id === id && p.tenant.sellerId === tenant.sellerId && p.tenant.environment === tenant.environment,
      ) ?? null
    );
  }
  async createGlobal(global: GlobalCustomer, profile: CustomerProfile) {
    if (this.globals.has(`${global.environment}#${global.document}`))
      throw new ConflictError('taken', 'customer_exists', { reason: 'already_exists' });
    this.globals.set(`${global.environment}#${global.document}`, global);
    this.profiles.set(profileKey(profile.tenant, profile.uuid), profile);
    this.writes++;
  }
  async addProfile(profile: CustomerProfile) {
    const existing = this.profiles.get(profileKey(profile.tenant, profile.uuid));
    if (existing)
      throw new ConflictError('exists', 'customer_exists', { reason: 'already_exists', current: existing });
    this.profiles.set(profileKey(profile.tenant, profile.uuid), profile);
    this.writes++;
  }
  async updateProfile(current: CustomerProfile, patch: ProfilePatch) {
    const stored = this.profiles.get(profileKey(current.tenant, current.uuid));
    if (!stored || stored.email !== current.email) throw new CustomerContentionError();
    const next = { ...stored, ...patch };
    this.profiles.set(profileKey(current.tenant, current.uuid), next);
    this.writes++;
    return next;
  }
  async relinkProfile({ current, next, target, spare }: ProfileRelink) {
    const { tenant } = current;
    if ((await this.findRegistration(tenant, next.document)).linked)
      throw new ConflictError('taken', 'customer_exists', { reason: 'already_exists' });
    const withRef = (g: GlobalCustomer, ref: { id: number; uuid: string }) => ({
      ...g,
      profileRefs: { ...g.profileRefs, [tenant.sellerId]: ref },
    });
    const oldKey = `${tenant.environment}#${current.document}`;
    const old = this.globals.get(oldKey);
    if (old) this.globals.set(oldKey, withRef(old, spare));
    const targetKey = `${tenant.environment}#${target.document}`;
    this.globals.set(
      targetKey,
      withRef(this.globals.get(targetKey) ?? target, { id: next.id, uuid: next.uuid }),
    );
    this.profiles.set(profileKey(tenant, current.uuid), next);
    this.writes++;
    return next;
  }
  async reRegister(tenant: Tenant, uuid: string, fields: RegisteredFields, at: string) {
    const stored = this.profiles.get(profileKey(tenant, uuid));
    if (!stored) throw new CustomerContentionError();
    const differs = Object.entries(fields).some(
      ([f, v]) => f !== 'email' && v !== undefined && v !== stored[f as keyof RegisteredFields],
    );
    if (stored.email !== fields.email || !differs)
      throw new ConflictError('stored', 'customer_changed', { reason: 'changed', current: stored });
    const next = { ...stored, ...fields, updatedAt: at };
    this.profiles.set(profileKey(tenant, uuid), next);
    this.writes++;
    return next;
  }
  async setBillingEmailOverride(tenant: Tenant, uuid: string, email: string | null, at: string) {
    const stored = this.profiles.get(profileKey(tenant, uuid));
    if (!stored) return null;
    const next = { ...stored, billingEmailOverride: email, updatedAt: at };
    this.profiles.set(profileKey(tenant, uuid), next);
    return next;
  }
  lastQuery?: CustomerQuery;
  async list(tenant: Tenant, query: CustomerQuery) {
    this.lastQuery = query;
    const mine = [...this.profiles.values()].filter((p) => p.tenant.sellerId === tenant.sellerId);
    return { items: mine.slice(query.skip, query.skip + query.take), total: mine.length };
  }
  async adjustOverdue() {
    return null;
  }
}

function setup() {
  const customers = new FakeCustomers();
  let n = 0;
  const deps = {
    customers,
    clock: { now: () => NOW },
    ids: { uuid: () => `uuid-${++n}`, prefixed: (p: string) => `${p}_x` },
    pause: async () => {},
  };
  return { customers, deps };
}

const input = (extra: Record<string, unknown> = {}) =>
  parseInput(createCustomerSchema, {
    name: 'Ana Souza',
    email: 'ana@example.com',
    document: CPF,
    phone: '11987654321',
    personType: 'fisica',
    ...extra,
  });

const messagesOf = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.messages as string[];
    throw error;
  }
  throw new Error('expected a validation error');
};

describe('customer schemas', () => {
  it('normalizes masks, case and blanks', () => {
    const parsed = input({
      document: '529.982.247-25',
      phone: '(11) 98765-4321',
      zipCode: '01310-100',
      state: ' rj ',
    });
    expect(parsed).toMatchObject({ document: CPF, phone: '11987654321', zipCode: '01310100', state: 'RJ' });
    expect(input({ document: '12.abc.345/01de-35', personType: 'juridica' }).document).toBe('12ABC34501DE35');
  });

  it('gives one message per invalid field', () => {
    const messages = messagesOf(() =>
      input({
        email: 'x@',
        document: '11111111111',
        phone: '123',
        zipCode: '1234567',
        state: 'ZZ',
        extra: 1,
      }),
    );
    expect(messages).toEqual([
      'email must be a valid e-mail',
      'document is not a valid CPF or CNPJ',
      'phone must have 10 or 11 digits',
      'zipCode must have 8 digits',
      'state must be a Brazilian state (UF), e.g. SP',
      'extra is not allowed',
    ]);
  });

  it('requires personType to match the document, only when both are valid', () => {
    expect(messagesOf(() => input({ personType: 'juridica' }))).toEqual([
      'personType juridica requires a CNPJ (14 characters)',
    ]);
    expect(messagesOf(() => input({ document: '11222333000181' }))).toEqual([
      'personType fisica requires a CPF (11 digits)',
    ]);
    expect(messagesOf(() => input({ document: '123', personType: 'juridica' }))).toEqual([
      'document is not a valid CPF or CNPJ',
    ]);
    expect(messagesOf(() => input({ personType: 'empresa' }))).toEqual([
      'personType must be one of: fisica, juridica',
    ]);
  });

  it('accepts a partial update and null to clear an address field', () => {
    expect(parseInput(updateCustomerSchema, { city: null })).toEqual({ city: null });
    expect(messagesOf(() => parseInput(updateCustomerSchema, { name: '  ' }))).toEqual([
      'name must not be empty',
    ]);
  });

  it('takes an e-mail or null as the billing override, nothing else', () => {
    expect(parseInput(billingEmailOverrideSchema, { billingEmailOverride: null })).toEqual({
      billingEmailOverride: null,
    });
    for (const value of ['x', 1, undefined]) {
      expect(
        messagesOf(() => parseInput(billingEmailOverrideSchema, { billingEmailOverride: value })),
      ).toEqual(['billingEmailOverride must be a valid e-mail or null']);
    }
  });

  it('pages 20 by default, at most 100', () => {
    expect(parseInput(listCustomersSchema, {})).toEqual({ page: 1, limit: 20 });
    expect(messagesOf(() => parseInput(listCustomersSchema, { limit: '101' }))).toEqual([
      'limit must be an integer from 1 to 100',
    ]);
    expect(messagesOf(() => parseInput(listCustomersSchema, { status: 'late' }))).toEqual([
      'status must be one of: overdue',
    ]);
    expect(parseInput(listCustomersSchema, { page: '101', limit: '100' })).toMatchObject({ page: 101 });
  });
});

describe('classifySearch', () => {
  it('reads a valid document, masked or not, as an exact document', () => {
    expect(classifySearch('529.982.247-25')).toEqual({ kind: 'document', document: CPF });
    expect(classifySearch('12.abc.345/01de-35')).toEqual({ kind: 'document', document: '12ABC34501DE35' });
  });

  it('reads anything with @ as an exact e-mail, in lower case', () => {
    expect(classifySearch(' Ana@Example.COM ')).toEqual({ kind: 'email', email: 'ana@example.com' });
  });

  it('reads the rest as a name prefix without case or accents, including invalid documents', () => {
    expect(classifySearch('  JOSÉ   Álv')).toEqual({ kind: 'name', prefix: 'jose alv' });
    expect(classifySearch('12345678900')).toEqual({ kind: 'name', prefix: '12345678900' });
    expect(classifySearch('')).toEqual({ kind: 'all' });
    expect(classifySearch(undefined)).toEqual({ kind: 'all' });
  });

  it('stores names in the same searchable form', () => {
    expect(searchableName('Conceição  ÁLVARES')).toBe('conceicao alvares');
  });
});

describe('createCustomer', () => {
  it('creates the global customer and the first profile', async () => {
    const { customers, deps } = setup();
    const out = await createCustomer(deps, A, input({ city: 'Santos' }));
    expect(out.created).toBe(true);
    expect(out.customer).toMatchObject({
      id: 1,
      uuid: 'uuid-1',
      document: CPF,
      city: 'Santos',
      street: null,
    });
    expect(customers.globals.size).toBe(1);
  });

  it('gives a second seller its own profile of the same global customer', async () => {
    const { customers, deps } = setup();
    const first = await createCustomer(deps, A, input());
    const second = await createCustomer(deps, B, input({ name: 'Ana B', email: 'b@b.com' }));
    expect(second.created).toBe(true);
    expect(second.customer).toMatchObject({
      id: first.customer.id,
      uuid: first.customer.uuid,
      name: 'Ana B',
    });
    expect((await customers.findProfile(A, first.customer.uuid))?.name).toBe('Ana Souza');
    expect(customers.globals.size).toBe(1);
  });

  it('updates the profile of a seller that registers the document again, keeping fields left out', async () => {
    const { customers, deps } = setup();
    await createCustomer(deps, A, input({ city: 'Santos' }));
    const again = await createCustomer(deps, A, input({ name: 'Ana Maria' }));
    expect(again.created).toBe(false);
    expect(again.customer).toMatchObject({ name: 'Ana Maria', city: 'Santos' });
    const writes = customers.writes;
    const same = await createCustomer(deps, A, input({ name: 'Ana Maria' }));
    expect(same.created).toBe(false);
    expect(customers.writes).toBe(writes);
  });

  it('continues with the winner after losing the race to create the global customer', async () => {
    const { customers, deps } = setup();
    const winner: GlobalCustomer = {
      id: 99,
      uuid: 'winner',
      environment: 'test',
      document: CPF,
      personType: 'fisica',
      name: 'W',
      email: 'w@w.com',
      phone: '1100000000',
      createdAt: NOW.toISOString(),
    };
    customers.createGlobal = async () => {
      customers.globals.set(`test#${CPF}`, winner);
      throw new ConflictError('taken', 'customer_exists', { reason: 'already_exists' });
    };
    const out = await createCustomer(deps, A, input());
    expect(out).toMatchObject({ created: true, customer: { id: 99, uuid: 'winner', name: 'Ana Souza' } });
  });

  it('retries after contention and gives up with 409 when it lasts', async () => {
    const { customers, deps } = setup();
    let calls = 0;
    const addProfile = customers.addProfile.bind(customers);
    await createCustomer(deps, B, input());
    customers.addProfile = async (p) => {
      if (++calls < 3) throw new CustomerContentionError();
      return addProfile(p);
    };
    expect((await createCustomer(deps, A, input())).created).toBe(true);
    expect(calls).toBe(3);
    customers.addProfile = async () => {
      calls++;
      throw new CustomerContentionError();
    };
    calls = 0;
    // A third seller: A has the profile now, so its registration is a re-registration.
    const C: Tenant = { sellerId: 3, environment: 'test' };
    await expect(createCustomer(deps, C, input())).rejects.toMatchObject({ statusCode: 409 });
    expect(calls).toBe(8);
  });
});

describe('updateCustomer', () => {
  it("changes only the caller's profile and answers 404 for a customer it does not have", async () => {
    const { customers, deps } = setup();
    const { customer } = await createCustomer(deps, A, input());
    await createCustomer(deps, B, input({ name: 'Ana B' }));
    const updated = await updateCustomer(
      deps,
      A,
      customer.uuid,
      parseInput(updateCustomerSchema, { name: 'Ana L', city: 'Recife' }),
    );
    expect(updated).toMatchObject({ name: 'Ana L', city: 'Recife' });
    expect((await customers.findProfile(B, customer.uuid))?.name).toBe('Ana B');
    await expect(
      updateCustomer(deps, { sellerId: 3, environment: 'test' }, customer.uuid, {}),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('accepts the stored document again; another one moves the profile, keeping its id and uuid', async () => {
    const { customers, deps } = setup();
    const { customer } = await createCustomer(deps, A, input());
    const same = parseInput(updateCustomerSchema, { document: '529.982.247-25', personType: 'fisica' });
    await expect(updateCustomer(deps, A, customer.uuid, same)).resolves.toMatchObject({ document: CPF });
    const cnpj = parseInput(updateCustomerSchema, { document: '11.222.333/0001-81', name: 'Ana ME' });
    const moved = await updateCustomer(deps, A, customer.uuid, cnpj);
    expect(moved).toMatchObject({
      id: customer.id,
      uuid: customer.uuid,
      document: '11222333000181',
      personType: 'juridica',
      name: 'Ana ME',
    });
    // The old document's next profile of this seller gets an identity of its own.
    const old = await customers.findGlobal('test', CPF);
    expect(old?.profileRefs?.[A.sellerId]?.uuid).not.toBe(customer.uuid);
    expect((await customers.findGlobal('test', '11222333000181'))?.profileRefs?.[A.sellerId]).toEqual({
      id: customer.id,
      uuid: customer.uuid,
    });
  });

  it('refuses a personType the document does not make, and a document the seller already has (409)', async () => {
    const { deps } = setup();
    const { customer } = await createCustomer(deps, A, input());
    const wrongType = parseInput(updateCustomerSchema, { personType: 'juridica' });
    await expect(updateCustomer(deps, A, customer.uuid, wrongType)).rejects.toMatchObject({
      statusCode: 400,
      messages: ['personType juridica requires a CNPJ (14 characters)'],
    });
    await createCustomer(deps, A, input({ document: '11222333000181', personType: 'juridica' }));
    const taken = parseInput(updateCustomerSchema, { document: '11222333000181' });
    await expect(updateCustomer(deps, A, customer.uuid, taken)).rejects.toMatchObject({
      statusCode: 409,
      message: DOCUMENT_TAKEN,
    });
  });

  it('reads again when the profile changed between read and write', async () => {
    const { customers, deps } = setup();
    const { customer } = await createCustomer(deps, A, input());
    const update = customers.updateProfile.bind(customers);
    let calls = 0;
    customers.updateProfile = async (current, patch) => {
      if (++calls === 1) throw new CustomerContentionError();
      return update(current, patch);
    };
    await expect(updateCustomer(deps, A, customer.uuid, { email: 'new@example.com' })).resolves.toMatchObject(
      {
        email: 'new@example.com',
      },
    );
    expect(calls).toBe(2);
  });
});

describe('billing e-mail', () => {
  it('resolves the override first, then the profile e-mail, then the global e-mail', () => {
    const base = { billingEmailOverride: null, email: 'p@x.com', globalEmail: 'g@x.com' } as CustomerProfile;
    expect(billingEmailOf({ ...base, billingEmailOverride: 'o@x.com' })).toBe('o@x.com');
    expect(billingEmailOf(base)).toBe('p@x.com');
    expect(billingEmailOf({ ...base, email: '' })).toBe('g@x.com');
  });

  it('keeps the override through an e-mail change and falls back once cleared', async () => {
    const { deps } = setup();
    const { customer } = await createCustomer(deps, A, input());
    await setBillingEmailOverride(deps, A, customer.uuid, 'fin@example.com');
    const changed = await updateCustomer(deps, A, customer.uuid, { email: 'new@example.com' });
    expect(changed).toMatchObject({ billingEmail: 'fin@example.com', hasBillingEmailOverride: true });
    const cleared = await setBillingEmailOverride(deps, A, customer.uuid, null);
    expect(cleared).toMatchObject({ billingEmail: 'new@example.com', hasBillingEmailOverride: false });
    await expect(setBillingEmailOverride(deps, B, customer.uuid, null)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('listCustomers', () => {
  it('turns page and limit into skip and take and counts pages', async () => {
    const { customers, deps } = setup();
    for (const document of ['52998224725', '11144477735', '12345678909'])
      await createCustomer(deps, A, input({ document }));
    const out = await listCustomers(deps, A, { page: 2, limit: 2, status: 'overdue', search: 'ana' });
    expect(customers.lastQuery).toEqual({
      search: { kind: 'name', prefix: 'ana' },
      overdueOnly: true,
      skip: 2,
      take: 2,
    });
    expect(out).toMatchObject({ count: 1, totalCount: 3, totalPages: 2 });
  });
});

describe('who gave the e-mail (issue 31, customer identity)', () => {
  function shared() {
    const customers = new FakeCustomerRepository();
    let n = 0;
    const deps = {
      customers,
      clock: { now: () => NOW },
      ids: { uuid: () => `uuid-${++n}`, prefixed: (p: string) => `${p}_x` },
      pause: async () => {},
    };
    return { customers, deps };
  }

  /** A public buyer recorded alone (a subscription trial's), as the stored state is now. */
  async function recordBuyerAlone(
    deps: ReturnType<typeof shared>['deps'],
    tenant: Tenant,
    buyer: ReturnType<typeof input>,
  ) {
    const state = buyerStateOf(await deps.customers.findBuyer(buyer.document), tenant);
    const at = NOW.toISOString();
    const recorded = await recordBuyer(
      { ...deps, atomically: fakeAtomically },
      tenant,
      buyer,
      state,
      at,
      async () => {},
    );
    return recorded.customer;
  }

  it("marks a seller's registration and update as the seller's, a portal change as the buyer's", async () => {
    const { customers, deps } = shared();
    const { customer } = await createCustomer(deps, A, input());
    expect((await customers.findProfile(A, customer.uuid))?.emailSource).toBe('seller');

    await updateCustomer(deps, A, customer.uuid, { email: 'typed@example.com' }, 'buyer');
    expect(await customers.findProfile(A, customer.uuid)).toMatchObject({
      email: 'typed@example.com',
      emailSource: 'buyer',
    });
    // The seller sending the same address again makes it the seller's.
    await updateCustomer(deps, A, customer.uuid, { email: 'typed@example.com' });
    expect((await customers.findProfile(A, customer.uuid))?.emailSource).toBe('seller');
  });

  it("a seller's re-registration of a buyer-made customer makes its e-mail the seller's", async () => {
    const { customers, deps } = shared();
    await recordBuyerAlone(deps, A, input({ name: 'Comprador' }));
    const [made] = [...customers.profiles.values()];
    expect(made).toMatchObject({ name: 'Comprador', emailSource: 'buyer' });

    await createCustomer(deps, A, input());
    expect(await customers.findProfile(A, made.uuid)).toMatchObject({
      name: 'Ana Souza',
      emailSource: 'seller',
    });
  });

  it("recordBuyer leaves a stored customer as it is and answers the buyer's own data", async () => {
    const { customers, deps } = shared();
    const { customer } = await createCustomer(deps, A, input());
    const recorded = await recordBuyerAlone(deps, A, input({ name: 'Outro', email: 'outro@example.com' }));
    expect(recorded).toMatchObject({
      id: customer.id,
      uuid: customer.uuid,
      name: 'Outro',
      email: 'outro@example.com',
    });
    expect(await customers.findProfile(A, customer.uuid)).toMatchObject({
      name: 'Ana Souza',
      email: 'ana@example.com',
    });
  });

  it("drops a customer-area override when the seller changes the e-mail, keeps the seller's own", async () => {
    const { customers, deps } = shared();
    const { customer } = await createCustomer(deps, A, input());
    await customers.setBillingEmailOverride(
      A,
      customer.uuid,
      'area@example.com',
      'customer',
      NOW.toISOString(),
    );
    const changed = await updateCustomer(deps, A, customer.uuid, { email: 'new@example.com' });
    expect(changed).toMatchObject({ billingEmail: 'new@example.com', hasBillingEmailOverride: false });

    await setBillingEmailOverride(deps, A, customer.uuid, 'fin@example.com');
    const again = await updateCustomer(deps, A, customer.uuid, { email: 'newer@example.com' });
    expect(again).toMatchObject({ billingEmail: 'fin@example.com', hasBillingEmailOverride: true });
  });
});
