import { z } from 'zod';
import { addDays, daysBetween, saoPauloDate } from '#shared/dates';
import type { Clock, PortalConfigRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { ValidationError } from '#shared/errors';
import { centavosToReais } from '#shared/money';
import {
  amountDueOn,
  type LateChargeTerms,
  type LateChargeTermsInput,
  lateChargeTermsInput,
  lateChargeTermsView,
  NO_LATE_CHARGES,
  parseLateChargeTerms,
} from './amount-due';

/**
 * Where a charge's fine, interest and discount come from: the charge's own fields, else its
 * product's settings, else the seller's (each of `fine`, `interest`, `discounts` on its own; a
 * field sent as null means none). docs/decisions.md, "Fine, interest and discount".
 */

/** The three fields a create request (scheduled charge, carnê plan, boleto sale) may carry. */
export const lateChargeFields = lateChargeTermsInput.shape;

/**
 * A seller's or a product's default terms (the portal configuration's `lateCharges`): a fine in
 * percent and interest. Discount tiers name dates, so they belong to a charge only; a fixed fine
 * could pass the 2% cap on a small charge, so a default fine is a percentage.
 */
export const lateChargeDefaultsInput = z
  .object({
    fine: z
      .object({
        type: z.literal('percentage', { error: 'lateCharges.fine.type must be percentage' }),
        value: z.number().positive(),
      })
      .strict()
      .nullable()
      .optional(),
    interest: z.object({ percentPerMonth: z.number().positive() }).strict().nullable().optional(),
  })
  .strict()
  .superRefine((d, ctx) => {
    // Checked as a charge would be (percentages only: the amount and date do not matter).
    const { errors } = parseLateChargeTerms(d, { amount: 10_000, dueDate: '9999-12-31' });
    for (const message of errors) ctx.addIssue({ code: 'custom', message: `lateCharges.${message}` });
  });
export type LateChargeDefaults = z.output<typeof lateChargeDefaultsInput>;

/** The defaults a charge falls back on: its product's settings, then the seller's. */
export interface LateChargeDefaultsChain {
  product: LateChargeDefaults | null;
  seller: LateChargeDefaults | null;
}

const pick = <K extends 'fine' | 'interest'>(chain: LateChargeDefaultsChain, field: K) =>
  chain.product?.[field] !== undefined && chain.product?.[field] !== null
    ? chain.product[field]
    : (chain.seller?.[field] ?? null);

/**
 * The terms a new charge of `amount` centavos due on `dueDate` is created with (charge > product >
 * seller, field by field), in exact units; 400 naming the field when they break a cap or the charge.
 */
export function resolveLateCharges(
  input: Partial<LateChargeTermsInput>,
  chain: LateChargeDefaultsChain,
  charge: { amount: number; dueDate: string },
): LateChargeTerms | null {
  const chosen: LateChargeTermsInput = {
    fine: input.fine !== undefined ? input.fine : pick(chain, 'fine'),
    interest: input.interest !== undefined ? input.interest : pick(chain, 'interest'),
    discounts: input.discounts ?? [],
  };
  const { terms, errors } = parseLateChargeTerms(chosen, charge);
  if (errors.length > 0) throw new ValidationError(errors);
  return hasTerms(terms) ? terms : null;
}

export const hasTerms = (terms: LateChargeTerms | null | undefined): terms is LateChargeTerms =>
  !!terms && (terms.fine !== null || terms.interest !== null || terms.discounts.length > 0);

/** Whether a create request names any of the three fields (a sale by a buyer may not). */
export const namesLateCharges = (input: Partial<LateChargeTermsInput>) =>
  input.fine !== undefined || input.interest !== undefined || input.discounts !== undefined;

/** The seller's and (when the charge has one) the product's defaults, read together. */
export async function readLateChargeDefaults(
  deps: { portalConfigs: PortalConfigRepository },
  tenant: Tenant,
  product: { uuid: string } | { id: number } | null,
): Promise<LateChargeDefaultsChain> {
  // By id: the product's and the seller's configurations are keys, one batch. By uuid (a create that
  // has not read the product yet): the seller's key joins the create's first batch of reads, and the
  // product's configuration is one query beside it.
  if (product && 'id' in product) {
    const read = await deps.portalConfigs.readForProduct(tenant, product, true);
    return {
      product: read.product?.fields.lateCharges ?? null,
      seller: read.seller?.fields.lateCharges ?? null,
    };
  }
  const [seller, own] = await Promise.all([
    deps.portalConfigs.get(tenant),
    product ? deps.portalConfigs.readForProduct(tenant, product, false) : null,
  ]);
  return { product: own?.product?.fields.lateCharges ?? null, seller: seller?.fields.lateCharges ?? null };
}

/**
 * The terms of a later due date of the same series (a carnê's next installment, a recurring
 * charge's next cycle): the discount tiers keep their distance from the due date.
 */
export function termsForDueDate(
  terms: LateChargeTerms | null,
  from: string,
  to: string,
): LateChargeTerms | null {
  if (!terms || from === to || terms.discounts.length === 0) return terms;
  const shift = daysBetween(from, to);
  return { ...terms, discounts: terms.discounts.map((d) => ({ ...d, until: addDays(d.until, shift) })) };
}

/**
 * What a charge shows of its terms and of what it costs today (Sao Paulo, from the Clock):
 * `amountDue` in Reais and the terms in the API's fields (all null / empty when it has none).
 */
export function amountDueView(
  today: string,
  charge: { amount: number; dueDate: string; lateCharges: LateChargeTerms | null | undefined; open: boolean },
) {
  const terms = charge.lateCharges ?? NO_LATE_CHARGES;
  return {
    amountDue: charge.open
      ? centavosToReais(amountDueOn(charge.amount, charge.dueDate, terms, today).amountDue)
      : null,
    ...lateChargeTermsView(terms),
  };
}

/** Today in Sao Paulo, as the views compute `amountDue`. */
export const todayOf = (clock: Clock) => saoPauloDate(clock.now());
