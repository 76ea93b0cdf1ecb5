import type { CustomerProfile, GlobalCustomer, ProfileRef } from '#shared/domain/customers/customer';
import type { Environment } from '#shared/domain/tenant';
import { keys } from '../keys';
import type { Item } from '../table';
import { creationOrder, customerProfileEntity } from './customer';
import { defineEntity } from './entity';

/**
 * The items that lead to a customer's profile or to its global customer, written with the profile.
 * None is on an index: each is a key of its own, read by GetItem or a prefix Query.
 */

/** A seller's profile by e-mail (`CUSTEMAIL#<email>#<uuid>`): the customer list's e-mail search. */
export const customerEmailEntity = defineEntity({
  entity: 'customer-email',
  version: 1,
  key: (p: Pick<CustomerProfile, 'tenant' | 'email' | 'uuid'>) =>
    keys.customerEmail(p.tenant, p.email, p.uuid),
  patterns: {},
  attributes: (p) => ({ uuid: p.uuid }),
  fromItem: (item) => ({ uuid: String(item.uuid) }),
});

/** An e-mail a profile took, with the document it belongs to. */
export interface DirectoryEntry {
  environment: Environment;
  email: string;
  document: string;
}

/**
 * The customer area's index of documents by e-mail: written for every e-mail a profile takes,
 * whoever gave it. Only an index: the area sends a link to an address only when a seller
 * registered it (the profile's `emailSource`), read from the profiles themselves.
 */
export const customerGlobalEmailEntity = defineEntity({
  entity: 'customer-global-email',
  version: 1,
  key: (e: DirectoryEntry) => keys.customerGlobalEmail(e.environment, e.email, e.document),
  patterns: {},
  attributes: (e) => ({ document: e.document }),
  fromItem: (item) => ({ document: String(item.document) }),
});

export type LinkedProfile = Pick<CustomerProfile, 'tenant' | 'id' | 'uuid' | 'document'>;

/** One seller of a global customer, under the global's document (the customer area reads them across sellers). */
export const customerSellerEntity = defineEntity({
  entity: 'customer-seller',
  version: 1,
  key: (p: LinkedProfile) => keys.customerSeller(p.tenant.environment, p.document, p.tenant.sellerId),
  patterns: {},
  attributes: (p) => ({ sellerId: p.tenant.sellerId, customerId: p.id, uuid: p.uuid }),
  fromItem: (item) => ({
    sellerId: Number(item.sellerId),
    customerId: Number(item.customerId),
    uuid: String(item.uuid),
  }),
});

/**
 * The copy of the profile an id pointer carries, so a create that names the customer by id reads it
 * in the same BatchGetItem as its other items. The copy is not kept in step with later profile
 * changes: a write that used it checks the profile's `updatedAt`.
 */
function profileCopy(p: CustomerProfile): Item {
  // The overdue count moves without `updatedAt` (the charge work keeps it): never copied.
  const { tenant, overdueCount: _, ...fields } = p;
  const copy: Item = { sellerId: tenant.sellerId, environment: tenant.environment };
  for (const [field, value] of Object.entries(fields)) if (value !== null) copy[field] = value;
  return copy;
}

/**
 * The numeric id's pointer to the uuid-keyed profile (`CUSTOMERID#<id>`), written with the profile:
 * a strongly consistent GetItem finds a customer registered a moment ago (an index attribute would
 * be eventually consistent). Its profile reads as it was when the pointer was last written (its
 * overdue count 0).
 */
export const customerIdEntity = defineEntity({
  entity: 'customer-id',
  version: 1,
  key: (p: CustomerProfile) => keys.customerById(p.tenant, p.id),
  patterns: {},
  attributes: (p) => ({ uuid: p.uuid, profile: profileCopy(p) }),
  fromItem: (item) => ({
    uuid: String(item.uuid),
    profile: customerProfileEntity.fromItem(item.profile as Item),
  }),
});

/**
 * The global item's attribute holding a seller's profile identity when it is not the global's own
 * (GlobalCustomer.profileRefs): one top-level attribute per seller, so setting it needs no map to exist.
 */
export const PROFILE_REF_PREFIX = 'profileRef#';
export const profileRefAttribute = (sellerId: number) => `${PROFILE_REF_PREFIX}${sellerId}`;

/**
 * The sellers with a profile of the global customer, a number set on the global item: a sale reads
 * the global with its product (before it knows the seller) and learns from it whether the seller
 * has a profile. Updates add and remove sellers.
 */
export const SELLER_IDS = 'sellerIds';

/** A global customer as it is first written: with its first seller, and that seller's profile identity. */
export interface GlobalWrite {
  global: GlobalCustomer;
  sellerId: number;
  /** The seller's profile, when it is not keyed by the global's own id and uuid. */
  ref?: ProfileRef;
}

/**
 * A customer across sellers, one per document and environment (`CUSTOMER#<env>#<document>`): the
 * registration data, its sellers (`sellerIds`) and, per seller whose profile is not the global's
 * own id and uuid, that profile's identity (`profileRef#<sellerId>`).
 */
export const customerGlobalEntity = defineEntity({
  entity: 'customer',
  version: 1,
  key: ({ global }: GlobalWrite) => keys.customerGlobal(global.environment, global.document),
  patterns: {},
  attributes: ({ global, sellerId, ref }) => {
    const { profileRefs: _, ...fields } = global;
    const own = !ref || (ref.id === global.id && ref.uuid === global.uuid);
    return {
      ...fields,
      [SELLER_IDS]: new Set([sellerId]),
      ...(own ? {} : { [profileRefAttribute(sellerId)]: { id: ref.id, uuid: ref.uuid } }),
    };
  },
  fromItem: (item): GlobalCustomer => {
    const refs: Record<number, ProfileRef> = {};
    for (const [attribute, value] of Object.entries(item)) {
      if (!attribute.startsWith(PROFILE_REF_PREFIX)) continue;
      const ref = value as Item;
      refs[Number(attribute.slice(PROFILE_REF_PREFIX.length))] = {
        id: Number(ref.id),
        uuid: String(ref.uuid),
      };
    }
    return {
      id: Number(item.id),
      uuid: String(item.uuid),
      environment: item.environment as GlobalCustomer['environment'],
      document: String(item.document),
      personType: item.personType as GlobalCustomer['personType'],
      name: String(item.name),
      email: String(item.email),
      phone: String(item.phone),
      createdAt: String(item.createdAt),
      ...(Object.keys(refs).length > 0 ? { profileRefs: refs } : {}),
    };
  },
});

/**
 * The marker of a customer with overdue charges (`OVERDUE` partition of its tenant, keyed by the
 * profile's uuid): put when the overdue count leaves 0, deleted when it returns to 0. It carries the
 * profile's creation order, so the overdue list pages without reading every profile.
 */
export const customerOverdueEntity = defineEntity({
  entity: 'customer-overdue',
  version: 1,
  key: (p: CustomerProfile) => keys.customerOverdue(p.tenant, p.uuid),
  patterns: {},
  attributes: (p) => ({ order: creationOrder(p) }),
  fromItem: (item) => ({ uuid: String(item.sk), order: String(item.order) }),
});
