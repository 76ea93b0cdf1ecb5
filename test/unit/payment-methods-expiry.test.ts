import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, saoPauloDate, startOfSaoPauloDay } from '#shared/dates';
import {
  dueExpiryStep,
  EXPIRY_STAGES,
  type ExpiryStage,
  type ExpiryState,
  expiresAt,
  expiryDay,
  nextExpiryStep,
  stageDay,
} from '#shared/domain/payment-methods/expiry';

const card = (
  expiryMonth: number,
  expiryYear: number,
  createdAt = '2026-01-10T15:00:00.000Z',
): ExpiryState => ({
  expiryMonth,
  expiryYear,
  status: 'active',
  expiryNotices: [],
  createdAt,
});
/** An instant on a Sao Paulo day: `hour` hours after its start. */
const on = (day: string, hour = 0) => new Date(startOfSaoPauloDay(day).getTime() + hour * 3_600_000);

/** Walks the state through every step due at each instant, as schedules and sweeps would. */
function walk(start: ExpiryState, instants: Date[]) {
  let state = start;
  const steps: { at: string; step: string }[] = [];
  for (const now of instants) {
    const step = dueExpiryStep(state, now);
    if (!step) continue;
    steps.push({ at: saoPauloDate(now), step: step.kind === 'expire' ? 'expire' : String(step.stage) });
    state =
      step.kind === 'expire'
        ? { ...state, status: 'expired' }
        : { ...state, expiryNotices: [...state.expiryNotices, step.stage] };
  }
  return { state, steps };
}

describe('card expiry dates', () => {
  it('expires at the start of the month after the expiry month, Sao Paulo time', () => {
    expect(expiryDay(card(3, 2026))).toBe('2026-04-01');
    expect(expiryDay(card(12, 2026))).toBe('2027-01-01');
    // 2026-04-01 00:00 in Sao Paulo is 03:00 UTC.
    expect(expiresAt(card(3, 2026)).toISOString()).toBe('2026-04-01T03:00:00.000Z');
  });

  it('puts the stages 30, 14 and 7 days before the expiry day', () => {
    const c = card(3, 2026);
    expect(EXPIRY_STAGES.map((s) => stageDay(c, s))).toEqual(['2026-03-02', '2026-03-18', '2026-03-25']);
    expect(stageDay(card(2, 2028), 30)).toBe('2028-01-31'); // March 1st minus 30 days in a leap year
  });
});

describe('dueExpiryStep', () => {
  const c = card(3, 2026);

  it('is nothing before the 30-day stage, the stage on its day, the expiry on the expiry day', () => {
    expect(dueExpiryStep(c, on('2026-03-01', 23))).toBeNull();
    expect(dueExpiryStep(c, on('2026-03-02'))).toEqual({ kind: 'stage', stage: 30, daysUntilExpiry: 30 });
    expect(dueExpiryStep(c, on('2026-03-18', 12))).toEqual({ kind: 'stage', stage: 14, daysUntilExpiry: 14 });
    expect(dueExpiryStep(c, on('2026-03-25', 23))).toEqual({ kind: 'stage', stage: 7, daysUntilExpiry: 7 });
    expect(dueExpiryStep(c, on('2026-03-31', 23))).toEqual({ kind: 'stage', stage: 7, daysUntilExpiry: 1 });
    expect(dueExpiryStep(c, on('2026-04-01'))).toEqual({ kind: 'expire' });
  });

  it('changes the Sao Paulo day at 03:00 UTC, not at midnight UTC', () => {
    expect(dueExpiryStep(c, new Date('2026-04-01T02:59:59.999Z'))?.kind).toBe('stage');
    expect(dueExpiryStep(c, new Date('2026-04-01T03:00:00.000Z'))?.kind).toBe('expire');
  });

  it('sends a stage once: after it, nothing is due until the next stage', () => {
    const sent: ExpiryState = { ...c, expiryNotices: [30] };
    expect(dueExpiryStep(sent, on('2026-03-10'))).toBeNull();
    expect(dueExpiryStep(sent, on('2026-03-18'))).toMatchObject({ stage: 14 });
  });

  it('sends only the latest stage reached when earlier ones were missed, never a larger one after a smaller', () => {
    expect(dueExpiryStep(c, on('2026-03-26'))).toMatchObject({ stage: 7, daysUntilExpiry: 6 });
    expect(dueExpiryStep({ ...c, expiryNotices: [7] }, on('2026-03-30'))).toBeNull();
  });

  it('skips the stages whose day came before the card was saved', () => {
    const saved = card(3, 2026, on('2026-03-10', 12).toISOString());
    expect(dueExpiryStep(saved, on('2026-03-10', 13))).toBeNull();
    expect(dueExpiryStep(saved, on('2026-03-18'))).toMatchObject({ stage: 14 });
  });

  it('sends the stage of the day the card was saved on', () => {
    const saved = card(3, 2026, on('2026-03-18', 15).toISOString());
    expect(dueExpiryStep(saved, on('2026-03-18', 15))).toMatchObject({ stage: 14, daysUntilExpiry: 14 });
  });

  it('is nothing once expired', () => {
    expect(dueExpiryStep({ ...c, status: 'expired' }, on('2026-05-01'))).toBeNull();
    expect(nextExpiryStep({ ...c, status: 'expired' })).toBeNull();
  });
});

