import type { Clock, CustomerRepository, Ids } from '#shared/domain/ports';
import type { Environment, Tenant } from '#shared/domain/tenant';
import { isConflict } from '#shared/errors';
import {
  type BuyerFound,
  type BuyerWrite,
  CustomerContentionError,
  type GlobalCustomer,
  profileRefOf,
  type SaleCustomer,
} from './customer';
import { newProfile } from './customers';
import type { CreateCustomerInput } from './schemas';

/**
 * What a sale knows of its buyer's stored state: the document's global customer (none: a new
 * document) and whether the tenant has a profile of it (`linked`).
 */
export interface BuyerState {
  global?: GlobalCustomer;
  linked?: boolean;
}

/** What is stored of a document, per environment: its global customer and the sellers with a profile of it. */
export type BuyerRecords = Partial<
  Record<Environment, { global: GlobalCustomer; sellerIds: readonly number[] }>
>;

/** The buyer's state for the seller that sells: the records of its environment. */
export function buyerStateOf(records: BuyerRecords, tenant: Tenant): BuyerState {
  const found = records[tenant.environment];
  return found ? { global: found.global, linked: found.sellerIds.includes(tenant.sellerId) } : {};
}

/**
 * A public sale's buyer write (docs/decisions.md, "Customer identity"): what the buyer typed may
 * create a customer that does not exist yet, for this seller only; it never changes one that does.
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
    return { kind: 'newGlobal', global, profile: newProfile(tenant, global, input, now, 'buyer') };
  }
  if (state.linked) return { kind: 'existing', tenant, global: state.global };
  return { kind: 'newProfile', profile: newProfile(tenant, state.global, input, now, 'buyer') };
}

/**
 * The buyer as the sale keeps it: the customer's id and uuid, and the name, e-mail and phone the
 * buyer typed (the transaction's own copy, whatever the seller's profile holds).
 */
export function saleCustomerOf(write: BuyerWrite, input: CreateCustomerInput): SaleCustomer {
  const tenant = write.kind === 'existing' ? write.tenant : write.profile.tenant;
  const ref = write.kind === 'existing' ? profileRefOf(write.global, tenant.sellerId) : write.profile;
  return {
    tenant,
    id: ref.id,
    uuid: ref.uuid,
    document: write.kind === 'newProfile' ? write.profile.document : write.global.document,
    name: input.name,
    email: input.email,
    phone: input.phone,
  };
}

/** The state a failed write found: a found global says of the tenant's profile what the write could tell. */
export function learnBuyer(state: BuyerState, found: BuyerFound): BuyerState {
  if (found.global) return { global: found.global, linked: found.linked };
  return found.profile ? { ...state, linked: true } : state;
}

/**
 * A public buyer recorded outside a sale's write (a card trial keeps the card before any charge):
 * the same rule as buyerWrite, through the registration writes. A new document or a customer new
 * to the seller is created from what the buyer typed; a stored one is left as it is. Answers the
 * customer's id and uuid with the buyer's own data.
 */
export async function recordPublicBuyer(
  deps: {
    customers: Pick<CustomerRepository, 'findRegistration' | 'createGlobal' | 'addProfile' | 'nextId'>;
    clock: Clock;
    ids: Ids;
  },
  tenant: Tenant,
  buyer: CreateCustomerInput,
): Promise<SaleCustomer> {
  const now = deps.clock.now().toISOString();
  const asTyped = (g: GlobalCustomer): SaleCustomer => ({
    tenant,
    ...profileRefOf(g, tenant.sellerId),
    document: g.document,
    name: buyer.name,
    email: buyer.email,
    phone: buyer.phone,
  });
  for (let attempt = 1; ; attempt++) {
    const { global, linked } = await deps.customers.findRegistration(tenant, buyer.document);
    try {
      if (!global) {
        const fresh = freshGlobal(await deps.customers.nextId(), deps.ids.uuid(), tenant, buyer, now);
        await deps.customers.createGlobal(fresh, newProfile(tenant, fresh, buyer, now, 'buyer'));
        return asTyped(fresh);
      }
      if (!linked) await deps.customers.addProfile(newProfile(tenant, global, buyer, now, 'buyer'));
      return asTyped(global);
    } catch (error) {
      // Another request created it first: the stored customer stands.
      if (isConflict(error, 'already_exists') && global) return asTyped(global);
      if (attempt >= 3 || !(isConflict(error, 'already_exists') || error instanceof CustomerContentionError))
        throw error;
    }
  }
}

/** A document new to the platform, as the buyer or the seller first gave it. */
export function freshGlobal(
  id: number,
  uuid: string,
  tenant: Tenant,
  input: CreateCustomerInput,
  now: string,
): GlobalCustomer {
  return {
    id,
    uuid,
    environment: tenant.environment,
    document: input.document,
    personType: input.personType,
    name: input.name,
    email: input.email,
    phone: input.phone,
    createdAt: now,
  };
}
