import { describe, expect, it } from 'vitest';
import type { Cycle, ScheduledCharge } from '#shared/domain/scheduled-charges/charge';
import {
  applyCyclePaid,
  chargeJobId,
  cycleDueDate,
  deriveStatus,
  dueReminderStages,
  hasCycleAfter,
  newCycle,
  nextDueAt,
  parseChargeJobId,
} from '#shared/domain/scheduled-charges/state';
import { FakeClock } from '#test/support/fakes/clock';
import { SequentialIds } from '#test/support/fakes/ids';

const tenant = { sellerId: 7, environment: 'test' } as const;
const NOW = '2026-03-10T12:00:00.000Z';

function deps(at = NOW) {
  return { ids: new SequentialIds(), clock: new FakeClock(at) };
}

function cycle(overrides: Partial<Cycle> = {}): Cycle {
  return {
    ...newCycle(
      deps(),
      {
        id: 'sch_test_000000000000000000000001',
        tenant,
        amount: 1000,
        anchorDate: '2026-03-15',
        recurrence: null,
      },
      1,
    ),
    ...overrides,
  };
}

function charge(overrides: Partial<ScheduledCharge> = {}): ScheduledCharge {
  return {
    id: 'sch_test_000000000000000000000001',
    tenant,
    type: 'one_time',
    status: 'scheduled',
    customer: { id: 1, uuid: 'u', name: 'Ana', email: 'ana@example.com', document: '12345678909' },
    product: null,
    description: 'Aula',
    amount: 1000,
    methods: ['pix'],
    dueDate: '2026-03-15',
    anchorDate: '2026-03-15',
    recurrence: null,
    trialDays: 0,
    trialEndsOn: null,
    paymentMethod: null,
    cancelAtPeriodEnd: false,
    pausedAt: null,
    canceledAt: null,
    cycles: [cycle()],
    overdueCycles: 0,
    dueAt: null,
    reminderOffsets: null,
    timelineSeq: 0,
    createdAt: NOW,
    updatedAt: NOW,
    version: 1,
    ...overrides,
  };
}

const monthly = (overrides: Partial<ScheduledCharge['recurrence'] & object> = {}) => ({
  interval: 'month' as const,
  intervalCount: 1,
  endAfterCycles: null,
  endDate: null,
  ...overrides,
});

describe('cycleDueDate', () => {
  it('keeps a 31st anchor: the last day of shorter months, the 31st again after them', () => {
    const c = { anchorDate: '2026-01-31', recurrence: monthly() };
    expect([1, 2, 3, 4, 5].map((n) => cycleDueDate(c, n))).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
    ]);
  });

  it('steps weeks and years by intervalCount', () => {
    expect(
      cycleDueDate(
        { anchorDate: '2026-03-15', recurrence: monthly({ interval: 'week', intervalCount: 2 }) },
        3,
      ),
    ).toBe('2026-04-12');
    expect(cycleDueDate({ anchorDate: '2028-02-29', recurrence: monthly({ interval: 'year' }) }, 2)).toBe(
      '2029-02-28',
    );
  });
});

describe('hasCycleAfter', () => {
  const base = { anchorDate: '2026-01-31', canceledAt: null, cancelAtPeriodEnd: false };
  it('ends by count', () => {
    const c = { ...base, recurrence: monthly({ endAfterCycles: 3 }) };
    expect(hasCycleAfter(c, 2)).toBe(true);
    expect(hasCycleAfter(c, 3)).toBe(false);
  });
  it('ends by date: no cycle due after endDate', () => {
    const c = { ...base, recurrence: monthly({ endDate: '2026-03-31' }) };
    expect(hasCycleAfter(c, 2)).toBe(true);
    expect(hasCycleAfter(c, 3)).toBe(false);
  });
  it('a one-time charge, a cancelled series and one cancelling at period end have none', () => {
    expect(hasCycleAfter({ ...base, recurrence: null }, 1)).toBe(false);
    expect(hasCycleAfter({ ...base, recurrence: monthly(), canceledAt: NOW }, 1)).toBe(false);
    expect(hasCycleAfter({ ...base, recurrence: monthly(), cancelAtPeriodEnd: true }, 1)).toBe(false);
  });
});

