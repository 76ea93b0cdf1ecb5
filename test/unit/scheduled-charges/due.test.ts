import { describe, expect, it } from 'vitest';
import { markPaid, postpone } from '#shared/domain/scheduled-charges/actions';
import { createScheduledCharge } from '#shared/domain/scheduled-charges/create';
import type { ScheduledChargeDeps } from '#shared/domain/scheduled-charges/deps';
import { runChargeDueJob } from '#shared/domain/scheduled-charges/due';
import { payCycleOfTransaction } from '#shared/domain/scheduled-charges/notifications';
import { chargeJobId } from '#shared/domain/scheduled-charges/state';
import { FakeClock } from '#test/support/fakes/clock';
import { fakeCustomerAndProductReader } from '#test/support/fakes/customer-product-reader';
import { FakeCustomerRepository } from '#test/support/fakes/customer-repository';
import { FakeGatewayRouter } from '#test/support/fakes/gateway-router';
import { SequentialIds } from '#test/support/fakes/ids';
import { RecordingMailer } from '#test/support/fakes/mail';
import { FakePaymentMethodRepository } from '#test/support/fakes/payment-method-repository';
import { FakePaymentProvider } from '#test/support/fakes/payment-provider';
import { FakePortalConfigRepository } from '#test/support/fakes/portal-config-repository';
import { FakeProductRepository } from '#test/support/fakes/product-repository';
import { FakeReporter } from '#test/support/fakes/reporter';
import { FakeScheduledChargeRepository } from '#test/support/fakes/scheduled-charge-repository';
import { FakeScheduler } from '#test/support/fakes/scheduler';
import { FakeTransactionRepository } from '#test/support/fakes/transaction-repository';
import { fakeAtomically } from '#test/support/fakes/unit-of-work';
import { customerProfile } from '#test/support/fixtures';
import { FakeAttemptRepository } from '../../support/fakes/attempt-repository';
import {
  FakeCipher,
  FakeReminderSettingsRepository,
  RecordingMessenger,
} from '../../support/fakes/reminders';

const TENANT = { sellerId: 7, environment: 'test' } as const;
/** 10 March 2026, 12:00 in Sao Paulo. */
const NOW = '2026-03-10T15:00:00.000Z';
/** 00:00 Sao Paulo of a date, plus `ms`. */
const sp = (date: string, ms = 0) => new Date(Date.parse(`${date}T03:00:00.000Z`) + ms).toISOString();

function engine() {
  const clock = new FakeClock(NOW);
  const ids = new SequentialIds();
  const transactions = new FakeTransactionRepository(900);
  const customers = new FakeCustomerRepository();
  const scheduledCharges = new FakeScheduledChargeRepository({ transactions, customers });
  const provider = new FakePaymentProvider('sandbox');
  const mailer = new RecordingMailer();
  const scheduler = new FakeScheduler();
  const deps: ScheduledChargeDeps = {
    scheduledCharges,
    attempts: new FakeAttemptRepository(),
    atomically: fakeAtomically,
    transactions,
    customers,
    products: new FakeProductRepository(),
    paymentMethods: new FakePaymentMethodRepository(),
    payments: new FakeGatewayRouter({ test: provider, live: new FakePaymentProvider('live', false) }),
    scheduler,
    mailer,
    clock,
    ids,
    messenger: new RecordingMessenger(),
    cipher: new FakeCipher(),
    reminderSettings: new FakeReminderSettingsRepository(),
    publicBaseUrl: 'https://pay.example',
    reporter: new FakeReporter(),
  };
  const profile = customerProfile({
    tenant: TENANT,
    name: 'Ana <b>',
    email: 'ana@example.com',
    billingEmailOverride: 'financeiro@example.com',
    createdAt: NOW,
  });
  customers.profiles.set(`${TENANT.sellerId}#${TENANT.environment}#${profile.uuid}`, profile);
  const reporter = deps.reporter as FakeReporter;
  return {
    deps,
    clock,
    provider,
    mailer,
    scheduler,
    scheduledCharges,
    transactions,
    customers,
    profile,
    reporter,
  };
}

type Engine = ReturnType<typeof engine>;

async function oneTime(
  e: Engine,
  dueDate: string,
  methods: ('pix' | 'boleto' | 'card')[] = ['pix', 'boleto'],
) {
  const reader = fakeCustomerAndProductReader({ customers: e.customers, products: e.deps.products });
  const portalConfigs = new FakePortalConfigRepository(e.deps.products as FakeProductRepository);
  const view = await createScheduledCharge({ ...e.deps, customerAndProduct: reader, portalConfigs }, TENANT, {
    customerId: e.profile.id,
    amount: 15050,
    dueDate,
    methods,
    type: 'one_time',
    description: 'Aula <particular>',
  });
  return view.id;
}

