import type {
  CustomerProfile,
  CustomerQuery,
  CustomerRepository,
  GlobalCustomer,
  ProfilePatch,
} from '../../../shared/domain/customers/customer';
import type { Environment, Tenant } from '../../../shared/domain/tenant';

const globalKey = (environment: Environment, document: string) => `${environment}#${document}`;
const profileKey = (tenant: Tenant, uuid: string) => `${tenant.sellerId}#${tenant.environment}#${uuid}`;

/**
 * Global customers and sellers' profiles in maps, with the DynamoDB repository's outcomes:
 * createGlobal is false when the document is taken, addProfile answers the existing profile,
 * updateProfile is null when the stored e-mail is no longer the one read.
 */
export class FakeCustomerRepository implements CustomerRepository {
  readonly globals = new Map<string, GlobalCustomer>();
  readonly profiles = new Map<string, CustomerProfile>();
  private lastId: number;

  constructor(firstId = 1) {
    this.lastId = firstId - 1;
  }

  global(environment: Environment, document: string): GlobalCustomer | undefined {
    return this.globals.get(globalKey(environment, document));
  }

  profile(tenant: Tenant, uuid: string): CustomerProfile | undefined {
    return this.profiles.get(profileKey(tenant, uuid));
  }

  async nextId(): Promise<number> {
    return ++this.lastId;
  }

  async findGlobal(environment: Environment, document: string): Promise<GlobalCustomer | null> {
    return this.globals.get(globalKey(environment, document)) ?? null;
  }

  async findProfile(tenant: Tenant, uuid: string): Promise<CustomerProfile | null> {
    return this.profiles.get(profileKey(tenant, uuid)) ?? null;
  }

  async createGlobal(global: GlobalCustomer, profile: CustomerProfile): Promise<boolean> {
    const key = globalKey(global.environment, global.document);
    if (this.globals.has(key)) return false;
    this.globals.set(key, global);
    this.profiles.set(profileKey(profile.tenant, profile.uuid), profile);
    return true;
  }

  async addProfile(profile: CustomerProfile): Promise<CustomerProfile | null> {
    const key = profileKey(profile.tenant, profile.uuid);
    const existing = this.profiles.get(key);
    if (existing) return existing;
    this.profiles.set(key, profile);
    return null;
  }

  async updateProfile(current: CustomerProfile, patch: ProfilePatch): Promise<CustomerProfile | null> {
    const key = profileKey(current.tenant, current.uuid);
    const stored = this.profiles.get(key);
    if (!stored || stored.email !== current.email) return null;
    const next = { ...stored, ...patch };
    this.profiles.set(key, next);
    return next;
  }

  async setBillingEmailOverride(
    tenant: Tenant,
    uuid: string,
    email: string | null,
    at: string,
  ): Promise<CustomerProfile | null> {
    const key = profileKey(tenant, uuid);
    const stored = this.profiles.get(key);
    if (!stored) return null;
    const next = { ...stored, billingEmailOverride: email, updatedAt: at };
    this.profiles.set(key, next);
    return next;
  }

  async list(tenant: Tenant, query: CustomerQuery): Promise<{ items: CustomerProfile[]; total: number }> {
    const search = query.search;
    const matching = [...this.profiles.values()]
      .filter((p) => p.tenant.sellerId === tenant.sellerId && p.tenant.environment === tenant.environment)
      .filter((p) => !query.overdueOnly || p.overdueCount > 0)
      .filter((p) => {
        if (search.kind === 'document') return p.document === search.document;
        if (search.kind === 'email') return p.email === search.email;
        if (search.kind === 'name') return p.name.toLowerCase().startsWith(search.prefix);
        return true;
      });
    return { items: matching.slice(query.skip, query.skip + query.take), total: matching.length };
  }

  async adjustOverdue(tenant: Tenant, uuid: string, delta: number): Promise<number | null> {
    const key = profileKey(tenant, uuid);
    const stored = this.profiles.get(key);
    if (!stored) return null;
    const overdueCount = Math.max(0, stored.overdueCount + delta);
    this.profiles.set(key, { ...stored, overdueCount });
    return overdueCount;
  }
}
