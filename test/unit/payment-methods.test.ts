import { beforeEach, describe, expect, it } from 'vitest';
import { clockScope, scopedClock } from '#shared/adapters/system/clock';
import type { CustomerProfile } from '#shared/domain/customers/customer';
import { jobId as tenantJobId } from '#shared/domain/job-id';
import { PAYMENT_METHOD_EXPIRY_JOB } from '#shared/domain/payment-methods/expiry';
import { runExpiryStep, sweepExpirySteps } from '#shared/domain/payment-methods/expiry-steps';
import { deletePaymentMethod, listPaymentMethods } from '#shared/domain/payment-methods/manage';
import { type SaveCardInput, saveCard } from '#shared/domain/payment-methods/save-card';
import type { SavedCardToken } from '#shared/domain/payments/gateway';
import type { TestClockRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, NotFoundError } from '#shared/errors';
import { FakeClock } from '../support/fakes/clock';
import { FakeCustomerRepository } from '../support/fakes/customer-repository';
import { FakeGatewayRouter } from '../support/fakes/gateway-router';
import { SequentialIds } from '../support/fakes/ids';
import { FakePaymentMethodRepository } from '../support/fakes/payment-method-repository';
import { FakePaymentProvider } from '../support/fakes/payment-provider';
import { FakeReporter } from '../support/fakes/reporter';
import { FakeScheduler } from '../support/fakes/scheduler';

const SELLER: Tenant = { sellerId: 7, environment: 'test' };
const OTHER: Tenant = { sellerId: 8, environment: 'test' };
const MARIA = { id: 41, uuid: '4b0d3c4e-8a51-4d4e-9a43-4c9a3f0b2a11' };
const JOAO = { id: 42, uuid: '9f1e2d3c-4b5a-4697-8877-665544332211' };
/** Saved on 2026-01-10 at 12:00 in Sao Paulo. */
const SAVED_AT = '2026-01-10T15:00:00.000Z';

const card = (overrides: Partial<SavedCardToken> = {}): SavedCardToken => ({
  token: 'tok_first',
  brand: 'visa',
  last4: '1111',
  expiryMonth: 3,
  expiryYear: 2026,
  ...overrides,
});

let clock: FakeClock;
let repo: FakePaymentMethodRepository;
let scheduler: FakeScheduler;
let provider: FakePaymentProvider;
let reporter: FakeReporter;
let customers: FakeCustomerRepository;

const deps = () => ({
  paymentMethods: repo,
  payments: new FakeGatewayRouter({ test: provider, live: new FakePaymentProvider('live', false) }),
  scheduler,
  clock,
  ids: new SequentialIds(),
  customers,
  reporter,
});

const save = (overrides: Partial<SaveCardInput> = {}) =>
  saveCard(deps(), { tenant: SELLER, customer: MARIA, provider: 'fake', savedCard: card(), ...overrides });

const jobId = (id: number, t = SELLER) => tenantJobId(t, id);

beforeEach(() => {
  clock = new FakeClock(SAVED_AT);
  repo = new FakePaymentMethodRepository();
  scheduler = new FakeScheduler();
  provider = new FakePaymentProvider();
  reporter = new FakeReporter();
  customers = new FakeCustomerRepository();
  for (const [tenant, { uuid }] of [
    [SELLER, MARIA],
    [SELLER, JOAO],
    [OTHER, MARIA],
  ] as const)
    customers.seedProfile({ tenant, uuid } as CustomerProfile);
});

