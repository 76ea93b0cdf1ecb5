import type { Tenant } from '#shared/domain/tenant';
import {
  ADDRESS_FIELDS,
  type BuyerFound,
  type BuyerWrite,
  type CustomerProfile,
  type GlobalCustomer,
  type RegisteredFields,
  type SaleCustomer,
} from './customer';
import { diff, newProfile } from './customers';
import type { CreateCustomerInput } from './schemas';

/**
 * What a sale knows of its buyer's stored state. It starts knowing nothing and never reads first:
 * it writes assuming a new document, and a failed assumption tells it what is stored (the failed
 * condition returns the item), so a new buyer costs no read at all (issue 17).
 * `profile: null` means the tenant has none; undefined, not known yet. `linked`: whether the
 * tenant has a profile of `global`, as the sale's read found it (undefined: not known).
 */
export interface BuyerState {
  global?: GlobalCustomer;
  profile?: CustomerProfile | null;
  linked?: boolean;
}

/** The fields a sale's buyer sets on the profile: the address fields left out are not sent. */
function sentFields(input: CreateCustomerInput): RegisteredFields {
  const fields: RegisteredFields = { name: input.name, email: input.email, phone: input.phone };
  for (const field of ADDRESS_FIELDS) if (input[field] !== undefined) fields[field] = input[field];
  return fields;
}

/**
 * The upsert POST /api/v1/customers would make, as the write that assumes `state`: a new global
 * (`fresh`) when none is known, a new profile when the tenant has none, else the profile's changes
 * (or nothing, checked unchanged).
 */
export function buyerWrite(
  state: BuyerState,
  fresh: () => GlobalCustomer,
  tenant: Tenant,
  input: CreateCustomerInput,
  now: string,
): BuyerWrite {
  if (!state.global) {
    const global = fresh();
    return { kind: 'newGlobal', global, profile: newProfile(tenant, global, input, now) };
  }
  // A profile known to exist but not read: assumed to hold what the buyer sends (checked by the write).
  if (state.profile === undefined && state.linked)
    return { kind: 'asSent', tenant, global: state.global, sent: sentFields(input) };
  if (!state.profile) return { kind: 'newProfile', profile: newProfile(tenant, state.global, input, now) };
  const patch = diff(state.profile, input, now);
  return patch
    ? { kind: 'update', current: state.profile, patch }
    : { kind: 'unchanged', profile: state.profile };
}

/** The tenant's profile once the write is done; null when the write did not read it (`asSent`). */
export function profileAfter(write: BuyerWrite): CustomerProfile | null {
  switch (write.kind) {
    case 'newGlobal':
    case 'newProfile':
      return write.profile;
    case 'unchanged':
      return write.profile;
    case 'update':
      return { ...write.current, ...write.patch };
    case 'asSent':
      return null;
  }
}

/** The buyer as the sale keeps it once the write is done (an `asSent` profile holds what was sent). */
export function saleCustomerOf(write: BuyerWrite): SaleCustomer {
  if (write.kind !== 'asSent') return profileAfter(write) as CustomerProfile;
  const { tenant, global, sent } = write;
  return {
    tenant,
    id: global.id,
    uuid: global.uuid,
    document: global.document,
    name: sent.name,
    email: sent.email,
    phone: sent.phone,
  };
}

/** The state a failed write found: a found global says nothing yet about the tenant's profile. */
export function learnBuyer(state: BuyerState, found: BuyerFound): BuyerState {
  if (found.global) return { global: found.global };
  return 'profile' in found ? { ...state, profile: found.profile } : state;
}

/**
 * Where a sale's write starts after its read (issue 17): the global customer read (none: a new
 * document), whether the tenant has a profile of it (`linked`, undefined for a global written
 * before the seller list existed), and the profile this container remembers, when the read does
 * not contradict it. A linked profile nobody here has seen is written `asSent`.
 */
export function stateFromRead(
  global: GlobalCustomer | null,
  linked: boolean | undefined,
  recalled: BuyerState,
): BuyerState {
  if (!global) return {};
  if (linked === false) return { global, profile: null, linked };
  const known = recalled.profile && recalled.profile.uuid === global.uuid ? recalled.profile : undefined;
  return known ? { global, profile: known, linked } : { global, linked };
}

/** How many buyers one container remembers (the oldest is forgotten first). */
const REMEMBERED_BUYERS = 2_000;

/**
 * What the sales of one container wrote or learned of their buyers, so a returning buyer's sale
 * starts from it instead of from "a new document". Only a guess: every write checks what it
 * assumes (a global is never deleted; a profile by its `updatedAt`), so a stale memory costs one
 * more attempt, never a wrong write. Pure data: the customer repositories hold one per container.
 */
export class BuyerMemory {
  private readonly globals = new Map<string, GlobalCustomer>();
  private readonly profiles = new Map<string, CustomerProfile | null>();

  recall(tenant: Tenant, document: string): BuyerState {
    const global = this.globals.get(`${tenant.environment}#${document}`);
    if (!global) return {};
    const key = profileKey(tenant, document);
    return this.profiles.has(key) ? { global, profile: this.profiles.get(key) } : { global };
  }

  /** A write succeeded: what is stored now. */
  wrote(write: BuyerWrite): void {
    const profile = profileAfter(write);
    if (write.kind === 'newGlobal' || write.kind === 'asSent')
      this.keep(this.globals, globalKey(write.global), write.global);
    // Only the fields sent are known of an `asSent` profile: the next sale checks them again.
    if (!profile) return;
    if (write.kind !== 'newGlobal') this.keepGlobalOf(profile);
    this.keep(this.profiles, profileKey(profile.tenant, profile.document), profile);
  }

  /** A write's assumption failed on `found`, for the buyer `document` of `tenant`. */
  learned(tenant: Tenant, document: string, found: BuyerFound): void {
    if (found.global) this.keep(this.globals, globalKey(found.global), found.global);
    if ('profile' in found) {
      if (found.profile) this.keepGlobalOf(found.profile);
      this.keep(this.profiles, profileKey(tenant, document), found.profile ?? null);
    }
  }

  private keepGlobalOf(profile: CustomerProfile): void {
    const key = `${profile.tenant.environment}#${profile.document}`;
    if (this.globals.has(key)) return;
    // A profile copies its global's identity: enough for the next sale's assumption.
    this.keep(this.globals, key, {
      id: profile.id,
      uuid: profile.uuid,
      environment: profile.tenant.environment,
      document: profile.document,
      personType: profile.personType,
      name: profile.name,
      email: profile.globalEmail,
      phone: profile.phone,
      createdAt: profile.createdAt,
    });
  }

  private keep<T>(map: Map<string, T>, key: string, value: T): void {
    map.delete(key);
    map.set(key, value);
    if (map.size > REMEMBERED_BUYERS) map.delete(map.keys().next().value as string);
  }
}

const globalKey = (g: GlobalCustomer) => `${g.environment}#${g.document}`;
const profileKey = (t: Tenant, document: string) => `${t.sellerId}#${t.environment}#${document}`;
