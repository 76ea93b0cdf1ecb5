import type { CustomerProfile } from '#shared/domain/customers/customer';
import type { Deps } from '#shared/domain/deps';
import type { CustomerSellerLink } from '#shared/domain/ports/customer-area';
import type { Environment } from '#shared/domain/tenant';

/** A seller's profile of the customer, with the link that found it. */
export interface RegisteredProfile {
  link: CustomerSellerLink;
  profile: CustomerProfile;
}

/** The address a seller registered on its profile (its authenticated API), lower case; null: none. */
export function registeredAddress(profile: CustomerProfile | null): string | null {
  return profile?.emailSource === 'seller' ? profile.email.toLowerCase() : null;
}

/**
 * The sellers' profiles of a customer whose e-mail a seller registered (docs/decisions.md,
 * "Customer identity"): the only addresses the customer area sends links to, and, for a link, the
 * only sellers it shows (those whose registered address is the link's). `email`: only that address.
 */
export async function registeredProfiles(
  deps: Pick<Deps, 'customers' | 'directory'>,
  environment: Environment,
  document: string,
  email?: string,
): Promise<RegisteredProfile[]> {
  const links = await deps.directory.sellersOf(environment, document);
  const read = await Promise.all(
    links.map(async (link) => ({
      link,
      profile: await deps.customers.findProfile({ sellerId: link.sellerId, environment }, link.uuid),
    })),
  );
  return read.filter((r): r is RegisteredProfile => {
    const address = registeredAddress(r.profile);
    return address !== null && (email === undefined || address === email.toLowerCase());
  });
}
