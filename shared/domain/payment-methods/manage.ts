import type { Deps } from '#shared/domain/deps';
import { sameTenant, type Tenant } from '#shared/domain/tenant';
import { isConflict, NotFoundError } from '#shared/errors';
import { expiryScheduleName } from './expiry';
import {
  CUSTOMER_NOT_FOUND,
  PAYMENT_METHOD_NOT_FOUND,
  type PaymentMethodDeleted,
  type PaymentMethodView,
  toPaymentMethodView,
} from './payment-method';

/** The method is deleted: a schedule or provider clean-up that failed goes to `reporter`. */
export type ManagePaymentMethodsDeps = Pick<
  Deps,
  'paymentMethods' | 'customers' | 'payments' | 'scheduler' | 'reporter'
>;

/**
 * The customer's saved cards, newest first. A customer with a saved card exists, so the customer
 * is read only when there is none, to tell an empty list from another seller's customer (404).
 */
export async function listPaymentMethods(
  deps: Pick<ManagePaymentMethodsDeps, 'paymentMethods' | 'customers'>,
  tenant: Tenant,
  customerUuid: string,
): Promise<{ data: PaymentMethodView[] }> {
  const methods = await deps.paymentMethods.listByCustomer(tenant, customerUuid);
  if (methods.length === 0 && !(await deps.customers.findProfile(tenant, customerUuid)))
    throw new NotFoundError(CUSTOMER_NOT_FOUND);
  return { data: methods.map(toPaymentMethodView) };
}

/** Deleting twice at once: the loser reads again and answers as the method is now (gone). */
const ATTEMPTS = 3;

/**
 * Detaches a saved card: the method is deleted (and its duplicate guard, so the card can be saved
 * again), its pending expiry schedule is cancelled, and the provider forgets the token. Later
 * references to the id (a subscription's paymentMethodId) find nothing, as the spec's attempts
 * expect ("null when the saved method was deleted").
 */
export async function deletePaymentMethod(
  deps: ManagePaymentMethodsDeps,
  tenant: Tenant,
  customerUuid: string,
  id: number,
): Promise<PaymentMethodDeleted> {
  for (let attempt = 1; ; attempt++) {
    const pm = await deps.paymentMethods.get(tenant, id);
    if (!pm || !sameTenant(pm.tenant, tenant) || pm.customer.uuid !== customerUuid) {
      if (!(await deps.customers.findProfile(tenant, customerUuid)))
        throw new NotFoundError(CUSTOMER_NOT_FOUND);
      throw new NotFoundError(PAYMENT_METHOD_NOT_FOUND);
    }
    try {
      await deps.paymentMethods.delete(pm);
    } catch (error) {
      // An expiry step or another delete wrote first: read again (a deleted method is then a 404).
      if (isConflict(error, 'changed') && attempt < ATTEMPTS) continue;
      throw error;
    }
    const name = expiryScheduleName(pm);
    const cleanups = [
      name ? deps.scheduler.cancel(name) : Promise.resolve(),
      deps.payments.forEnvironment(tenant.environment).detachSavedCard(tenant, pm.token),
    ];
    for (const result of await Promise.allSettled(cleanups))
      if (result.status === 'rejected') deps.reporter.error('saved card clean-up failed', result.reason);
    return { id: pm.id, deleted: true };
  }
}
