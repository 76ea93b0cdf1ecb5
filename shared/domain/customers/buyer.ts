import type { Deps } from '#shared/domain/deps';
import type { Environment, Tenant } from '#shared/domain/tenant';
import {
  BuyerChangedError,
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

/** A public buyer's write is tried at most this often, each time on the buyer as stored then. */
const BUYER_WRITE_ATTEMPTS = 6;

/**
 * The one buyer upsert of a public payment (a sale, a subscription's trial): the buyer's customer
 * when it is new to the seller (buyerWrite: what the buyer typed never changes a stored one),
 * written together with what `alongside` writes for that customer (the sale's transaction), all or
 * nothing. `state` is what the caller read of the document. When another request registers the
 * document or links the seller between that read and this write, the write fails with nothing
 * written: the buyer is read again and everything is written once more on what is stored.
 */
export async function recordBuyer<T>(
  deps: Pick<Deps, 'customers' | 'atomically' | 'ids'>,
  tenant: Tenant,
  buyer: CreateCustomerInput,
  state: BuyerState,
  at: string,
  alongside: (customer: SaleCustomer) => Promise<T>,
): Promise<{ customer: SaleCustomer; written: T }> {
  let read = state;
  let fresh: GlobalCustomer | undefined;
  for (let attempt = 1; ; attempt++) {
    if (!read.global && !fresh)
      fresh = freshGlobal(await deps.customers.nextId(), deps.ids.uuid(), tenant, buyer, at);
    const write = buyerWrite(read, () => fresh as GlobalCustomer, tenant, buyer, at);
    const customer = saleCustomerOf(write, buyer);
    try {
      const written = await deps.atomically(async () => {
        await deps.customers.addBuyer(write);
        return alongside(customer);
      });
      return { customer, written };
    } catch (error) {
      const raced = error instanceof BuyerChangedError || error instanceof CustomerContentionError;
      if (!raced || attempt >= BUYER_WRITE_ATTEMPTS) throw error;
      read = buyerStateOf(await deps.customers.findBuyer(buyer.document), tenant);
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
