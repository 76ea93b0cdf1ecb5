import type { Tenant } from '#shared/domain/tenant';
import type { BuyerFound, BuyerWrite, CustomerProfile, GlobalCustomer } from './customer';
import { diff, newProfile } from './customers';
import type { CreateCustomerInput } from './schemas';

/**
 * What a sale knows of its buyer's stored state. It starts knowing nothing and never reads first:
 * it writes assuming a new document, and a failed assumption tells it what is stored (the failed
 * condition returns the item), so a new buyer costs no read at all (issue 17).
 * `profile: null` means the tenant has none; undefined, not known yet.
 */
export interface BuyerState {
  global?: GlobalCustomer;
  profile?: CustomerProfile | null;
}

/**
 * The upsert POST /api/v1/customers would make, as the write that assumes `state`: a new global
 * (`fresh`) when none is known, a new profile when the tenant has none, else the profile's changes
 * (or nothing, checked unchanged).
 */
export function buyerWrite(
  state: BuyerState,
  fresh: () => GlobalCustomer,
  tenant: Tenant,
  input: CreateCustomerInput,
  now: string,
): BuyerWrite {
  if (!state.global) {
    const global = fresh();
    return { kind: 'newGlobal', global, profile: newProfile(tenant, global, input, now) };
  }
  if (!state.profile) return { kind: 'newProfile', profile: newProfile(tenant, state.global, input, now) };
  const patch = diff(state.profile, input, now);
  return patch
    ? { kind: 'update', current: state.profile, patch }
    : { kind: 'unchanged', profile: state.profile };
}

/** The tenant's profile once the write is done. */
export function profileAfter(write: BuyerWrite): CustomerProfile {
  switch (write.kind) {
    case 'newGlobal':
    case 'newProfile':
      return write.profile;
    case 'unchanged':
      return write.profile;
    case 'update':
      return { ...write.current, ...write.patch };
  }
}

/** The state a failed write found: a found global says nothing yet about the tenant's profile. */
export function learnBuyer(state: BuyerState, found: BuyerFound): BuyerState {
  if (found.global) return { global: found.global };
  return 'profile' in found ? { ...state, profile: found.profile } : state;
}
