import { ADDRESS_FIELDS, type CustomerProfile, searchableName } from '#shared/domain/customers/customer';
import type { Tenant } from '#shared/domain/tenant';
import { keys } from '../keys';
import type { Item } from '../table';
import { defineEntity } from './entity';

function fromItem(item: Item): CustomerProfile {
  const address = Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, (item[f] as string | undefined) ?? null]));
  return {
    tenant: { sellerId: Number(item.sellerId), environment: item.environment as Tenant['environment'] },
    id: Number(item.id),
    uuid: String(item.uuid),
    document: String(item.document),
    personType: item.personType as CustomerProfile['personType'],
    name: String(item.name),
    email: String(item.email),
    phone: String(item.phone),
    globalEmail: String(item.globalEmail ?? ''),
    ...(address as Pick<CustomerProfile, (typeof ADDRESS_FIELDS)[number]>),
    // Profiles written before the identity model (issue 31) do not say who gave the e-mail: not a seller.
    emailSource: item.emailSource === 'seller' ? 'seller' : 'buyer',
    billingEmailOverride: (item.billingEmailOverride as string | undefined) ?? null,
    overrideSetBy: overrideSetterOf(item),
    overdueCount: Number(item.overdueCount ?? 0),
    ...(typeof item.testClockId === 'string' ? { testClockId: item.testClockId } : {}),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}

/** An override written before its setter was recorded counts as the customer area's (the weaker). */
function overrideSetterOf(item: Item): CustomerProfile['overrideSetBy'] {
  if (item.billingEmailOverride === undefined) return null;
  return item.overrideSetBy === 'seller' ? 'seller' : 'customer';
}

/** The newest-first order of a seller's customers (byCreation sort key, overdue markers). */
export const creationOrder = (p: Pick<CustomerProfile, 'createdAt' | 'id'>) =>
  `${p.createdAt}#${keys.numeric(p.id)}`;

/** The order of a profile on `customerProfile.byName`: its searchable name, then its uuid. */
export const nameOrder = (nameSearch: string, uuid: string) => `${nameSearch}#${uuid}`;

/**
 * A seller's profile of a customer, in the tenant partition under its uuid: every non-null field
 * of the profile as a top-level attribute, with `nameSearch` (lower case, no accents).
 */
export const customerProfileEntity = defineEntity({
  entity: 'customer-profile',
  version: 1,
  key: (p: CustomerProfile) => keys.customerProfile(p.tenant, p.uuid),
  patterns: {
    byCreation: {
      index: 'gsi1',
      doc: "`SELLER#<id>#<env>#CUSTOMERS` / `<createdAt>#<id, 12 digits>`: a seller's customers newest first, headed by their count",
      at: (p) => ({ pk: keys.customersByCreation(p.tenant), sk: creationOrder(p) }),
    },
    byName: {
      index: 'gsi2',
      doc: "`SELLER#<id>#<env>#CUSTNAME` / `<nameSearch>#<uuid>`: a seller's customers by name prefix",
      at: (p) => ({ pk: keys.customersByName(p.tenant), sk: nameOrder(searchableName(p.name), p.uuid) }),
    },
  },
  attributes: (p) => {
    const item: Item = {
      sellerId: p.tenant.sellerId,
      environment: p.tenant.environment,
      nameSearch: searchableName(p.name),
    };
    for (const [field, value] of Object.entries(p))
      if (field !== 'tenant' && value !== null) item[field] = value;
    return item;
  },
  fromItem,
});