describe('saveCard', () => {
  it('keeps the card as an active method of the customer and never shows the token', async () => {
    const view = await save();
    expect(view).toEqual({
      id: 1,
      uuid: expect.any(String),
      type: 'card',
      customerId: 41,
      customerUuid: MARIA.uuid,
      brand: 'visa',
      last4: '1111',
      expiryMonth: 3,
      expiryYear: 2026,
      status: 'active',
      expiresAt: '2026-04-01T03:00:00.000Z',
      createdAt: SAVED_AT,
      updatedAt: SAVED_AT,
    });
    expect(JSON.stringify(view)).not.toContain('tok_');
    expect(await repo.get(SELLER, 1)).toMatchObject({ token: 'tok_first', provider: 'fake', version: 1 });
  });

  it('schedules the 30-day warning at the start of its Sao Paulo day', async () => {
    await save();
    expect(scheduler.scheduled).toEqual([
      {
        name: 'pm-expiry-test-7-1-30',
        at: new Date('2026-03-02T03:00:00.000Z'),
        payload: { job: PAYMENT_METHOD_EXPIRY_JOB, id: jobId(1) },
      },
    ]);
  });

  it('schedules the 14-day warning for a card saved after the 30-day one, and a minute ahead on a stage day', async () => {
    clock.set('2026-03-10T12:00:00.000Z');
    await save();
    expect(scheduler.scheduled[0]).toMatchObject({
      name: 'pm-expiry-test-7-1-14',
      at: new Date('2026-03-18T03:00:00Z'),
    });
    clock.set('2026-03-18T15:00:00.000Z');
    await save({ customer: JOAO });
    expect(scheduler.scheduled[1]).toMatchObject({
      name: 'pm-expiry-test-7-2-14',
      at: new Date('2026-03-18T15:01:00Z'),
    });
  });

  it('answers the method already kept when the same card is saved again, and forgets the second token', async () => {
    const first = await save();
    const again = await save();
    expect(again).toEqual(first);
    expect(provider.detached).toEqual([]);
    const secondPurchase = await save({ savedCard: card({ token: 'tok_second' }) });
    expect(secondPurchase.id).toBe(first.id);
    expect(provider.detached).toEqual(['tok_second']);
    expect(await repo.get(SELLER, first.id)).toMatchObject({ token: 'tok_first' });
    expect(repo.items.size).toBe(1);
    expect(scheduler.scheduled).toHaveLength(1);
  });

  it('keeps a separate method for another expiry, another customer or another seller', async () => {
    const first = await save();
    const renewed = await save({ savedCard: card({ token: 'tok_b', expiryYear: 2029 }) });
    const joao = await save({ customer: JOAO, savedCard: card({ token: 'tok_c' }) });
    const other = await save({ tenant: OTHER, savedCard: card({ token: 'tok_d' }) });
    expect(new Set([first.id, renewed.id, joao.id, other.id]).size).toBe(4);
  });

  it('reads a two-digit expiry year as 20YY', async () => {
    expect(await save({ savedCard: card({ expiryYear: 31 }) })).toMatchObject({ expiryYear: 2031 });
  });

  it('still saves when the schedule cannot be created (the sweep catches up)', async () => {
    scheduler.failWith = new Error('scheduler down');
    const view = await save();
    expect(view.status).toBe('active');
    expect(reporter.errors).toEqual([new Error('scheduler down')]);
  });
});

describe('listPaymentMethods', () => {
  it("lists the customer's cards newest first, without tokens", async () => {
    await save();
    await save({ savedCard: card({ token: 'tok_2', last4: '4444', brand: 'mastercard' }) });
    await save({ customer: JOAO, savedCard: card({ token: 'tok_3' }) });
    const out = await listPaymentMethods(deps(), SELLER, MARIA.uuid);
    expect(out.data.map((m) => m.last4)).toEqual(['4444', '1111']);
    expect(JSON.stringify(out)).not.toContain('tok_');
  });

  it('answers an empty list for a customer without cards', async () => {
    expect(await listPaymentMethods(deps(), SELLER, JOAO.uuid)).toEqual({ data: [] });
  });

  it("answers 404 Customer not found for another seller's customer", async () => {
    await save();
    const error = await listPaymentMethods(deps(), { sellerId: 9, environment: 'test' }, MARIA.uuid).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe('Customer not found');
  });
});

