import * as z from 'zod';
import type { Deps } from '#shared/domain/deps';
import { ForbiddenError, NotFoundError } from '#shared/errors';
import { CUSTOMER_GONE, NO_RELATIONSHIP } from './messages';

export { NO_RELATIONSHIP };

import type { MagicLinkSubject } from './magic-link';
import { registeredProfiles } from './registered';

/** Spec: both required; `billingEmailOverride` an e-mail or literal null (which clears it). */
export const customerAreaProfileSchema = z
  .object({
    sellerId: z
      .number({ error: 'sellerId must be a positive integer' })
      .int()
      .positive()
      .max(Number.MAX_SAFE_INTEGER),
    billingEmailOverride: z
      .email({ error: 'billingEmailOverride must be a valid e-mail or null' })
      .max(254, { error: 'billingEmailOverride must be a valid e-mail or null' })
      .nullable(),
  })
  .strict();

export const customerAreaProfileResponse = z.object({ success: z.literal(true) });
/** Every closed scheduled charge's last change is at or after this instant. */
const EVER = '1970-01-01T00:00:00.000Z';

export type CustomerAreaProfileDeps = Pick<
  Deps,
  'customers' | 'directory' | 'scheduledCharges' | 'installmentPlans' | 'transactions' | 'clock'
>;

/**
 * PATCH /api/public/minha-area/profile: the customer sets or clears the e-mail one seller bills.
 * The override is stored as given on that seller's profile and does not follow later e-mail
 * changes; that seller's reminders use it (billingEmailOf), until the seller registers another
 * e-mail (the address that authorized it is no longer the seller's). A seller the customer has no
 * charge, carnê or transaction with, or that registered it at another address, is 403.
 */
export async function setCustomerAreaBillingEmail(
  deps: CustomerAreaProfileDeps,
  subject: MagicLinkSubject,
  input: z.output<typeof customerAreaProfileSchema>,
): Promise<{ success: true }> {
  const registered = await registeredProfiles(deps, subject.environment, subject.document, subject.email);
  if (registered.length === 0) throw new NotFoundError(CUSTOMER_GONE);
  // A seller that registered the customer at another address is no relationship of this link's.
  const link = registered.find((r) => r.link.sellerId === input.sellerId)?.link;
  if (!link) throw new ForbiddenError(NO_RELATIONSHIP);
  const tenant = { sellerId: link.sellerId, environment: subject.environment };
  const [charges, plans, payments] = await Promise.all([
    // A charge paid or canceled long ago is still a charge with that seller.
    deps.scheduledCharges.listByCustomer(tenant, link.customerId, { closedSince: EVER }),
    deps.installmentPlans.listByCustomer(tenant, link.customerId),
    deps.transactions.list(tenant, { page: 1, limit: 1, customerIds: [link.customerId], countTotal: false }),
  ]);
  if (charges.length === 0 && plans.length === 0 && payments.items.length === 0)
    throw new ForbiddenError(NO_RELATIONSHIP);
  const updated = await deps.customers.setBillingEmailOverride(
    tenant,
    link.uuid,
    input.billingEmailOverride,
    'customer',
    deps.clock.now().toISOString(),
  );
  if (!updated) throw new NotFoundError(CUSTOMER_GONE);
  return { success: true };
}
