import { describe, expect, it } from 'vitest';
import { createInstallmentPlan } from '#shared/domain/installment-plans/create';
import type { InstallmentPlanDeps } from '#shared/domain/installment-plans/deps';
import { runPlanDueJob } from '#shared/domain/installment-plans/due';
import { payInstallmentOfTransaction } from '#shared/domain/installment-plans/payments';
import { planJobId } from '#shared/domain/installment-plans/state';
import type { Product } from '#shared/domain/products/products';
import { applyTrigger } from '#shared/domain/transactions/transitions';
import { FakeAffiliationRepository } from '#test/support/fakes/affiliation-repository';
import { FakeAttemptRepository } from '#test/support/fakes/attempt-repository';
import { FakeClock } from '#test/support/fakes/clock';
import { fakeCustomerAndProductReader } from '#test/support/fakes/customer-product-reader';
import { FakeCustomerRepository } from '#test/support/fakes/customer-repository';
import { FakeGatewayRouter } from '#test/support/fakes/gateway-router';
import { SequentialIds } from '#test/support/fakes/ids';
import { FakeInstallmentPlanRepository } from '#test/support/fakes/installment-plan-repository';
import { RecordingMailer } from '#test/support/fakes/mail';
import { FakePaymentProvider } from '#test/support/fakes/payment-provider';
import { FakePortalConfigRepository } from '#test/support/fakes/portal-config-repository';
import { FakeProductRepository } from '#test/support/fakes/product-repository';
import { FakeReporter } from '#test/support/fakes/reporter';
import { FakeScheduler } from '#test/support/fakes/scheduler';
import { FakeTransactionRepository } from '#test/support/fakes/transaction-repository';
import { fakeAtomically } from '#test/support/fakes/unit-of-work';
import { customerProfile } from '#test/support/fixtures';
import {
  FakeCipher,
  FakeReminderSettingsRepository,
  RecordingMessenger,
} from '../../support/fakes/reminders';

const TENANT = { sellerId: 7, environment: 'test' } as const;
/** 10 March 2026, 12:00 in Sao Paulo. */
const NOW = '2026-03-10T15:00:00.000Z';
/** 00:00 Sao Paulo of a date, plus `hours`. */
const sp = (date: string, hours = 0) =>
  new Date(Date.parse(`${date}T03:00:00.000Z`) + hours * 3_600_000).toISOString();

function engine() {
  const clock = new FakeClock(NOW);
  const transactions = new FakeTransactionRepository(900);
  const customers = new FakeCustomerRepository();
  const installmentPlans = new FakeInstallmentPlanRepository({ transactions, customers, clock });
  const provider = new FakePaymentProvider('sandbox');
  const products = new FakeProductRepository();
  const mailer = new RecordingMailer();
  const deps: InstallmentPlanDeps = {
    installmentPlans,
    transactions,
    attempts: new FakeAttemptRepository(),
    atomically: fakeAtomically,
    customers,
    products,
    affiliations: new FakeAffiliationRepository({ exists: async () => true }),
    payments: new FakeGatewayRouter({ test: provider, live: new FakePaymentProvider('live', false) }),
    scheduler: new FakeScheduler(),
    mailer,
    clock,
    messenger: new RecordingMessenger(),
    cipher: new FakeCipher(),
    reminderSettings: new FakeReminderSettingsRepository(),
    publicBaseUrl: 'https://pay.example',
    ids: new SequentialIds(),
    reporter: new FakeReporter(),
  };
  const product = products.seed({
    id: 41,
    uuid: '0c6f8a4e-2d1b-4f3a-9e5c-7b8a9d0e1f2a',
    tenant: TENANT,
    name: 'Curso',
    image: 'https://cdn.example.com/c.png',
    value: 30_000,
    description: null,
    pix: false,
    creditCard: false,
    boleto: true,
    installments: 1,
    carne: { enabled: true, maxInstallments: 12, interestFactors: { '3': 10_500 } },
    isActive: true,
    createdAt: NOW,
    updatedAt: NOW,
    version: 1,
  } as Product);
  const profile = customerProfile({ tenant: TENANT, name: 'Ana', email: 'ana@example.com', createdAt: NOW });
  customers.profiles.set(`${TENANT.sellerId}#${TENANT.environment}#${profile.uuid}`, profile);
  const reader = fakeCustomerAndProductReader({ customers, products, installmentPlans });
  const portalConfigs = new FakePortalConfigRepository(products);
  const create = (firstDueDate = '2026-03-31') =>
    createInstallmentPlan({ ...deps, customerAndProduct: reader, portalConfigs }, TENANT, {
      productId: product.uuid,
      customerId: profile.id,
      installments: 3,
      firstDueDate,
    });
  return { deps, clock, provider, installmentPlans, transactions, mailer, create };
}

describe('the carnê engine with fakes', () => {
  it('undoes a creation whose write failed: the boleto is canceled and no guard is held', async () => {
    const e = engine();
    e.installmentPlans.create = async () => {
      throw new Error('write lost');
    };
    await expect(e.create()).rejects.toThrow('write lost');
    expect(e.provider.canceled).toHaveLength(1);
    expect(e.installmentPlans.holds.size).toBe(0);
  });

  it('pays installment 1 once from its notification, then issues installment 2 ten days ahead, once', async () => {
    const e = engine();
    const view = await e.create();
    expect(view.installmentsDetail.map((i) => i.dueDate)).toEqual(['2026-03-31', '2026-04-30', '2026-05-31']);
    const t = await e.transactions.get(TENANT, view.installmentsDetail[0].transactionId as number);
    const paid = applyTrigger(t!, 'pay', NOW, { paidAmount: 10_600 });
    expect(await payInstallmentOfTransaction(e.deps, paid)).toBe('paid');
    expect(await payInstallmentOfTransaction(e.deps, paid)).toBe('already_paid');
    const active = e.installmentPlans.stored(TENANT, view.uuid);
    expect(active).toMatchObject({ status: 'active', totalCollected: 10_600, installmentsPaid: 1 });
    const job = planJobId(TENANT, view.uuid);
    e.clock.set(sp('2026-04-19', 23));
    expect(await runPlanDueJob(e.deps, job)).toEqual({ outcome: 'nothing_due' });
    e.clock.set(sp('2026-04-20', 0.1));
    expect(await runPlanDueJob(e.deps, job)).toMatchObject({ outcome: 'advanced' });
    // Fired twice: nothing more.
    expect(await runPlanDueJob(e.deps, job)).toEqual({ outcome: 'nothing_due' });
    const issued = e.installmentPlans.stored(TENANT, view.uuid);
    expect(issued?.installmentsDetail[1].boleto?.dueDate).toBe('2026-04-30');
    expect(issued?.installmentsDetail[2].boleto).toBeNull();
    expect(e.provider.requests.filter((r) => r.method === 'boleto')).toHaveLength(2);
  });
});
