import { addDays, saoPauloDate } from '#shared/dates';
import { affiliateSale, requireActiveAffiliation } from '#shared/domain/affiliates/index';
import { CUSTOMER_COPY_TRIES, CustomerChangedError } from '#shared/domain/customers/customer';
import { scheduleAtDue } from '#shared/domain/due-schedule';
import {
  readLateChargeDefaults,
  resolveLateCharges,
  termsForDueDate,
} from '#shared/domain/payments/late-charge-settings';
import type { CustomerAndProductReader, PortalConfigRepository } from '#shared/domain/ports';
import { FACTOR_SCALE, PRODUCT_NOT_FOUND } from '#shared/domain/products/products';
import { CUSTOMER_NOT_FOUND, customerSnapshot } from '#shared/domain/scheduled-charges/create';
import { offsetsFor } from '#shared/domain/scheduled-charges/reminders';
import { sameTenant, type Tenant } from '#shared/domain/tenant';
import { onTestClock } from '#shared/domain/test-clocks/on-clock';
import { sellerNet } from '#shared/domain/transactions/transaction';
import { ConflictError, isConflict, NotFoundError, ValidationError } from '#shared/errors';
import type { InstallmentPlanDeps } from './deps';
import { issueBoleto, providerOf, undoBoleto } from './issue';
import { FINGERPRINT_HELD, type Installment, type InstallmentPlan } from './plan';
import type { CreateInstallmentPlanInput } from './schemas';
import {
  IDENTICAL_WINDOW_MS,
  installmentAmountOf,
  installmentDueDate,
  MAX_DAYS_AHEAD,
  nextDueAt,
  planDueJob,
  planEvent,
} from './state';
import { toPlanView } from './view';

export const IDENTICAL_PLAN = 'An identical installment plan was just created for this customer';

export type CreateDeps = Omit<InstallmentPlanDeps, 'mailer'> & {
  customerAndProduct: CustomerAndProductReader;
  portalConfigs: PortalConfigRepository;
};

/** firstDueDate (or a second copy's dueDate) within today .. today + 90 days in Sao Paulo, else 400 naming `field`. */
export function checkDueWindow(field: string, date: string, today: string): void {
  const last = addDays(today, MAX_DAYS_AHEAD);
  if (date < today || date > last)
    throw new ValidationError([
      `${field} must be from today (${today}) to ${MAX_DAYS_AHEAD} days ahead (${last}), America/Sao_Paulo`,
    ]);
}

/** Everything a plan is checked against before the provider is called: product, customer, affiliate, limits. */
async function resolveSale(
  deps: CreateDeps,
  tenant: Tenant,
  input: CreateInstallmentPlanInput,
  planFingerprint: (productId: number) => string,
) {
  const {
    product: found,
    customer: profile,
    planHold,
  } = await deps.customerAndProduct.read(tenant, {
    customerId: input.customerId,
    productUuid: input.productId,
    planFingerprint,
  });
  if (!found || !sameTenant(found.tenant, tenant) || !found.isActive)
    throw new NotFoundError(PRODUCT_NOT_FOUND);
  if (!found.carne.enabled)
    throw new ValidationError(['productId: the product does not accept carnê (carne.enabled is false)']);
  if (input.installments > found.carne.maxInstallments)
    throw new ValidationError([
      `installments must be at most ${found.carne.maxInstallments} for this product (carne.maxInstallments)`,
    ]);
  if (!profile) throw new NotFoundError(CUSTOMER_NOT_FOUND);
  const affiliation =
    input.affiliateId === undefined
      ? null
      : await requireActiveAffiliation(deps, tenant, found.id, input.affiliateId, 'affiliateId');
  return { product: found, profile, affiliation, planHold: planHold ?? null };
}

const identical = (cause?: unknown) =>
  new ConflictError(IDENTICAL_PLAN, 'identical_installment_plan', { reason: 'already_exists', cause });

/**
 * POST /api/v1/installment-plans: the plan `pending_activation`, installment 1 registered as a
 * boleto, the others without one. The duplicate guard is read with the customer and product and
 * refuses an identical plan before the provider is called; it is held in the plan's own write
 * (issue 17), so a concurrent identical request that got past the read loses there: its boleto is
 * cancelled and it answers the same 409. Nothing half-made remains after any failure.
 */
export async function createInstallmentPlan(
  deps: CreateDeps,
  tenant: Tenant,
  input: CreateInstallmentPlanInput,
) {
  return createPlan(deps, tenant, input);
}