const stored = (e: Engine, id: string) => e.scheduledCharges.stored(TENANT, id);
const runAt = async (e: Engine, id: string, at: string) => {
  e.clock.set(at);
  return runChargeDueJob(e.deps, chargeJobId(TENANT, id));
};

describe('the due job', () => {
  it('issues the pix and boleto at creation when the due date is within 5 days', async () => {
    const e = engine();
    const id = await oneTime(e, '2026-03-12');
    const c = stored(e, id);
    expect(c?.cycles[0].issued.pix).not.toBeNull();
    expect(c?.cycles[0].issued.boleto).not.toBeNull();
    const pix = await e.transactions.get(TENANT, c?.cycles[0].issued.pix as number);
    expect(pix).toMatchObject({
      status: 'pendingPix',
      value: 15050,
      scheduledCharge: { chargeId: id, cycleNumber: 1 },
    });
    expect(pix?.deadline).toBe(sp('2026-04-11'));
    expect(e.provider.requests.map((r) => r.method)).toEqual(['pix', 'boleto']);
  });

  it('moves scheduled → due_today at 00:00 SP (not at 23:59) → overdue the next day, once each', async () => {
    const e = engine();
    const id = await oneTime(e, '2026-03-20', ['pix']);
    expect(await runAt(e, id, sp('2026-03-20', -60_000))).toMatchObject({ outcome: 'advanced' });
    expect(stored(e, id)?.status).toBe('scheduled');
    expect(await runAt(e, id, sp('2026-03-20'))).toMatchObject({ outcome: 'advanced', status: 'due_today' });
    expect(await runAt(e, id, sp('2026-03-20', 60_000))).toEqual({ outcome: 'nothing_due' });
    expect(await runAt(e, id, sp('2026-03-21', -1))).toEqual({ outcome: 'advanced', status: 'due_today' });
    expect(stored(e, id)?.cycles[0].status).toBe('due_today');
    expect(await runAt(e, id, sp('2026-03-21'))).toEqual({ outcome: 'advanced', status: 'overdue' });
    expect(e.customers.profile(TENANT, e.profile.uuid)?.overdueCount).toBe(1);
    expect(await runAt(e, id, sp('2026-03-21', 1000))).toEqual({ outcome: 'nothing_due' });
    const events = e.scheduledCharges.outbox.events.map((x) => x.envelope.event);
    expect(events.filter((n) => n === 'scheduled_charge.overdue')).toHaveLength(1);
  });

  it('sends each reminder stage once to the billing e-mail, escaped, and postpone sends them again', async () => {
    const e = engine();
    const id = await oneTime(e, '2026-03-20', ['pix']);
    await runAt(e, id, sp('2026-03-17', 9 * 3_600_000));
    await runAt(e, id, sp('2026-03-17', 10 * 3_600_000));
    expect(e.mailer.sent.map((m) => [m.to, m.subject])).toEqual([
      ['financeiro@example.com', '[TESTE] Sua cobrança vence em 20/03/2026: Aula <particular>'],
    ]);
    const mail = e.mailer.sent[0];
    expect(mail.text).toContain('Valor: R$ 150,50');
    expect(mail.text).toContain('Pagar agora: https://pay.example/cobranca/cob_');
    expect(mail.text).toContain('Pix copia e cola: pix-qr-');
    expect(mail.html).toContain('Aula &lt;particular&gt;');
    expect(mail.html).not.toContain('<particular>');
    await postpone(e.deps, TENANT, id, { newDueDate: '2026-03-25' });
    await runAt(e, id, sp('2026-03-22', 9 * 3_600_000));
    expect(e.mailer.sent).toHaveLength(2);
    expect(e.mailer.sent[1].subject).toContain('25/03/2026');
  });

  it('a provider that cannot issue does not hold the dates back; issuance stays due', async () => {
    const e = engine();
    const id = await oneTime(e, '2026-03-20', ['boleto']);
    e.provider.failWith = new Error('provider down');
    expect(await runAt(e, id, sp('2026-03-20', 1000))).toMatchObject({
      outcome: 'advanced',
      status: 'due_today',
    });
    expect(e.reporter.reports.map((r) => r.what)).toContain('could not issue a scheduled-charge cycle');
    expect(stored(e, id)?.cycles[0].issued.boleto).toBeNull();
    expect(stored(e, id)?.dueAt).toBe(sp('2026-03-15'));
    e.provider.failWith = null;
    await runAt(e, id, sp('2026-03-20', 2000));
    expect(stored(e, id)?.cycles[0].issued.boleto).not.toBeNull();
  });

  it('a paused charge changes nothing', async () => {
    const e = engine();
    const id = await oneTime(e, '2026-03-20', ['pix']);
    const c = stored(e, id);
    if (!c) throw new Error('not stored');
    e.scheduledCharges.seed({ ...c, pausedAt: NOW, status: 'paused', dueAt: sp('2026-03-20') });
    expect(await runAt(e, id, sp('2026-03-25'))).toEqual({ outcome: 'nothing_due' });
  });
});

