import { describe, expect, it } from 'vitest';
import { asaasLateChargeFields } from '#shared/adapters/asaas/mapping';

describe("a charge's terms in Asaas's payment fields", () => {
  it('sends fine, monthly interest and the discount tier that runs to the due date, in days before it', () => {
    expect(
      asaasLateChargeFields(
        {
          fine: { type: 'percentage', basisPoints: 200 },
          interest: { basisPointsPerMonth: 100 },
          discounts: [
            { until: '2027-01-01', rate: { type: 'fixed', centavos: 1_000 } },
            { until: '2027-01-08', rate: { type: 'percentage', basisPoints: 250 } },
          ],
        },
        '2027-01-10',
      ),
    ).toEqual({
      fine: { value: 2, type: 'PERCENTAGE' },
      interest: { value: 1 },
      discount: { value: 2.5, type: 'PERCENTAGE', dueDateLimitDays: 2 },
    });
  });

  it('sends nothing for a charge without terms, and a fixed fine in Reais', () => {
    expect(asaasLateChargeFields(null, '2027-01-10')).toEqual({});
    expect(
      asaasLateChargeFields(
        { fine: { type: 'fixed', centavos: 150 }, interest: null, discounts: [] },
        '2027-01-10',
      ),
    ).toEqual({ fine: { value: 1.5, type: 'FIXED' } });
  });
});
