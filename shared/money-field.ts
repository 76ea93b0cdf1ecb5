import * as z from 'zod';
import { reaisToCentavos } from '#shared/money';

// Apart from shared/money.ts, which modules loaded at every cold start use: this one loads zod.
/** A zod field for an amount in Reais that parses to centavos. */
export function reaisField(field = 'value') {
  return z.number({ error: `${field} must be a number` }).transform((value, ctx) => {
    const centavos = reaisToCentavos(value);
    if (centavos === null) {
      ctx.addIssue({
        code: 'custom',
        message: `${field} must be a non-negative amount in Reais with at most 2 decimal places`,
      });
      return z.NEVER;
    }
    return centavos;
  });
}