async function createPlan(
  deps: CreateDeps,
  tenant: Tenant,
  input: CreateInstallmentPlanInput,
): Promise<ReturnType<typeof toPlanView>> {
  const now = deps.clock.now();
  const today = saoPauloDate(now);
  const firstDueDate = input.firstDueDate ?? today;
  // The customer is the request's id: the fingerprint is known once the product's id is.
  const fingerprintOf = (productId: number) =>
    [input.customerId, productId, input.installments, firstDueDate, input.affiliateId ?? 0].join(':');
  const [{ product, profile, affiliation, planHold }, defaults, reminders] = await Promise.all([
    resolveSale(deps, tenant, input, fingerprintOf),
    readLateChargeDefaults(deps, tenant, { uuid: input.productId }),
    deps.reminderSettings.read(tenant, input.customerId),
  ]);
  // A sandbox customer on a test clock gets the carnê in the clock's time, and the carnê lives on
  // it: made again there, since the clock's today sets the due window and the fingerprint (one more
  // read, for such a customer only).
  if (profile.testClockId && !deps.clockScope?.current())
    return onTestClock(deps, tenant, profile.testClockId, () => createPlan(deps, tenant, input));
  checkDueWindow('firstDueDate', firstDueDate, today);
  await providerOf(deps, { tenant });
  const fator = product.carne.interestFactors[String(input.installments)] ?? FACTOR_SCALE;
  const installmentAmount = installmentAmountOf(product.value, fator, input.installments);
  const lateCharges = resolveLateCharges(input, defaults, {
    amount: installmentAmount,
    dueDate: firstDueDate,
  });
  const at = now.toISOString();
  const installmentsDetail: Installment[] = Array.from({ length: input.installments }, (_, k) => ({
    number: k + 1,
    amount: installmentAmount,
    dueDate: installmentDueDate(firstDueDate, k + 1),
    lateCharges: termsForDueDate(lateCharges, firstDueDate, installmentDueDate(firstDueDate, k + 1)),
    status: 'scheduled',
    boleto: null,
    reissueCount: 0,
    remindersSent: [],
    paidAt: null,
    paidAmount: null,
    paidBy: null,
    paidTransactionId: null,
  }));
  const fingerprint = fingerprintOf(product.id);
  let draft: InstallmentPlan = {
    uuid: deps.ids.uuid(),
    tenant,
    status: 'pending_activation',
    cancelReason: null,
    product: { id: product.id, uuid: product.uuid, name: product.name },
    customer: customerSnapshot(profile),
    affiliate: affiliateSale(affiliation, sellerNet('boleto', installmentAmount, 1)).affiliate,
    installments: input.installments,
    installmentsPaid: 0,
    baseValue: product.value,
    fator,
    installmentAmount,
    totalScheduled: installmentAmount * input.installments,
    totalCollected: 0,
    firstDueDate,
    installmentsDetail,
    overdueInstallments: 0,
    dueAt: null,
    testClockId: deps.clockScope?.current() ?? null,
    reminderOffsets: offsetsFor(reminders),
    fingerprint,
    booklet: null,
    activatedAt: null,
    completedAt: null,
    canceledAt: null,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  if (planHold && planHold.planUuid !== draft.uuid && planHold.until > at) throw identical();
  const until = new Date(now.getTime() + IDENTICAL_WINDOW_MS).toISOString();
  let seen = profile;
  for (let tries = 1; ; tries++) {
    let issued: Awaited<ReturnType<typeof issueBoleto>> | null = null;
    try {
      // The boleto names the customer as the write will: a changed profile is issued again.
      issued = await issueBoleto(deps, draft, installmentsDetail[0], firstDueDate);
      const first = { ...installmentsDetail[0], boleto: issued.boleto };
      const plan: InstallmentPlan = { ...draft, installmentsDetail: [first, ...installmentsDetail.slice(1)] };
      plan.dueAt = nextDueAt(plan);
      const transaction = issued.transaction;
      await deps.atomically(async () => {
        await deps.customers.confirmUnchanged(seen);
        await deps.installmentPlans.create(plan, {
          events: [
            planEvent(deps, plan, 'installment_plan.created'),
            planEvent(deps, plan, 'installment_plan.installment_issued', { number: 1 }),
          ],
          transactions: [transaction],
          fingerprint: { value: fingerprint, until },
        });
      });
      await scheduleAtDue(deps, planDueJob(plan), plan.dueAt);
      return toPlanView(plan);
    } catch (error) {
      if (issued) await undoBoleto(deps, draft, issued);
      if (isConflict(error) && error.code === FINGERPRINT_HELD) throw identical(error);
      if (!(error instanceof CustomerChangedError) || tries >= CUSTOMER_COPY_TRIES) throw error;
      seen = error.current;
      draft = { ...draft, customer: customerSnapshot(seen) };
    }
  }
}
