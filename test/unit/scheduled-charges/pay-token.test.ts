import { describe, expect, it } from 'vitest';
import { chargeOfPayToken, isPayToken, newPayToken } from '#shared/domain/scheduled-charges/charge';
import { SequentialIds } from '#test/support/fakes/ids';

const charge = {
  id: 'sch_live_AbCdEfGhIjKlMnOpQrStUvWx',
  tenant: { sellerId: 42, environment: 'live' },
} as const;

describe('pay tokens', () => {
  it('names the charge (seller and id) before a fresh secret, and reads it back', () => {
    const ids = new SequentialIds();
    const token = newPayToken(ids, charge);

    expect(token).toBe(`cob_42_${charge.id}_${'1'.padStart(32, '0')}`);
    expect(newPayToken(ids, charge)).not.toBe(token);
    expect(isPayToken(token)).toBe(true);
    expect(chargeOfPayToken(token)).toEqual({ tenant: charge.tenant, chargeId: charge.id });
  });

  it('takes the secret alone (a form no code mints) as no pay token', () => {
    const secretOnly = `cob_${'a'.repeat(32)}`;

    expect(isPayToken(secretOnly)).toBe(false);
    expect(chargeOfPayToken(secretOnly)).toBeNull();
  });

  it('refuses anything else: a short secret, a malformed charge id, a seller that is not a number', () => {
    for (const text of [
      `cob_${'a'.repeat(31)}`,
      `cob_42_${charge.id}_${'a'.repeat(31)}`,
      `cob_42_sch_prod_AbCdEfGhIjKlMnOpQrStUvWx_${'a'.repeat(32)}`,
      `cob_42_sch_live_AbCd_${'a'.repeat(32)}`,
      `cob_x_${charge.id}_${'a'.repeat(32)}`,
      `cob_42_${charge.id}_${'a'.repeat(32)}/x`,
      'nada',
    ]) {
      expect(isPayToken(text), text).toBe(false);
      expect(chargeOfPayToken(text), text).toBeNull();
    }
  });
});
