import type { CustomerProfile } from '#shared/domain/customers/customer';
import type { Environment } from '#shared/domain/tenant';
import { keys } from '../keys';
import type { Item } from '../table';
import { customerProfileEntity } from './customer';
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
