import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SCHEDULE,
  reminderScheduleSchema,
  SCHEDULE_LIMITS,
  stepKey,
} from '#shared/domain/reminders/schedule';
import { parseInput } from '#shared/validation';

const step = (offsetDays: number, extra: Record<string, unknown> = {}) => ({
  offsetDays,
  channels: ['email'],
  subject: 'Lembrete de {{empresa}}',
  body: 'Olá, {{cliente}}: {{valor}} até {{vencimento}}.',
  ...extra,
});
const parse = (body: unknown) => parseInput(reminderScheduleSchema, body);
const messages = (body: unknown) => {
  try {
    parse(body);
    return [];
  } catch (error) {
    return (error as { messages?: string[]; message: string }).messages ?? [String((error as Error).message)];
  }
};

describe('reminderScheduleSchema', () => {
  it('accepts the default schedule and answers it sorted by offset', () => {
    expect(parse({ steps: [...DEFAULT_SCHEDULE.steps].reverse() })).toEqual(DEFAULT_SCHEDULE);
  });

  it('names the field of each refusal', () => {
    expect(messages({ steps: [step(-31)] }).join()).toMatch(/steps\.0\.offsetDays.*-30 or more/);
    expect(messages({ steps: [step(61)] }).join()).toMatch(/steps\.0\.offsetDays.*60 or less/);
    expect(messages({ steps: [step(1), step(1)] }).join()).toMatch(/steps\.1\.offsetDays.*unique/);
    expect(messages({ steps: [step(0, { channels: ['fax'] })] }).join()).toMatch(/steps\.0\.channels/);
    expect(messages({ steps: [step(0, { body: 'Oi {{senha}}' })] }).join()).toMatch(
      /steps\.0\.body.*\{\{senha\}\}/,
    );
    expect(messages({ steps: [step(0, { channels: ['whatsapp'] })] }).join()).toMatch(
      /steps\.0\.whatsappTemplate.*required/,
    );
    const eleven = Array.from({ length: SCHEDULE_LIMITS.maxSteps + 1 }, (_, i) => step(i));
    expect(messages({ steps: eleven }).join()).toMatch(/steps.*at most 10/);
  });

  it('accepts any set of unique offsets within the bounds, and refuses any outside them', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: -30, max: 60 }), { maxLength: 10 }), (offsets) => {
        const parsed = parse({ steps: offsets.map((o) => step(o)) });
        expect(parsed.steps.map((s) => s.offsetDays)).toEqual([...offsets].sort((a, b) => a - b));
      }),
    );
    fc.assert(
      fc.property(fc.oneof(fc.integer({ max: -31 }), fc.integer({ min: 61 })), (o) => {
        expect(messages({ steps: [step(o)] }).length).toBeGreaterThan(0);
      }),
    );
  });

  it('keys the steps as the stages always were', () => {
    expect(DEFAULT_SCHEDULE.steps.map((s) => stepKey(s.offsetDays))).toEqual([
      'before_3',
      'due',
      'after_1',
      'after_3',
      'after_7',
    ]);
  });
});