describe('deriveStatus', () => {
  const now = new Date(NOW);
  it('follows the contract order', () => {
    expect(deriveStatus(charge({ canceledAt: NOW }), now)).toBe('canceled');
    expect(deriveStatus(charge({ type: 'recurring', recurrence: monthly(), canceledAt: NOW }), now)).toBe(
      'recurrence_canceled',
    );
    expect(deriveStatus(charge({ pausedAt: NOW }), now)).toBe('paused');
    expect(deriveStatus(charge({ trialEndsOn: '2026-03-10' }), now)).toBe('trial');
    expect(deriveStatus(charge({ trialEndsOn: '2026-03-09' }), now)).toBe('scheduled');
    expect(deriveStatus(charge({ type: 'recurring', recurrence: monthly(), methods: ['card'] }), now)).toBe(
      'pending_tokenization',
    );
  });

  it('the most urgent open cycle wins; paid when nothing is open and nothing will come', () => {
    const series = { type: 'recurring' as const, recurrence: monthly() };
    const two = [cycle({ status: 'due_today' }), cycle({ number: 2, status: 'overdue' })];
    expect(deriveStatus(charge({ ...series, cycles: two }), now)).toBe('overdue');
    expect(deriveStatus(charge({ cycles: [cycle({ status: 'due_today' })] }), now)).toBe('due_today');
    expect(deriveStatus(charge({ cycles: [cycle({ status: 'paid' })] }), now)).toBe('paid');
    expect(deriveStatus(charge({ ...series, cycles: [cycle({ status: 'paid' })] }), now)).toBe('scheduled');
  });
});

describe('nextDueAt (Sao Paulo instants)', () => {
  it('a pix cycle due on the 15th: issued at 00:00 SP of the 10th (03:00Z)', () => {
    const c = charge();
    expect(nextDueAt(c, new Date('2026-03-01T12:00:00Z'))).toBe('2026-03-10T03:00:00.000Z');
  });

  it('once issued: the before_3 reminder at 09:00 SP of the 12th, then due_today at 00:00 SP of the 15th', () => {
    const issued = cycle({ issued: { pix: 10, boleto: null } });
    expect(nextDueAt(charge({ cycles: [issued] }), new Date(NOW))).toBe('2026-03-12T12:00:00.000Z');
    const reminded = { ...issued, remindersSent: ['before_3'] };
    expect(nextDueAt(charge({ cycles: [reminded] }), new Date(NOW))).toBe('2026-03-15T03:00:00.000Z');
  });

  it('due today: overdue at 00:00 SP of the next day unless the due reminder comes first', () => {
    const due = cycle({
      status: 'due_today',
      issued: { pix: 10, boleto: null },
      remindersSent: ['before_3', 'due'],
    });
    expect(nextDueAt(charge({ cycles: [due] }), new Date(NOW))).toBe('2026-03-16T03:00:00.000Z');
  });

  it('a card cycle with a saved card: the silent charge at 00:00 SP, no issuance and no reminder', () => {
    const c = charge({ methods: ['card'], paymentMethod: { id: 3, cardLast4: '1111', cardBrand: 'visa' } });
    expect(nextDueAt(c, new Date(NOW))).toBe('2026-03-15T03:00:00.000Z');
    const retrying = cycle({ status: 'overdue', attemptCount: 1, nextRetryAt: '2026-03-18T03:00:00.000Z' });
    expect(nextDueAt({ ...c, cycles: [retrying] }, new Date(NOW))).toBe('2026-03-18T03:00:00.000Z');
  });

  it('paused or cancelled: nothing', () => {
    expect(nextDueAt(charge({ pausedAt: NOW }), new Date(NOW))).toBeNull();
    expect(nextDueAt(charge({ canceledAt: NOW }), new Date(NOW))).toBeNull();
  });
});

describe('dueReminderStages', () => {
  it('23:59 SP of the day before is not yet the due stage; 09:00 SP of the due date is', () => {
    const c = charge();
    const cy = cycle({ remindersSent: ['before_3'] });
    expect(dueReminderStages(c, cy, new Date('2026-03-15T02:59:59.999Z'))).toEqual([]);
    expect(dueReminderStages(c, cy, new Date('2026-03-15T11:59:59.999Z'))).toEqual([]);
    expect(dueReminderStages(c, cy, new Date('2026-03-15T12:00:00.000Z'))).toEqual([
      { stage: 'due', days: 0 },
    ]);
  });

  it("follows the charge's own offsets: 09:00 SP that many days from the due date, and its due time", () => {
    const c = charge({ reminderOffsets: [-10, 5] });
    const cy = cycle({ remindersSent: [] });
    expect(dueReminderStages(c, cy, new Date('2026-03-05T11:59:59.999Z'))).toEqual([]);
    expect(dueReminderStages(c, cy, new Date('2026-03-05T12:00:00.000Z'))).toEqual([
      { stage: 'before_10', days: -10 },
    ]);
    expect(dueReminderStages(c, cy, new Date('2026-03-20T12:00:00.000Z')).map((s) => s.stage)).toEqual([
      'before_10',
      'after_5',
    ]);
    expect(
      dueReminderStages(c, { ...cy, remindersSent: ['before_10'] }, new Date('2026-03-15T12:00:00.000Z')),
    ).toEqual([]);
  });
});

