import type { Deps } from '#shared/domain/deps';
import type { Tenant } from '#shared/domain/tenant';
import { NotFoundError, ValidationError } from '#shared/errors';

/*
 * How a customer's work comes to live on its test clock (the creations that read the customer);
 * kept apart from the clock's use cases, which import the due engines.
 */

/**
 * Runs `work` in the time of test clock `testClockId` (a customer's), or in real time without one.
 * A clock that is gone refuses: the work would live on a clock nobody can advance.
 */
export async function onTestClock<T>(
  deps: Partial<Pick<Deps, 'testClocks' | 'clockScope'>>,
  tenant: Tenant,
  testClockId: string | null | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (!testClockId) return work();
  if (!deps.testClocks || !deps.clockScope) throw new Error('test clocks are not wired into these deps');
  const clock = await deps.testClocks.get(tenant, testClockId);
  if (!clock) throw new ValidationError(['customerId names a customer whose test clock was deleted']);
  const at = new Date(clock.frozenTime);
  return deps.clockScope.run(clock.id, () => at, work);
}

/**
 * A customer's clock on creation: one of this sandbox tenant's clocks (404 naming the field). A live
 * tenant has no clocks and is answered as for a field it does not know.
 */
export async function checkCustomerClock(
  deps: Partial<Pick<Deps, 'testClocks'>>,
  tenant: Tenant,
  testClockId: string | undefined,
): Promise<void> {
  if (testClockId === undefined) return;
  if (tenant.environment !== 'test' || !deps.testClocks)
    throw new ValidationError(['testClockId is not allowed']);
  if (!(await deps.testClocks.get(tenant, testClockId)))
    throw new NotFoundError('testClockId names no test clock of this seller');
}