describe('deletePaymentMethod', () => {
  it('deletes the method, cancels its pending schedule and forgets the token at the provider', async () => {
    const { id } = await save();
    expect(await deletePaymentMethod(deps(), SELLER, MARIA.uuid, id)).toEqual({ id, deleted: true });
    expect(await repo.get(SELLER, id)).toBeNull();
    expect(scheduler.canceled).toEqual(['pm-expiry-test-7-1-30']);
    expect(provider.detached).toEqual(['tok_first']);
    expect((await listPaymentMethods(deps(), SELLER, MARIA.uuid)).data).toEqual([]);
  });

  it('lets the same card be saved again afterwards, as a new method', async () => {
    const { id } = await save();
    await deletePaymentMethod(deps(), SELLER, MARIA.uuid, id);
    expect((await save()).id).not.toBe(id);
  });

  const NINE: Tenant = { sellerId: 9, environment: 'test' };
  const LIVE: Tenant = { sellerId: 7, environment: 'live' };
  it.each([
    ['a method of another customer', SELLER, JOAO.uuid, 0, 'Payment method not found'],
    ['a missing method of a known customer', SELLER, MARIA.uuid, 1, 'Payment method not found'],
    ['a customer of another seller', NINE, MARIA.uuid, 0, 'Customer not found'],
    ['the same seller in the live environment', LIVE, MARIA.uuid, 0, 'Customer not found'],
  ] as const)('answers 404 for %s', async (_what, tenant, customerUuid, idOffset, message) => {
    const { id } = await save();
    const error = await deletePaymentMethod(deps(), tenant, customerUuid, id + idOffset).catch((e) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe(message);
    expect(await repo.get(SELLER, id)).not.toBeNull();
  });

  it('answers 404 Payment method not found the second time', async () => {
    const { id } = await save();
    await deletePaymentMethod(deps(), SELLER, MARIA.uuid, id);
    await expect(deletePaymentMethod(deps(), SELLER, MARIA.uuid, id)).rejects.toThrow(
      'Payment method not found',
    );
  });
});

describe('expiry steps', () => {
  const eventsOf = () =>
    repo.outbox.events.map((e) => ({ event: e.envelope.event, data: e.envelope.data as any }));

  it('sends payment_method.expiring_soon on the stage day with the method, the stage and the days left', async () => {
    const { id } = await save();
    clock.set('2026-03-02T03:00:00.000Z');
    expect(await runExpiryStep(deps(), jobId(id))).toEqual({ outcome: 'expiring_soon', stage: 30 });
    const [event] = eventsOf();
    expect(event).toEqual({
      event: 'payment_method.expiring_soon',
      data: expect.objectContaining({ id, status: 'active', stage: 30, daysUntilExpiry: 30, last4: '1111' }),
    });
    expect(JSON.stringify(repo.outbox.events)).not.toContain('tok_');
    expect(repo.outbox.events[0].tenant).toEqual(SELLER);
  });

  it('changes nothing when the same step fires twice', async () => {
    const { id } = await save();
    clock.set('2026-03-02T03:00:00.000Z');
    await runExpiryStep(deps(), jobId(id));
    const after = await repo.get(SELLER, id);
    clock.advanceSeconds(3600);
    expect(await runExpiryStep(deps(), jobId(id))).toEqual({ outcome: 'nothing_due' });
    expect(await repo.get(SELLER, id)).toEqual(after);
    expect(repo.outbox.events).toHaveLength(1);
  });

  it('loses quietly to a run that wrote first', async () => {
    const { id } = await save();
    clock.set('2026-03-02T03:00:00.000Z');
    const stale = await repo.get(SELLER, id);
    await runExpiryStep(deps(), jobId(id));
    const racing = {
      ...deps(),
      paymentMethods: Object.assign(Object.create(repo), { get: async () => stale }),
    };
    expect(await runExpiryStep(racing, jobId(id))).toEqual({ outcome: 'nothing_due' });
    expect(repo.outbox.events).toHaveLength(1);
  });

  it('schedules each next step, then expires the card with payment_method.expired', async () => {
    const { id } = await save();
    for (const [at, outcome] of [
      ['2026-03-02T03:00:00.000Z', { outcome: 'expiring_soon', stage: 30 }],
      ['2026-03-18T03:00:00.000Z', { outcome: 'expiring_soon', stage: 14 }],
      ['2026-03-25T03:00:00.000Z', { outcome: 'expiring_soon', stage: 7 }],
      ['2026-04-01T03:00:00.000Z', { outcome: 'expired' }],
    ] as const) {
      clock.set(at);
      expect(await runExpiryStep(deps(), jobId(id))).toEqual(outcome);
    }
    expect(scheduler.scheduled.map((s) => [s.name, s.at.toISOString()])).toEqual([
      ['pm-expiry-test-7-1-30', '2026-03-02T03:00:00.000Z'],
      ['pm-expiry-test-7-1-14', '2026-03-18T03:00:00.000Z'],
      ['pm-expiry-test-7-1-7', '2026-03-25T03:00:00.000Z'],
      ['pm-expiry-test-7-1-expire', '2026-04-01T03:00:00.000Z'],
    ]);
    expect(eventsOf().map((e) => [e.event, e.data.stage ?? null, e.data.status])).toEqual([
      ['payment_method.expiring_soon', 30, 'active'],
      ['payment_method.expiring_soon', 14, 'active'],
      ['payment_method.expiring_soon', 7, 'active'],
      ['payment_method.expired', null, 'expired'],
    ]);
    expect(await repo.get(SELLER, id)).toMatchObject({
      status: 'expired',
      expiredAt: '2026-04-01T03:00:00.000Z',
      expiryNotices: [30, 14, 7],
      nextExpiryStepAt: null,
    });
    expect((await listPaymentMethods(deps(), SELLER, MARIA.uuid)).data[0].status).toBe('expired');
    clock.set('2026-05-01T03:00:00.000Z');
    expect(await runExpiryStep(deps(), jobId(id))).toEqual({ outcome: 'nothing_due' });
  });

  it('does nothing for a deleted method', async () => {
    const { id } = await save();
    await deletePaymentMethod(deps(), SELLER, MARIA.uuid, id);
    clock.set('2026-03-02T03:00:00.000Z');
    expect(await runExpiryStep(deps(), jobId(id))).toEqual({ outcome: 'nothing_due' });
    expect(repo.outbox.events).toEqual([]);
  });

  it('refuses a job id that names no method', async () => {
    await expect(runExpiryStep(deps(), 'nonsense')).rejects.toThrow('not a payment method job id');
  });
});

describe('sweepExpirySteps', () => {
  it('runs the steps whose schedule never fired, once, and only the latest stage reached', async () => {
    scheduler.failWith = new Error('scheduler down');
    const { id } = await save();
    const { id: later } = await save({ customer: JOAO, savedCard: card({ token: 'tok_j', expiryMonth: 9 }) });
    clock.set('2026-03-01T12:00:00.000Z');
    expect(await sweepExpirySteps(deps())).toEqual({ due: 0, ran: 0 });
    // The sweep was down too until after the 14-day stage: only that one is sent.
    clock.set('2026-03-19T12:00:00.000Z');
    expect(await sweepExpirySteps(deps())).toEqual({ due: 1, ran: 1 });
    expect(await sweepExpirySteps(deps())).toEqual({ due: 0, ran: 0 });
    expect(repo.outbox.events.map((e) => (e.envelope.data as any).stage)).toEqual([14]);
    expect(await repo.get(SELLER, id)).toMatchObject({ expiryNotices: [14] });
    expect(await repo.get(SELLER, later)).toMatchObject({ expiryNotices: [] });
  });

  it('reports a method that fails and goes on with the others', async () => {
    scheduler.failWith = new Error('scheduler down');
    await save();
    await save({ customer: JOAO, savedCard: card({ token: 'tok_j' }) });
    let calls = 0;
    const flaky = Object.assign(Object.create(repo), {
      save: async (...args: Parameters<FakePaymentMethodRepository['save']>) => {
        if (calls++ === 0) throw new ConflictError('boom', 'boom', { reason: 'contended' });
        return repo.save(...args);
      },
    });
    clock.set('2026-03-02T12:00:00.000Z');
    const out = await sweepExpirySteps({
      ...deps(),
      paymentMethods: flaky,
    });
    expect(out).toEqual({ due: 2, ran: 1 });
    const ran = reporter.reports.filter((r) => r.what === 'could not run a due job');
    expect(ran.map((r) => r.context)).toEqual([{ job: 'payment-method-expiry', id: expect.any(String) }]);
  });
});

describe('a card of a sandbox customer on a test clock', () => {
  const CLOCK = 'clock_0123456789abcdefghijklmn';
  /** After the card's 30-day warning (2026-03-02), before its 14-day one (2026-03-18). */
  const FROZEN = '2026-03-10T15:00:00.000Z';
  const onClockDeps = () => ({
    ...deps(),
    clock: scopedClock(clock),
    clockScope,
    testClocks: {
      get: async (_tenant: Tenant, id: string) => (id === CLOCK ? { id: CLOCK, frozenTime: FROZEN } : null),
    } as unknown as TestClockRepository,
  });

  beforeEach(() =>
    customers.seedProfile({ tenant: SELLER, uuid: MARIA.uuid, testClockId: CLOCK } as CustomerProfile),
  );

  it("is saved in the clock's time and on it, with no real-time schedule; its steps run in that clock's advance only", async () => {
    const { id } = await saveCard(onClockDeps(), {
      tenant: SELLER,
      customer: MARIA,
      provider: 'fake',
      savedCard: card(),
    });
    expect(await repo.get(SELLER, id)).toMatchObject({
      testClockId: CLOCK,
      createdAt: FROZEN,
      nextExpiryStepAt: '2026-03-18T03:00:00.000Z',
    });
    expect(scheduler.scheduled).toEqual([]);
    expect(await repo.dueExpirySteps(new Date('2026-05-01T00:00:00.000Z'), 3)).toEqual([]);

    clock.set('2026-03-18T04:00:00.000Z');
    expect(await runExpiryStep(onClockDeps(), jobId(id))).toEqual({ outcome: 'nothing_due' });
    const onTheClock = await clockScope.run(
      CLOCK,
      () => new Date('2026-03-18T04:00:00.000Z'),
      () => runExpiryStep(onClockDeps(), jobId(id)),
    );
    expect(onTheClock).toEqual({ outcome: 'expiring_soon', stage: 14 });
    expect(scheduler.scheduled).toEqual([]);
  });

  it('is not kept once the clock is deleted, as the other new work of its customers', async () => {
    const gone = {
      ...onClockDeps(),
      testClocks: { get: async () => null } as unknown as TestClockRepository,
    };
    await expect(
      saveCard(gone, { tenant: SELLER, customer: MARIA, provider: 'fake', savedCard: card() }),
    ).rejects.toThrow(/test clock was deleted/);
    expect(await repo.listByCustomer(SELLER, MARIA.uuid)).toEqual([]);
  });
});
