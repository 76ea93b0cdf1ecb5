import * as z from 'zod';
import type { Deps } from '#shared/domain/deps';
import { cycleItemName, OPEN_CYCLE_STATUSES, payUrlOf } from '#shared/domain/scheduled-charges/charge';
import { NotFoundError } from '#shared/errors';
import { centavosToReais } from '#shared/money';
import type { MagicLinkSubject } from './magic-link';
import { CUSTOMER_GONE } from './messages';
import { registeredProfiles } from './registered';

export { CUSTOMER_GONE };

/** Closed cycles and installments stay listed for 90 days after their due date ("recent"). */
const RECENT_DAYS = 90;

export type CustomerChargesDeps = Pick<
  Deps,
  'customers' | 'directory' | 'team' | 'scheduledCharges' | 'installmentPlans' | 'clock' | 'publicBaseUrl'
>;

export const customerChargeItem = z.object({
  sellerId: z.number(),
  sellerName: z.string(),
  kind: z.enum(['scheduled_charge', 'installment']),
  /** `sch_…` of a scheduled charge, the plan's uuid of a carnê installment. */
  id: z.string(),
  number: z.number(),
  description: z.string(),
  amount: z.number(),
  dueDate: z.string(),
  status: z.string(),
  open: z.boolean(),
  payUrl: z.string().nullable(),
});
export const customerAreaSeller = z.object({
  sellerId: z.number(),
  /** The seller's business name (its profile, as its pages and e-mails show it). */
  sellerName: z.string(),
  /** The https logo of its business profile, or null. */
  logoUrl: z.string().nullable(),
  /** The e-mail this seller bills when the customer (or the seller) set one; null: the registered e-mail. */
  billingEmailOverride: z.string().nullable(),
});
export const customerChargesResponse = z.object({
  customer: z.object({ name: z.string(), environment: z.enum(['test', 'live']) }),
  /** Every seller that registered the customer at the link's address in this environment, by seller id. */
  sellers: z.array(customerAreaSeller),
  data: z.array(customerChargeItem),
});
type Item = z.output<typeof customerChargeItem>;

/**
 * GET /api/public/minha-area/charges: the token's customer's open and recent scheduled-charge
 * cycles and carnê installments with every seller that registered it at the link's address, in the
 * token's environment only (each seller's data is read with that seller's tenant, so nothing else
 * can appear). A seller whose registered address is another one is not shown (docs/decisions.md,
 * "Customer identity"); when none is left, the link's customer is gone (404).
 */
export async function listCustomerCharges(
  deps: CustomerChargesDeps,
  subject: MagicLinkSubject,
): Promise<z.output<typeof customerChargesResponse>> {
  const registered = await registeredProfiles(deps, subject.environment, subject.document, subject.email);
  if (registered.length === 0) throw new NotFoundError(CUSTOMER_GONE);
  const recent = new Date(deps.clock.now().getTime() - RECENT_DAYS * 86_400_000).toISOString();
  const since = recent.slice(0, 10);
  const data: Item[] = [];
  const sellers: z.output<typeof customerAreaSeller>[] = [];
  // Every seller's reads at once; their business profiles in one read.
  const [businesses, read] = await Promise.all([
    deps.team.profiles(registered.map(({ link }) => link.sellerId)),
    Promise.all(
      registered.map(async ({ link, profile }) => {
        const tenant = { sellerId: link.sellerId, environment: subject.environment };
        const [charges, plans] = await Promise.all([
          deps.scheduledCharges.listByCustomer(tenant, link.customerId, { closedSince: recent }),
          deps.installmentPlans.listByCustomer(tenant, link.customerId),
        ]);
        return { link, profile, charges, plans };
      }),
    ),
  ]);
  for (const { link, profile, charges, plans } of read) {
    const business = businesses.find((b) => b.id === link.sellerId);
    const sellerName = business?.name || `Vendedor ${link.sellerId}`;
    sellers.push({
      sellerId: link.sellerId,
      sellerName,
      logoUrl: business?.logoUrl ?? null,
      billingEmailOverride: profile.billingEmailOverride,
    });
    for (const charge of charges)
      for (const cycle of charge.cycles) {
        const open = OPEN_CYCLE_STATUSES.includes(cycle.status);
        if (!open && cycle.dueDate < since) continue;
        data.push({
          sellerId: link.sellerId,
          sellerName,
          kind: 'scheduled_charge',
          id: charge.id,
          number: cycle.number,
          description: charge.description ?? cycleItemName(charge, cycle),
          amount: centavosToReais(cycle.amount),
          dueDate: cycle.dueDate,
          status: cycle.status,
          open,
          payUrl: open ? payUrlOf(deps.publicBaseUrl, cycle.payToken) : null,
        });
      }
    for (const plan of plans)
      for (const installment of plan.installmentsDetail) {
        const open = OPEN_CYCLE_STATUSES.includes(installment.status);
        if (!open && installment.dueDate < since) continue;
        data.push({
          sellerId: link.sellerId,
          sellerName,
          kind: 'installment',
          id: plan.uuid,
          number: installment.number,
          description: `${plan.product.name} (carnê ${installment.number}/${plan.installments})`,
          amount: centavosToReais(installment.amount),
          dueDate: installment.dueDate,
          status: installment.status,
          open,
          payUrl: open ? (installment.boleto?.pdfUrl ?? null) : null,
        });
      }
  }
  data.sort((a, b) => a.sellerId - b.sellerId || a.dueDate.localeCompare(b.dueDate));
  sellers.sort((a, b) => a.sellerId - b.sellerId);
  // The name the seller that registered the address first gave (the lowest seller id).
  const name = [...registered].sort((a, b) => a.link.sellerId - b.link.sellerId)[0].profile.name;
  return { customer: { name, environment: subject.environment }, sellers, data };
}
