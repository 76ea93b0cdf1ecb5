import type { BuyerRecords } from '#shared/domain/customers/buyer';
import {
  BuyerChangedError,
  type BuyerWrite,
  CustomerChangedError,
  CustomerContentionError,
  type CustomerProfile,
  type GlobalCustomer,
  type OverrideSetter,
  type ProfilePatch,
  type ProfileRelink,
  type RegisteredFields,
  type Registration,
  searchableName,
} from '#shared/domain/customers/customer';
import type { CustomerQuery, CustomerRepository } from '#shared/domain/ports';
import type { Environment, Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';
import { writeOrStage } from './unit-of-work';

const globalKey = (environment: Environment, document: string) => `${environment}#${document}`;
const profileKey = (tenant: Tenant, uuid: string) => `${tenant.sellerId}#${tenant.environment}#${uuid}`;
const creationOrder = (p: CustomerProfile) => `${p.createdAt}#${String(p.id).padStart(12, '0')}`;
const newestFirst = (a: CustomerProfile, b: CustomerProfile) =>
  creationOrder(a) < creationOrder(b) ? 1 : -1;

/**
 * Global customers and sellers' profiles in maps, with the DynamoDB repository's outcomes:
 * createGlobal throws ConflictError (reason `already_exists`) when the document is taken,
 * addProfile throws it with the stored profile as `current`, reRegister throws ConflictError
 * (reason `changed`, `current`) when the e-mail differs or nothing does, updateProfile throws
 * CustomerContentionError when the stored e-mail is no longer the one read, or when an e-mail
 * change meets a profile changed since it was read. addBuyer throws the adapter's BuyerChangedError
 * (inside fakeAtomically, when the unit's writes are checked). A seller
 * is linked to a document when it has a profile of that document (the adapter's seller link).
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

  /** A seller's profile stored as it is, without its global customer (a test reading profiles only). */
  seedProfile(profile: CustomerProfile): void {
    this.profiles.set(profileKey(profile.tenant, profile.uuid), profile);
  }

  profile(tenant: Tenant, uuid: string): CustomerProfile | undefined {
    return this.profiles.get(profileKey(tenant, uuid));
  }

  /** The sellers with a profile of the document in that environment (the adapter's seller links). */
  private sellersOf(environment: Environment, document: string): Set<string> {
    return new Set(
      [...this.profiles.values()]
        .filter((p) => p.document === document && p.tenant.environment === environment)
        .map((p) => String(p.tenant.sellerId)),
    );
  }

  async nextId(): Promise<number> {
    return ++this.lastId;
  }

  /** As the adapter: checked with the unit's other writes; a changed profile is CustomerChangedError. */
  async confirmUnchanged(seen: CustomerProfile): Promise<void> {
    await writeOrStage({
      check: () => {
        const stored = this.profile(seen.tenant, seen.uuid);
        if (!stored) throw new CustomerContentionError();
        if (stored.updatedAt !== seen.updatedAt) throw new CustomerChangedError(structuredClone(stored));
      },
      apply: () => undefined,
    });
  }

  async addBuyer(write: BuyerWrite): Promise<void> {
    await writeOrStage({ check: () => this.checkBuyer(write), apply: () => this.applyBuyer(write) });
  }

  /** As the adapter: the document's globals and their seller lists as they are now. */
  async findBuyer(document: string): Promise<BuyerRecords> {
    const records: BuyerRecords = {};
    for (const environment of ['test', 'live'] as Environment[]) {
      const global = this.global(environment, document);
      if (!global) continue;
      const sellerIds = [...this.sellersOf(environment, document)].map(Number);
      records[environment] = { global: structuredClone(global), sellerIds };
    }
    return records;
  }

  private checkBuyer(write: BuyerWrite): void {
    if (write.kind === 'newGlobal') {
      const { environment, document } = write.global;
      if (this.global(environment, document)) throw new BuyerChangedError();
      if (this.profile(write.profile.tenant, write.profile.uuid)) throw new CustomerContentionError();
      return;
    }
    if (write.kind === 'newProfile') {
      const { tenant, document, uuid } = write.profile;
      if (this.profile(tenant, uuid)) throw new BuyerChangedError();
      const global = this.global(tenant.environment, document);
      if (global && this.sellersOf(tenant.environment, document).has(String(tenant.sellerId)))
        throw new BuyerChangedError();
      return;
    }
  }

  private applyBuyer(write: BuyerWrite): void {
    if (write.kind === 'newGlobal') {
      this.globals.set(globalKey(write.global.environment, write.global.document), write.global);
      this.profiles.set(profileKey(write.profile.tenant, write.profile.uuid), write.profile);
    } else if (write.kind === 'newProfile') {
      this.profiles.set(profileKey(write.profile.tenant, write.profile.uuid), write.profile);
    }
  }

  async findGlobal(environment: Environment, document: string): Promise<GlobalCustomer | null> {
    return this.globals.get(globalKey(environment, document)) ?? null;
  }

  async findRegistration(tenant: Tenant, document: string): Promise<Registration> {
    const global = this.globals.get(globalKey(tenant.environment, document)) ?? null;
    return {
      global,
      linked: global !== null && this.sellersOf(tenant.environment, document).has(String(tenant.sellerId)),
    };
  }

  async findProfile(tenant: Tenant, uuid: string): Promise<CustomerProfile | null> {
    return this.profiles.get(profileKey(tenant, uuid)) ?? null;
  }

  async findRefById(tenant: Tenant, id: number): Promise<{ id: number; uuid: string } | null> {
    const found = await this.findProfileById(tenant, id);
    return found ? { id: found.id, uuid: found.uuid } : null;
  }

  async findProfileById(tenant: Tenant, id: number): Promise<CustomerProfile | null> {
    const found = [...this.profiles.values()].find(
      (p) =>
        p.id === id && p.tenant.sellerId === tenant.sellerId && p.tenant.environment === tenant.environment,
    );
    return found ?? null;
  }

  async createGlobal(global: GlobalCustomer, profile: CustomerProfile): Promise<void> {
    const key = globalKey(global.environment, global.document);
    if (this.globals.has(key)) {
      throw new ConflictError('A customer with this document already exists', 'customer_exists', {
        reason: 'already_exists',
      });
    }
    this.globals.set(key, global);
    this.profiles.set(profileKey(profile.tenant, profile.uuid), profile);
  }

  async addProfile(profile: CustomerProfile): Promise<void> {
    const key = profileKey(profile.tenant, profile.uuid);
    const existing = this.profiles.get(key);
    if (existing) {
      throw new ConflictError('The seller already has this customer', 'customer_exists', {
        reason: 'already_exists',
        current: existing,
      });
    }
    this.profiles.set(key, profile);
  }

  async updateProfile(current: CustomerProfile, patch: ProfilePatch): Promise<CustomerProfile> {
    const key = profileKey(current.tenant, current.uuid);
    const stored = this.profiles.get(key);
    if (!stored || stored.email !== current.email) throw new CustomerContentionError();
    const emailChanges =
      patch.email !== undefined && patch.email.toLowerCase() !== current.email.toLowerCase();
    if (emailChanges && stored.updatedAt !== current.updatedAt) throw new CustomerContentionError();
    const next = { ...stored, ...patch };
    this.profiles.set(key, next);
    return next;
  }

  async relinkProfile({
    current,
    next,
    target,
    createTarget,
    spare,
  }: ProfileRelink): Promise<CustomerProfile> {
    const { tenant } = current;
    const key = profileKey(tenant, current.uuid);
    const stored = this.profiles.get(key);
    if (!stored || stored.updatedAt !== current.updatedAt || stored.document !== current.document)
      throw new CustomerContentionError();
    if (this.sellersOf(tenant.environment, next.document).has(String(tenant.sellerId)))
      throw new ConflictError('This seller already has a customer with this document', 'customer_exists', {
        reason: 'already_exists',
      });
    const targetKey = globalKey(tenant.environment, target.document);
    if (createTarget === this.globals.has(targetKey)) throw new CustomerContentionError();
    const withRef = (g: GlobalCustomer, ref: { id: number; uuid: string }): GlobalCustomer => ({
      ...g,
      profileRefs: { ...g.profileRefs, [tenant.sellerId]: ref },
    });
    const oldKey = globalKey(tenant.environment, current.document);
    const old = this.globals.get(oldKey);
    if (old) this.globals.set(oldKey, withRef(old, spare));
    const base = createTarget ? target : (this.globals.get(targetKey) as GlobalCustomer);
    this.globals.set(targetKey, withRef(base, { id: next.id, uuid: next.uuid }));
    const moved = { ...next, overdueCount: stored.overdueCount };
    this.profiles.set(key, moved);
    return next;
  }

  async reRegister(
    tenant: Tenant,
    uuid: string,
    fields: RegisteredFields,
    at: string,
  ): Promise<CustomerProfile> {
    const key = profileKey(tenant, uuid);
    const stored = this.profiles.get(key);
    if (!stored) throw new CustomerContentionError();
    const differs = Object.entries(fields).some(
      ([field, value]) =>
        field !== 'email' && value !== undefined && value !== stored[field as keyof RegisteredFields],
    );
    if (stored.email !== fields.email || !differs) {
      throw new ConflictError('The customer is already registered as stored', 'customer_changed', {
        reason: 'changed',
        current: stored,
      });
    }
    const next = { ...stored, ...fields, updatedAt: at };
    this.profiles.set(key, next);
    return next;
  }

  async setBillingEmailOverride(
    tenant: Tenant,
    uuid: string,
    email: string | null,
    setBy: OverrideSetter,
    at: string,
  ): Promise<CustomerProfile | null> {
    const key = profileKey(tenant, uuid);
    const stored = this.profiles.get(key);
    if (!stored) return null;
    const next = {
      ...stored,
      billingEmailOverride: email,
      overrideSetBy: email === null ? null : setBy,
      updatedAt: at,
    };
    this.profiles.set(key, next);
    return next;
  }

  async list(
    tenant: Tenant,
    query: CustomerQuery,
  ): Promise<{ items: CustomerProfile[]; total: number; cursor?: string }> {
    const search = query.search;
    const matching = [...this.profiles.values()]
      .filter((p) => p.tenant.sellerId === tenant.sellerId && p.tenant.environment === tenant.environment)
      .filter((p) => !query.overdueOnly || p.overdueCount > 0)
      .filter((p) => {
        if (search.kind === 'document') return p.document === search.document;
        // As the DynamoDB repository: e-mail pointers are lower case, names compared searchable.
        if (search.kind === 'email') return p.email.toLowerCase() === search.email.toLowerCase();
        if (search.kind === 'name') return searchableName(p.name).startsWith(search.prefix);
        return true;
      })
      // Newest first (creation time, then id), searches too.
      .sort(newestFirst);
    if (query.cursor !== undefined) {
      // As the adapter's cursor pages: an opaque position (here the offset), absent on the last page.
      const from = query.cursor === null ? 0 : Number(query.cursor);
      const to = from + query.take;
      return {
        items: matching.slice(from, to),
        total: 0,
        ...(to < matching.length ? { cursor: String(to) } : {}),
      };
    }
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
