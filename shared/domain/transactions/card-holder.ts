import type { Address } from '#shared/domain/customers/customer';
import type { CardHolderContact } from '#shared/domain/payments/gateway';
import type { CustomerRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';

type KnownAddress = Pick<Address, 'zipCode' | 'number' | 'complement'>;

const addressOf = (a: Partial<KnownAddress> | null | undefined): CardHolderContact['address'] =>
  a?.zipCode
    ? { postalCode: a.zipCode, number: a.number ?? null, complement: a.complement ?? null }
    : undefined;

/**
 * The card holder's phone and address for the provider (docs/decisions.md, "Asaas (issue 16)"): the
 * address the sale carries (the request's or the checkout session's customer), else the one the seller
 * registered on its customer profile. The profile is read only for a live card sale whose request has no
 * address (a test-mode provider needs none, so test sales keep their round trips); this container's
 * earlier sales of the buyer answer without a read.
 */
export async function cardHolderContact(
  deps: { customers: Pick<CustomerRepository, 'recallBuyer' | 'findGlobal' | 'findProfile'> },
  tenant: Tenant,
  buyer: { document: string; phone: string } & Partial<KnownAddress>,
): Promise<CardHolderContact> {
  const given = addressOf(buyer);
  if (given) return { phone: buyer.phone, address: given };
  const recalled = deps.customers.recallBuyer(tenant, buyer.document).profile;
  if (recalled !== undefined || tenant.environment !== 'live') {
    const address = addressOf(recalled);
    return address ? { phone: buyer.phone, address } : { phone: buyer.phone };
  }
  const global = await deps.customers.findGlobal(tenant.environment, buyer.document);
  const profile = global ? await deps.customers.findProfile(tenant, global.uuid) : null;
  const address = addressOf(profile);
  return address ? { phone: buyer.phone, address } : { phone: buyer.phone };
}
