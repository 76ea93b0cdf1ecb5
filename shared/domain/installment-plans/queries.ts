import { readNumberedPage } from '#shared/domain/paging';
import { todayOf } from '#shared/domain/payments/late-charge-settings';
import { numberedPage } from '#shared/domain/scheduled-charges/queries';
import type { Tenant } from '#shared/domain/tenant';
import { NotFoundError } from '#shared/errors';
import type { InstallmentPlanDeps } from './deps';
import { INSTALLMENT_PLAN_NOT_FOUND, type InstallmentPlan } from './plan';
import type { ListInstallmentPlansInput } from './schemas';
import { toPlanView } from './view';

/** A plan of the tenant; another seller's or environment's answers exactly like a missing one. */
export async function findPlan(
  deps: Pick<InstallmentPlanDeps, 'installmentPlans'>,
  tenant: Tenant,
  uuid: string,
): Promise<InstallmentPlan> {
  const found = await deps.installmentPlans.get(tenant, uuid);
  if (!found) throw new NotFoundError(INSTALLMENT_PLAN_NOT_FOUND);
  return found;
}

/** GET /api/v1/installment-plans/{uuid}. */
export async function getInstallmentPlan(
  deps: Pick<InstallmentPlanDeps, 'installmentPlans' | 'clock'>,
  tenant: Tenant,
  uuid: string,
) {
  return toPlanView(await findPlan(deps, tenant, uuid), todayOf(deps.clock));
}

/** GET /api/v1/installment-plans: newest first, by customer and status, numbered pages. */
export async function listInstallmentPlans(
  deps: Pick<InstallmentPlanDeps, 'installmentPlans' | 'clock'>,
  tenant: Tenant,
  query: ListInstallmentPlansInput,
) {
  const page = await readNumberedPage(query, (at) =>
    deps.installmentPlans.list(tenant, { statuses: query.status ?? [], customerId: query.customerId, ...at }),
  );
  return numberedPage(page, query.limit, (p) => toPlanView(p, todayOf(deps.clock)));
}
