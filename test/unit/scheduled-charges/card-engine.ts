/** The scheduled-charge engine over in-memory fakes: a monthly card series with a saved card (card*.test.ts). */

import type { CardGuardDeps } from '#shared/domain/card-testing/guard';
import type { Deps } from '#shared/domain/deps';
import type { PaymentMethod } from '#shared/domain/payment-methods/payment-method';
import type { ScheduledCharge } from '#shared/domain/scheduled-charges/charge';
import type { ScheduledChargeDeps } from '#shared/domain/scheduled-charges/deps';
import { newCycle } from '#shared/domain/scheduled-charges/state';
import { FakeClock } from '#test/support/fakes/clock';
import { FakeCustomerRepository } from '#test/support/fakes/customer-repository';
import { FakeGatewayRouter } from '#test/support/fakes/gateway-router';
import { SequentialIds } from '#test/support/fakes/ids';
import { RecordingMailer } from '#test/support/fakes/mail';
import { FakePaymentMethodRepository } from '#test/support/fakes/payment-method-repository';
import { FakePaymentProvider } from '#test/support/fakes/payment-provider';
import { FakeProductRepository } from '#test/support/fakes/product-repository';
import { FakeRateLimitRepository } from '#test/support/fakes/rate-limit-repository';
import { FakeReporter } from '#test/support/fakes/reporter';
import { FakeScheduledChargeRepository } from '#test/support/fakes/scheduled-charge-repository';
import { FakeScheduler } from '#test/support/fakes/scheduler';
import { FakeTeamRepository } from '#test/support/fakes/team-repository';
import { FakeTransactionRepository } from '#test/support/fakes/transaction-repository';
import { fakeAtomically } from '#test/support/fakes/unit-of-work';
import { FakeAttemptRepository } from '../../support/fakes/attempt-repository';
import {
  FakeCipher,
  FakeReminderSettingsRepository,
  RecordingMessenger,
} from '../../support/fakes/reminders';

export const TENANT = { sellerId: 7, environment: 'test' } as const;
/** 10 March 2026, 00:00:30 in Sao Paulo: cycle 2 of the series is due today. */
export const MAR_10 = '2026-03-10T03:00:30.000Z';
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
export const TOKEN = 'tok_fake_sch';
/** The pay link's buyer: a client address, no proof of work. */
export const BUYER = { ip: '203.0.113.10' };

export function engine() {
  const clock = new FakeClock(MAR_10);
  const ids = new SequentialIds();
  const transactions = new FakeTransactionRepository(900);
  const scheduledCharges = new FakeScheduledChargeRepository({ transactions });
  const paymentMethods = new FakePaymentMethodRepository();
  const provider = new FakePaymentProvider('sandbox');
  const deps: ScheduledChargeDeps & CardGuardDeps & Pick<Deps, 'team'> = {
    scheduledCharges,
    team: new FakeTeamRepository(),
    attempts: new FakeAttemptRepository(),
    atomically: fakeAtomically,
    transactions,
    customers: new FakeCustomerRepository(),
    products: new FakeProductRepository(),
    paymentMethods,
    payments: new FakeGatewayRouter({ test: provider, live: new FakePaymentProvider('live', false) }),
    scheduler: new FakeScheduler(),
    mailer: new RecordingMailer(),
    messenger: new RecordingMessenger(),
    cipher: new FakeCipher(),
    reminderSettings: new FakeReminderSettingsRepository(),
    clock,
    ids,
    publicBaseUrl: 'https://pay.example',
    reporter: new FakeReporter(),
    rateLimits: new FakeRateLimitRepository(),
    cardKeys: { key: async () => new Uint8Array(32).fill(3) },
  };
  const card: PaymentMethod = {
    id: 41,
    uuid: 'b5f7c7d2-3c1e-4d4e-9a57-1d2f3e4a5b6c',
    tenant: TENANT,
    customer: { id: 11, uuid: '3f0c2c1e-8a77-4c55-9a8e-0b1d2e3f4a5b' },
    type: 'card',
    brand: 'visa',
    last4: '4242',
    expiryMonth: 12,
    expiryYear: 2034,
    status: 'active',
    provider: 'sandbox',
    token: TOKEN,
    expiryNotices: [],
    nextExpiryStepAt: null,
    expiredAt: null,
    createdAt: '2026-02-10T12:00:00.000Z',
    updatedAt: '2026-02-10T12:00:00.000Z',
    version: 1,
  };
  paymentMethods.items.set(`${TENANT.sellerId}#${TENANT.environment}#${card.id}`, card);
  provider.savedCards.set(TOKEN, {
    token: TOKEN,
    brand: 'visa',
    last4: '4242',
    expiryMonth: 12,
    expiryYear: 2034,
    tenant: TENANT,
  });

  /** A monthly card series anchored on 10 February: cycle 1 paid on the link, cycle 2 due today. */
  function seed(overrides: Partial<ScheduledCharge> = {}): ScheduledCharge {
    const series = {
      id: 'sch_test_AAAAAAAAAAAAAAAAAAAAAAAA',
      tenant: TENANT,
      amount: 4990,
      anchorDate: '2026-02-10',
      recurrence: { interval: 'month' as const, intervalCount: 1, endAfterCycles: null, endDate: null },
    };
    const first = {
      ...newCycle(deps, series, 1),
      status: 'paid' as const,
      paidBy: 'transaction' as const,
      paidAt: '2026-02-10T15:00:00.000Z',
    };
    const second = { ...newCycle(deps, series, 2), status: 'due_today' as const };
    const charge: ScheduledCharge = {
      id: 'sch_test_AAAAAAAAAAAAAAAAAAAAAAAA',
      tenant: TENANT,
      type: 'recurring',
      status: 'due_today',
      customer: {
        id: 11,
        uuid: card.customer.uuid,
        name: 'Ana Souza',
        email: 'ana@example.com',
        document: '52998224725',
      },
      product: { id: 5, uuid: '0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b', name: 'Aulas de violão' },
      description: 'Mensalidade',
      amount: 4990,
      methods: ['card'],
      dueDate: '2026-03-10',
      anchorDate: '2026-02-10',
      recurrence: series.recurrence,
      trialDays: 0,
      trialEndsOn: null,
      paymentMethod: { id: card.id, cardLast4: '4242', cardBrand: 'visa' },
      cancelAtPeriodEnd: false,
      pausedAt: null,
      canceledAt: null,
      cycles: [first, second],
      overdueCycles: 0,
      dueAt: MAR_10,
      reminderOffsets: null,
      timelineSeq: 0,
      createdAt: '2026-02-01T12:00:00.000Z',
      updatedAt: '2026-02-10T15:00:00.000Z',
      version: 3,
      ...overrides,
    };
    return scheduledCharges.seed(charge);
  }
  const stored = () =>
    scheduledCharges.stored(TENANT, 'sch_test_AAAAAAAAAAAAAAAAAAAAAAAA') as ScheduledCharge;
  const cycle = (n: number) => stored().cycles.find((c) => c.number === n);
  const attempts = async (cycleNumber?: number) =>
    (await scheduledCharges.attempts(TENANT, stored().id, { cycleNumber, page: 1, limit: 100 })).items;
  const events = () => scheduledCharges.outbox.names();
  const timeline = async () =>
    (await scheduledCharges.timeline(TENANT, stored().id)).map((e) => e.kind).reverse();
  return {
    deps,
    clock,
    provider,
    paymentMethods,
    scheduledCharges,
    transactions,
    card,
    seed,
    stored,
    cycle,
    attempts,
    events,
    timeline,
  };
}
