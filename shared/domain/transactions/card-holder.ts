import { type Address, profileRefOf } from '#shared/domain/customers/customer';
import type { Deps } from '#shared/domain/deps';
import type { CardHolderContact } from '#shared/domain/payments/gateway';
import type { Tenant } from '#shared/domain/tenant';

type KnownAddress = Pick<Address, 'zipCode' | 'number' | 'complement'>;

/**
 * The buyer's IP address for a card payment (Asaas's `remoteIp`: the address the buyer pays from,
 * never our server's), when the request came from the buyer; nothing when the gateway did not know it.
 */
export function buyerIpOf(deps: { buyerIp?: string }): CardHolderContact {
  const ip = deps.buyerIp;
  return ip && ip !== 'unknown' ? { remoteIp: ip } : {};
}

/** A customer's phone and, when its zip code is known, its address: the card holder's contact. */
export function holderContactOf(c: { phone: string } & Partial<KnownAddress>): CardHolderContact {
  if (!c.zipCode) return { phone: c.phone };
  return {
    phone: c.phone,
    address: { postalCode: c.zipCode, number: c.number ?? null, complement: c.complement ?? null },
  };
}

/**
 * The card holder's phone and address for the provider (docs/decisions.md, "Asaas"): the
 * address the sale carries (the request's or the checkout page's customer), else the one the seller
 * registered on its customer profile. The profile is read only for a live card sale whose request has no
 * address (a test-mode provider needs none, so test sales keep their round trips).
 */
export async function cardHolderContact(
  deps: Pick<Deps, 'customers'>,
  tenant: Tenant,
  buyer: { document: string; phone: string } & Partial<KnownAddress>,
): Promise<CardHolderContact> {
  if (buyer.zipCode) return holderContactOf(buyer);
  if (tenant.environment !== 'live') return holderContactOf({ phone: buyer.phone });
  const global = await deps.customers.findGlobal(tenant.environment, buyer.document);
  const profile = global
    ? await deps.customers.findProfile(tenant, profileRefOf(global, tenant.sellerId).uuid)
    : null;
  return holderContactOf({ ...(profile ?? {}), phone: buyer.phone });
}

/** A registered customer's card holder contact, by its profile (read for live tenants only, as above). */
export async function registeredHolderContact(
  deps: Pick<Deps, 'customers'>,
  tenant: Tenant,
  customerUuid: string,
): Promise<CardHolderContact> {
  if (tenant.environment !== 'live') return {};
  const profile = await deps.customers.findProfile(tenant, customerUuid);
  return profile ? holderContactOf(profile) : {};
}