describe('nextExpiryStep', () => {
  it('is the first stage, then each next one, then the expiry', () => {
    const c = card(3, 2026);
    expect(nextExpiryStep(c)).toEqual({ step: 30, at: startOfSaoPauloDay('2026-03-02') });
    expect(nextExpiryStep({ ...c, expiryNotices: [30] })?.step).toBe(14);
    expect(nextExpiryStep({ ...c, expiryNotices: [30, 14] })?.step).toBe(7);
    expect(nextExpiryStep({ ...c, expiryNotices: [30, 14, 7] })).toEqual({
      step: 'expire',
      at: expiresAt(c),
    });
    // A card saved after the 14-day stage: the 7-day stage comes next.
    expect(nextExpiryStep(card(3, 2026, on('2026-03-20').toISOString()))?.step).toBe(7);
  });
});

/** A card saved some day before its expiry, and instants after it. */
const scenario = fc
  .record({
    month: fc.integer({ min: 1, max: 12 }),
    year: fc.integer({ min: 2026, max: 2040 }),
    savedDaysBefore: fc.integer({ min: 1, max: 120 }),
    savedHour: fc.integer({ min: 0, max: 23 }),
  })
  .map(({ month, year, savedDaysBefore, savedHour }) => {
    const c = card(month, year);
    const savedOn = addDays(expiryDay(c), -savedDaysBefore);
    return { ...c, createdAt: on(savedOn, savedHour).toISOString() } satisfies ExpiryState;
  });

describe('expiry steps (properties)', () => {
  it('a step is due exactly when the next step’s instant has come', () => {
    fc.assert(
      fc.property(
        scenario,
        fc.subarray([...EXPIRY_STAGES]),
        fc.integer({ min: 0, max: 200 * 24 }),
        (state, sent, hoursAfterSave) => {
          const s = { ...state, expiryNotices: sent as ExpiryStage[] };
          const now = new Date(Date.parse(s.createdAt) + hoursAfterSave * 3_600_000);
          const next = nextExpiryStep(s);
          const due = dueExpiryStep(s, now);
          expect(due !== null).toBe(next !== null && next.at.getTime() <= now.getTime());
        },
      ),
    );
  });

  it('walking hour by hour sends each stage still ahead at most once, in order, then expires once', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 1, max: 36 }), (state, stepHours) => {
        const instants: Date[] = [];
        const end = expiresAt(state).getTime() + 3 * 86_400_000;
        for (let t = Date.parse(state.createdAt); t <= end; t += stepHours * 3_600_000)
          instants.push(new Date(t));
        const { state: last, steps } = walk(state, instants);
        const savedOn = saoPauloDate(new Date(state.createdAt));
        const stages = steps.filter((s) => s.step !== 'expire').map((s) => Number(s.step));
        expect(new Set(stages).size).toBe(stages.length);
        expect([...stages].sort((a, b) => b - a)).toEqual(stages);
        for (const stage of stages) expect(stageDay(state, stage as ExpiryStage) >= savedOn).toBe(true);
        expect(steps.filter((s) => s.step === 'expire')).toHaveLength(1);
        expect(steps.at(-1)?.step).toBe('expire');
        expect(last.status).toBe('expired');
      }),
    );
  });

  it('walking day by day (each day at a random hour) sends every stage on its own day', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 0, max: 23 }), (state, hour) => {
        const savedOn = saoPauloDate(new Date(state.createdAt));
        const instants: Date[] = [new Date(state.createdAt)];
        for (let day = addDays(savedOn, 1); day <= addDays(expiryDay(state), 1); day = addDays(day, 1))
          instants.push(on(day, hour));
        const { steps } = walk(state, instants);
        const expected = EXPIRY_STAGES.filter((s) => stageDay(state, s) >= savedOn).map((s) => ({
          at: stageDay(state, s),
          step: String(s),
        }));
        expect(steps).toEqual([...expected, { at: expiryDay(state), step: 'expire' }]);
      }),
    );
  });
});
