import type { Environment, Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';

export type PersonType = 'fisica' | 'juridica';
export type EmailSource = 'seller' | 'buyer';
export type OverrideSetter = 'seller' | 'customer';

/** The numeric id and uuid a seller's profile answers with (its key: never changes once written). */
export interface ProfileRef {
  id: number;
  uuid: string;
}

/** One per (environment, document), shared by every seller; written once, by whoever registers it first. */
export interface GlobalCustomer {
  id: number;
  uuid: string;
  environment: Environment;
  document: string;
  personType: PersonType;
  name: string;
  email: string;
  phone: string;
  createdAt: string;
  /**
   * Sellers whose profile of this document is not keyed by the global's own id and uuid, by seller
   * id: a profile a seller moved here from a mistyped document keeps its identity, and the document
   * it left gets a fresh one for that seller (its own is still the moved profile's key). Absent
   * for most globals: every profile then takes the global's id and uuid.
   */
  profileRefs?: Readonly<Record<number, ProfileRef>>;
}

/** The id and uuid of `sellerId`'s profile of the global customer (one it has, or one it would create). */
export const profileRefOf = (global: GlobalCustomer, sellerId: number): ProfileRef =>
  global.profileRefs?.[sellerId] ?? { id: global.id, uuid: global.uuid };

/** The person type a document makes: fisica for a CPF, juridica for a CNPJ. */
export const personTypeOf = (document: string): PersonType =>
  document.length === 11 ? 'fisica' : 'juridica';

export interface Address {
  zipCode: string | null;
  street: string | null;
  number: string | null;
  complement: string | null;
  neighborhood: string | null;
  city: string | null;
  state: string | null;
}

export const ADDRESS_FIELDS = [
  'zipCode',
  'street',
  'number',
  'complement',
  'neighborhood',
  'city',
  'state',
] as const;

/**
 * One seller's view of a global customer. It copies the global's identity (id, uuid, document,
 * personType, e-mail) so that lists of a seller never read global items.
 */
export interface CustomerProfile extends Address {
  tenant: Tenant;
  id: number;
  uuid: string;
  document: string;
  personType: PersonType;
  name: string;
  email: string;
  phone: string;
  globalEmail: string;
  /**
   * Who gave this profile its e-mail (docs/decisions.md, "Customer identity"): `seller` through the
   * authenticated API (registration or update), `buyer` when an unauthenticated caller typed it (a
   * public sale that created the profile, the portal's customer-info). Only a seller's address
   * receives customer-area links.
   */
  emailSource: EmailSource;
  billingEmailOverride: string | null;
  /** Who set the override: a customer-area override is dropped when the seller changes the e-mail. */
  overrideSetBy: OverrideSetter | null;
  /** Overdue scheduled charges of this customer with this seller (kept by the charge work). */
  overdueCount: number;
  /** Sandbox: the test clock the customer lives on, set when this profile is created (absent: real time). */
  testClockId?: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The fields a seller may change on its profile. */
export type ProfilePatch = Partial<
  Pick<
    CustomerProfile,
    'name' | 'email' | 'phone' | keyof Address | 'emailSource' | 'billingEmailOverride' | 'overrideSetBy'
  >
> & {
  updatedAt: string;
};

/**
 * Concurrent writers touched the same items (a lost create race, a TransactionConflict). The use
 * cases retry; only a request that keeps losing sees the 409.
 */
export class CustomerContentionError extends ConflictError {
  constructor(options: { cause?: unknown } = {}) {
    super('The customer is being changed by another request; retry', 'customer_contention', {
      ...options,
      reason: 'contended',
    });
  }
}

/**
 * The buyer's part of a sale's single write: the sale is unauthenticated, so it never changes a
 * stored customer (docs/decisions.md, "Customer identity"). Each kind carries the state it assumes,
 * checked by a condition in the same write:
 * - `newGlobal`: the document is unknown (a new global customer and the tenant's profile, both
 *   holding what the buyer typed, the e-mail marked `buyer`);
 * - `newProfile`: the global exists, the tenant has no profile of it yet (created as above);
 * - `existing`: the tenant has a profile of `global`: nothing is written to it.
 */
export type BuyerWrite =
  | { kind: 'newGlobal'; global: GlobalCustomer; profile: CustomerProfile }
  | { kind: 'newProfile'; profile: CustomerProfile }
  | { kind: 'existing'; tenant: Tenant; global: GlobalCustomer };

/** What a sale keeps of its buyer once the write is done (the transaction's copy, a saved card's owner). */
export type SaleCustomer = Pick<
  CustomerProfile,
  'tenant' | 'id' | 'uuid' | 'document' | 'name' | 'email' | 'phone'
>;

/**
 * What a registration sets on the seller's profile: name, e-mail and phone, and the address fields
 * the request sent (null clears one; one left out keeps its stored value).
 */
export type RegisteredFields = Pick<CustomerProfile, 'name' | 'email' | 'phone'> & {
  emailSource: 'seller';
} & Partial<Record<(typeof ADDRESS_FIELDS)[number], string | null>>;

/** The global customer of a document, and whether the tenant has a profile of it (the seller link). */
export interface Registration {
  global: GlobalCustomer | null;
  linked: boolean;
}

/**
 * A seller moves its profile to another document (PATCH with `document`), keeping the profile's id
 * and uuid: `next` is the profile as it will be stored; `target` the new document's global customer
 * (as read, or new when `createTarget`); `spare` the id and uuid the old document keeps for a later
 * profile of this seller (the moved profile still holds the old ones).
 */
export interface ProfileRelink {
  current: CustomerProfile;
  next: CustomerProfile;
  target: GlobalCustomer;
  createTarget: boolean;
  spare: ProfileRef;
}

/**
 * A BuyerWrite's assumption did not hold (another request registered the document or linked the
 * seller meanwhile): nothing was written; the buyer is read again and the sale written on that.
 */
export class BuyerChangedError extends ConflictError {
  constructor(options: { cause?: unknown } = {}) {
    super('The customer changed while the sale was written; retry', 'customer_changed', {
      ...options,
      reason: 'changed',
    });
  }
}

/** Writes of a create whose customer copy keeps turning out stale (each again on the stored profile). */
export const CUSTOMER_COPY_TRIES = 3;

/**
 * A create that took its customer snapshot from the copy an id pointer carries found the profile
 * changed since (issue 17): nothing was written; `current` is the stored profile to write again on.
 */
export class CustomerChangedError extends ConflictError {
  constructor(
    readonly current: CustomerProfile,
    options: { cause?: unknown } = {},
  ) {
    super('The customer changed while this was written; retry', 'customer_changed', {
      ...options,
      reason: 'changed',
      current,
    });
  }
}

/** Lower case, no accents, single spaces: what name-prefix search compares. */
export function searchableName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

export interface CustomerView extends Address {
  id: number;
  uuid: string;
  name: string;
  email: string;
  phone: string;
  document: string;
  personType: PersonType;
  billingEmail: string;
  hasBillingEmailOverride: boolean;
  /** Only on a sandbox customer that lives on a test clock. */
  testClockId?: string;
  createdAt: string;
  updatedAt: string;
}

/** Spec: the override, else the e-mail last used with this seller, else the global e-mail. */
export const billingEmailOf = (p: CustomerProfile): string =>
  p.billingEmailOverride ?? (p.email || p.globalEmail);

export const toCustomerView = (p: CustomerProfile): CustomerView => ({
  id: p.id,
  uuid: p.uuid,
  name: p.name,
  email: p.email,
  phone: p.phone,
  document: p.document,
  personType: p.personType,
  zipCode: p.zipCode,
  street: p.street,
  number: p.number,
  complement: p.complement,
  neighborhood: p.neighborhood,
  city: p.city,
  state: p.state,
  billingEmail: billingEmailOf(p),
  hasBillingEmailOverride: p.billingEmailOverride !== null,
  ...(p.testClockId ? { testClockId: p.testClockId } : {}),
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});
