import type { BuyerRecords } from '#shared/domain/customers/buyer';
import type {
  BuyerWrite,
  CustomerProfile,
  GlobalCustomer,
  OverrideSetter,
  ProfilePatch,
  ProfileRelink,
  RegisteredFields,
  Registration,
} from '#shared/domain/customers/customer';
import type { Product } from '#shared/domain/products/products';
import type { Environment, Tenant } from '#shared/domain/tenant';

export type CustomerSearch =
  | { kind: 'all' }
  | { kind: 'document'; document: string }
  | { kind: 'email'; email: string }
  | { kind: 'name'; prefix: string };

export interface CustomerQuery {
  search: CustomerSearch;
  overdueOnly: boolean;
  skip: number;
  take: number;
  /**
   * Pages every profile newest first by cursor instead of `skip` (null: from the start); the
   * answer's `cursor` is absent on the last page. Only without a search and without `overdueOnly`.
   */
  cursor?: string | null;
}

export interface CustomerRepository {
  nextId(): Promise<number>;
  /**
   * A public buyer's write (customers/buyer.ts buyerWrite): a new global customer with the tenant's
   * profile, a new profile of a known global, or nothing for a customer the tenant has. When the
   * state the write assumes does not hold it throws BuyerChangedError (CustomerContentionError when
   * another transaction held the items) and writes nothing. Inside Atomically, with the sale.
   */
  addBuyer(write: BuyerWrite): Promise<void>;
  /**
   * The document's global customer in either environment with the sellers that have a profile of
   * it, strongly consistent: a sale reads it beside its product, before it knows the seller.
   */
  findBuyer(document: string): Promise<BuyerRecords>;
  /** Strongly consistent: a request that lost the race to create it must see the winner's item. */
  findGlobal(environment: Environment, document: string): Promise<GlobalCustomer | null>;
  /**
   * The document's global customer and whether the tenant has a profile of it, in one strongly
   * consistent read (a registration's only read, issue 17).
   */
  findRegistration(tenant: Tenant, document: string): Promise<Registration>;
  findProfile(tenant: Tenant, uuid: string): Promise<CustomerProfile | null>;
  /**
   * The tenant's profile of the customer with this numeric id (strongly consistent), or null.
   * Profiles written before this lookup existed (local data only) are not found by id.
   */
  findProfileById(tenant: Tenant, id: number): Promise<CustomerProfile | null>;
  /**
   * The id and uuid of the tenant's customer with this numeric id (strongly consistent), or null:
   * findProfileById without the profile, in one GetItem (profiles are never deleted).
   */
  findRefById(tenant: Tenant, id: number): Promise<{ id: number; uuid: string } | null>;
  /**
   * For a write that took its customer snapshot from a profile that may be a copy
   * (CustomerAndProductReader): inside the caller's `atomically`, the unit writes only if the stored
   * profile is still `profile` (its `updatedAt`), and it refreshes the copy. Otherwise nothing is
   * written and the unit throws CustomerChangedError with the stored profile.
   */
  confirmUnchanged(profile: CustomerProfile): Promise<void>;
  /**
   * Writes a new global customer with the tenant's profile. Throws ConflictError (reason
   * `already_exists`) when another request registered the document first.
   */
  createGlobal(global: GlobalCustomer, profile: CustomerProfile): Promise<void>;
  /**
   * Links an existing global customer to the tenant. Throws ConflictError (reason
   * `already_exists`, `current` = the tenant's stored profile) when the tenant already has it.
   */
  addProfile(profile: CustomerProfile): Promise<void>;
  /**
   * Answers the stored profile with the patch applied. Throws CustomerContentionError (the caller
   * reads again) when the stored e-mail is no longer `current`'s, or, for a patch that changes the
   * e-mail, when anything changed since `current` was read (that answer is built from `current`).
   */
  updateProfile(current: CustomerProfile, patch: ProfilePatch): Promise<CustomerProfile>;
  /**
   * Moves the tenant's profile to another document in one write, keeping its id and uuid: the
   * profile as `next`; the seller's link to the old document removed and one to the new document
   * added (naming the profile); the old global loses the seller (a later profile of it for this
   * seller takes `spare`); the new document's global gains the seller with the profile's id and
   * uuid, or is created (`createTarget`). Answers `next`. Throws ConflictError (reason
   * `already_exists`) when the tenant already has a profile of the new document, and
   * CustomerContentionError when the profile or the new document's global changed since read.
   */
  relinkProfile(change: ProfileRelink): Promise<CustomerProfile>;
  /**
   * A re-registration in one write, without reading the profile first: sets `fields` (and
   * `updatedAt` = `at`) on the tenant's profile `uuid` and answers it, when the stored e-mail is
   * `fields.email` and some field differs. Otherwise writes nothing and throws ConflictError
   * (reason `changed`, `current` = the stored profile): nothing differs, or the e-mail changes
   * (its pointer moves, which needs the stored one); CustomerContentionError when there is no profile.
   */
  reRegister(tenant: Tenant, uuid: string, fields: RegisteredFields, at: string): Promise<CustomerProfile>;
  /** Sets (or, with null, clears) the override and who set it; null when the tenant has no such customer. */
  setBillingEmailOverride(
    tenant: Tenant,
    uuid: string,
    email: string | null,
    setBy: OverrideSetter,
    at: string,
  ): Promise<CustomerProfile | null>;
  /** `take` profiles after `skip` matches, and how many match in all (bounded, see MAX_LIST_WINDOW). */
  list(
    tenant: Tenant,
    query: CustomerQuery,
  ): Promise<{ items: CustomerProfile[]; total: number; cursor?: string }>;
  /**
   * Moves the profile's overdue-charge count by `delta` (never below 0) and keeps the overdue
   * marker in step; the scheduled-charge work calls it. Null when the tenant has no such customer.
   */
  adjustOverdue(tenant: Tenant, uuid: string, delta: number): Promise<number | null>;
}

/**
 * A create's reads of its customer (by numeric id) and product (by uuid) in one round trip where it
 * can (issue 17): the scheduled charge's and the carnê's.
 */
export interface CustomerAndProductReader {
  /**
   * The tenant's customer of that id, possibly a copy of the profile: a write that keeps its
   * snapshot confirms it in the same unit (CustomerRepository.confirmUnchanged). The product of
   * that uuid, of any tenant, as ProductRepository.findByUuid answers it (the caller compares the
   * tenant), or null without a uuid.
   */
  read(
    tenant: Tenant,
    refs: {
      customerId: number;
      productUuid?: string;
      /**
       * A carnê's duplicate guard of the tenant's product (InstallmentPlanChanges.fingerprint), read
       * with the rest when the product is the tenant's: `planHold` answers who holds it (expired or
       * not), or null.
       */
      planFingerprint?: (productId: number) => string;
    },
  ): Promise<{
    customer: CustomerProfile | null;
    product: Product | null;
    planHold?: { planUuid: string; until: string } | null;
  }>;
}