describe('applyCyclePaid', () => {
  it('a manual payment of an overdue cycle: paid, overdue count −1, timeline and webhook', () => {
    const c = charge({ cycles: [cycle({ status: 'overdue' })], overdueCycles: 1, status: 'overdue' });
    const { next, changes } = applyCyclePaid(deps(), c, 1, {
      by: 'manual',
      paymentDate: '2026-03-10',
      externalReference: 'ted-1',
      at: NOW,
    });
    expect(next.status).toBe('paid');
    expect(next.cycles[0]).toMatchObject({ status: 'paid', paidBy: 'manual', externalReference: 'ted-1' });
    expect(next.overdueCycles).toBe(0);
    expect(next.version).toBe(2);
    expect(next.dueAt).toBeNull();
    expect(changes.customerOverdueDelta).toBe(-1);
    expect(changes.timeline).toEqual([
      {
        kind: 'manually_marked_paid',
        cycleNumber: 1,
        data: { paymentDate: '2026-03-10', externalReference: 'ted-1' },
      },
    ]);
    expect(changes.events.map((e) => e.envelope.event)).toEqual(['scheduled_charge.paid']);
    expect(changes.events[0].envelope.data).toMatchObject({ seriesId: c.id, cycleNumber: 1, status: 'paid' });
  });

  it('a scheduled one-time charge refuses mark-paid; a paid cycle refuses a second payment', () => {
    const manual = { by: 'manual' as const, paymentDate: '2026-03-10', externalReference: null, at: NOW };
    expect(() => applyCyclePaid(deps(), charge(), 1, manual)).toThrow(
      'Cycle 1 cannot be marked paid in status scheduled',
    );
    const paid = charge({ cycles: [cycle({ status: 'paid' })] });
    expect(() => applyCyclePaid(deps(), paid, 1, { by: 'transaction', transactionId: 5, at: NOW })).toThrow(
      'Cycle 1 cannot be marked paid in status paid',
    );
    expect(() => applyCyclePaid(deps(), charge(), 2, manual)).toThrow('Cycle not found');
  });

  it('a recurring cycle paid early creates the next cycle at once', () => {
    const c = charge({ type: 'recurring', recurrence: monthly({ endAfterCycles: 2 }) });
    const { next } = applyCyclePaid(deps(), c, 1, { by: 'transaction', transactionId: 9, at: NOW });
    expect(next.cycles.map((x) => [x.number, x.status, x.dueDate])).toEqual([
      [1, 'paid', '2026-03-15'],
      [2, 'scheduled', '2026-04-15'],
    ]);
    expect(next.cycles[0].paidTransactionId).toBe(9);
    expect(next.status).toBe('scheduled');
    expect(next.dueDate).toBe('2026-04-15');
    const { next: last } = applyCyclePaid(deps(), next, 2, { by: 'transaction', transactionId: 10, at: NOW });
    expect(last.cycles).toHaveLength(2);
    expect(last.status).toBe('paid');
  });

  it('a series cancelling at period end becomes recurrence_canceled when its last open cycle is paid', () => {
    const c = charge({ type: 'recurring', recurrence: monthly(), cancelAtPeriodEnd: true });
    const { next, changes } = applyCyclePaid(deps(), c, 1, { by: 'transaction', transactionId: 9, at: NOW });
    expect(next.status).toBe('recurrence_canceled');
    expect(next.cycles).toHaveLength(1);
    expect(changes.events.map((e) => e.envelope.event)).toEqual([
      'scheduled_charge.paid',
      'scheduled_charge.recurrence_canceled',
    ]);
  });
});

describe('job ids', () => {
  it('round-trips', () => {
    const id = chargeJobId(tenant, 'sch_test_abc');
    expect(parseChargeJobId(id)).toEqual({ tenant, id: 'sch_test_abc' });
    expect(parseChargeJobId('7:prod:sch_x')).toBeNull();
  });
});
