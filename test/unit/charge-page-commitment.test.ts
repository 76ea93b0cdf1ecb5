import { describe, expect, it } from 'vitest';
import { commitmentText } from '#shared/domain/pages/charge-page';

describe('commitmentText (the pay link page of a recurring series)', () => {
  it('states a count of cycles as "parcela n de N · N cobranças mensais"', () => {
    const monthly = { interval: 'month', intervalCount: 1, endAfterCycles: 6, endDate: null } as const;
    expect(commitmentText(monthly, 1)).toBe('parcela 1 de 6 · 6 cobranças mensais');
    expect(commitmentText({ ...monthly, interval: 'week' }, 3)).toBe('parcela 3 de 6 · 6 cobranças semanais');
    expect(commitmentText({ ...monthly, intervalCount: 3 }, 2)).toBe(
      'parcela 2 de 6 · 6 cobranças a cada 3 meses',
    );
  });

  it('states an end date, or that the series has none', () => {
    const yearly = {
      interval: 'year',
      intervalCount: 1,
      endAfterCycles: null,
      endDate: '2029-09-10',
    } as const;
    expect(commitmentText(yearly, 2)).toBe('parcela 2 · cobranças anuais até 10/09/2029');
    expect(commitmentText({ ...yearly, endDate: null }, 1)).toBe(
      'parcela 1 · cobranças anuais, sem data para terminar',
    );
  });
});