describe('a paid transaction of a cycle', () => {
  it('pays the cycle once; a repeat and a later mark-paid change nothing more', async () => {
    const e = engine();
    const id = await oneTime(e, '2026-03-12');
    const c = stored(e, id);
    const pix = await e.transactions.get(TENANT, c?.cycles[0].issued.pix as number);
    const paid = { ...(pix as never as object), status: 'payedPix', paidAt: NOW } as never;
    expect(await payCycleOfTransaction(e.deps, paid)).toBe('paid');
    expect(await payCycleOfTransaction(e.deps, paid)).toBe('already_paid');
    expect(stored(e, id)).toMatchObject({ status: 'paid' });
    expect(stored(e, id)?.cycles[0]).toMatchObject({ status: 'paid', paidBy: 'transaction' });
    const paidEvents = e.scheduledCharges.outbox.events.filter(
      (x) => x.envelope.event === 'scheduled_charge.paid',
    );
    expect(paidEvents).toHaveLength(1);
    expect(paidEvents[0].envelope.data).toMatchObject({ seriesId: id, cycleNumber: 1 });
    // The boleto stops being payable.
    expect(e.provider.canceled).toHaveLength(1);
    await expect(markPaid(e.deps, TENANT, id, { paymentDate: '2026-03-10' })).rejects.toThrow(
      'Scheduled charge cannot be marked paid in status paid',
    );
  });

  it('after a mark-paid: the payment is kept and flagged once, no second webhook', async () => {
    const e = engine();
    const id = await oneTime(e, '2026-03-12');
    await runAt(e, id, sp('2026-03-12', 60_000));
    await markPaid(e.deps, TENANT, id, { paymentDate: '2026-03-12', externalReference: 'TED 1' });
    const c = stored(e, id);
    const pix = await e.transactions.get(TENANT, c?.cycles[0].issued.pix as number);
    const paid = { ...(pix as never as object), status: 'payedPix', paidAt: NOW } as never;
    expect(await payCycleOfTransaction(e.deps, paid)).toBe('flagged');
    expect(await payCycleOfTransaction(e.deps, paid)).toBe('already_flagged');
    expect(stored(e, id)?.cycles[0]).toMatchObject({
      status: 'paid',
      paidBy: 'manual',
      externalReference: 'TED 1',
    });
    const names = e.scheduledCharges.outbox.events.map((x) => x.envelope.event);
    expect(names.filter((n) => n === 'scheduled_charge.paid')).toHaveLength(1);
  });

  it('racing a mark-paid: whoever saves first pays the cycle; one paid cycle, one webhook', async () => {
    const e = engine();
    const id = await oneTime(e, '2026-03-12');
    await runAt(e, id, sp('2026-03-12', 60_000));
    const c = stored(e, id);
    const pix = await e.transactions.get(TENANT, c?.cycles[0].issued.pix as number);
    const paid = { ...(pix as never as object), status: 'payedPix', paidAt: NOW } as never;
    // The mark-paid lands between the notification's read and its save.
    let staged = false;
    e.scheduledCharges.beforeSave = async () => {
      if (staged) return;
      staged = true;
      e.scheduledCharges.beforeSave = null;
      await markPaid(e.deps, TENANT, id, { paymentDate: '2026-03-12', externalReference: 'PIX manual' });
    };
    expect(await payCycleOfTransaction(e.deps, paid)).toBe('flagged');
    expect(stored(e, id)?.cycles[0]).toMatchObject({ status: 'paid', paidBy: 'manual' });
    const names = e.scheduledCharges.outbox.events.map((x) => x.envelope.event);
    expect(names.filter((n) => n === 'scheduled_charge.paid')).toHaveLength(1);
    const kinds = e.scheduledCharges.timelines.map((t) => t.entry.kind);
    expect(kinds.filter((k) => k === 'manually_marked_paid')).toHaveLength(1);
  });
});
