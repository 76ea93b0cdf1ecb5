import type { Deps } from '#shared/domain/deps';
import type { CustomerRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { checkCustomerClock } from '#shared/domain/test-clocks/on-clock';
import { ConflictError, isConflict, NotFoundError, ValidationError } from '#shared/errors';
import { freshGlobal } from './buyer';
import {
  ADDRESS_FIELDS,
  CustomerContentionError,
  type CustomerProfile,
  type CustomerView,
  type EmailSource,
  type GlobalCustomer,
  type PersonType,
  type ProfilePatch,
  personTypeOf,
  profileRefOf,
  type RegisteredFields,
  toCustomerView,
} from './customer';
import type { CreateCustomerInput, RegisterCustomerInput, UpdateCustomerInput } from './schemas';

export type CustomerDeps = Pick<Deps, 'clock' | 'ids'> &
  Partial<Pick<Deps, 'testClocks'>> & {
    /** Registration and updates never join a sale's write. */
    customers: Omit<CustomerRepository, 'addBuyer' | 'findBuyer' | 'confirmUnchanged'>;
    /** Between attempts after a lost race; tests pass a no-op. */
    pause?: (ms: number) => Promise<void>;
  };

const NOT_FOUND = 'Customer not found';
const ATTEMPTS = 8;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Re-runs `work` after a lost race, with jittered backoff; the last loss becomes the 409. */
async function retrying<T>(deps: CustomerDeps, work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof CustomerContentionError) || attempt >= ATTEMPTS) throw error;
      await (deps.pause ?? sleep)(Math.random() * 10 * 2 ** attempt);
    }
  }
}

const addressOf = (input: Partial<Record<(typeof ADDRESS_FIELDS)[number], string | null | undefined>>) =>
  Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, input[f] ?? null])) as Pick<
    CustomerProfile,
    (typeof ADDRESS_FIELDS)[number]
  >;

export function newProfile(
  tenant: Tenant,
  global: GlobalCustomer,
  input: CreateCustomerInput,
  now: string,
  emailSource: EmailSource,
): CustomerProfile {
  return {
    tenant,
    ...profileRefOf(global, tenant.sellerId),
    document: global.document,
    personType: global.personType,
    globalEmail: global.email,
    name: input.name,
    email: input.email,
    phone: input.phone,
    ...addressOf(input),
    emailSource,
    billingEmailOverride: null,
    overrideSetBy: null,
    overdueCount: 0,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * The fields of `input` that differ from the profile; null when nothing changes. An e-mail the
 * seller sends (even the stored one) becomes the seller's (`emailSource`); one the customer sends
 * through the portal is the buyer's. A seller's new e-mail drops an override the customer area set:
 * the address that authorized it is no longer the registered one.
 */
export function diff(
  current: CustomerProfile,
  input: UpdateCustomerInput,
  now: string,
  source: EmailSource = 'seller',
): ProfilePatch | null {
  const patch: ProfilePatch = { updatedAt: now };
  let changed = false;
  for (const field of ['name', 'email', 'phone', ...ADDRESS_FIELDS] as const) {
    const value = input[field];
    if (value === undefined || value === current[field]) continue;
    (patch as Record<string, unknown>)[field] = value;
    changed = true;
  }
  const emailSent = input.email !== undefined;
  if (emailSent && (patch.email !== undefined || source === 'seller') && current.emailSource !== source) {
    patch.emailSource = source;
    changed = true;
  }
  if (patch.email !== undefined && current.overrideSetBy === 'customer') {
    patch.billingEmailOverride = null;
    patch.overrideSetBy = null;
  }
  return changed ? patch : null;
}

export interface CreateCustomerResult {
  customer: CustomerView;
  /** False when the request updated the profile this seller already had. */
  created: boolean;
}

/** The profile fields a registration sets: the address fields the request left out keep their values. */
function registeredFields(input: CreateCustomerInput): RegisteredFields {
  const fields: RegisteredFields = {
    name: input.name,
    email: input.email,
    phone: input.phone,
    emailSource: 'seller',
  };
  for (const field of ADDRESS_FIELDS) if (input[field] !== undefined) fields[field] = input[field];
  return fields;
}

/** A registration of a profile the tenant already has: answers it, updated with what differs. */
async function refreshed(
  deps: CustomerDeps,
  existing: CustomerProfile,
  input: CreateCustomerInput,
  now: string,
): Promise<CreateCustomerResult> {
  const patch = diff(existing, input, now);
  if (!patch) return { customer: toCustomerView(existing), created: false };
  const updated = await deps.customers.updateProfile(existing, patch);
  return { customer: toCustomerView(updated), created: false };
}

/**
 * Spec: one global customer per document; a seller registering a known document gets its own
 * profile of it, and re-registering updates that profile (Stripe-like upsert, never a duplicate).
 * Optional address fields a re-registration leaves out keep their stored values.
 *
 * Round trips (issue 17): one read (the global and the seller's link to it), then one write: the
 * new global with its profile, the seller's new profile, or the re-registration's update (which
 * writes only when something differs). A re-registration that changes the e-mail reads the stored
 * profile from its failed condition and moves the e-mail pointer in a second write.
 */
export async function createCustomer(
  deps: CustomerDeps,
  tenant: Tenant,
  registration: RegisterCustomerInput,
): Promise<CreateCustomerResult> {
  const { testClockId, ...input } = registration;
  await checkCustomerClock(deps, tenant, testClockId);
  const onClock = (profile: CustomerProfile): CustomerProfile =>
    testClockId ? { ...profile, testClockId } : profile;
  return retrying(deps, async () => {
    const now = deps.clock.now().toISOString();
    const registration = await deps.customers.findRegistration(tenant, input.document);
    let global = registration.global;
    if (!global) {
      const fresh = freshGlobal(await deps.customers.nextId(), deps.ids.uuid(), tenant, input, now);
      const profile = onClock(newProfile(tenant, fresh, input, now, 'seller'));
      try {
        await deps.customers.createGlobal(fresh, profile);
        return { customer: toCustomerView(profile), created: true };
      } catch (error) {
        // Another request registered the document first: this one reuses that global customer.
        if (!isConflict(error, 'already_exists')) throw error;
      }
      global = await deps.customers.findGlobal(tenant.environment, input.document);
      if (!global) throw new CustomerContentionError();
    } else if (registration.linked) {
      try {
        const { uuid } = profileRefOf(global, tenant.sellerId);
        const updated = await deps.customers.reRegister(tenant, uuid, registeredFields(input), now);
        return { customer: toCustomerView(updated), created: false };
      } catch (error) {
        // Nothing differs, or the e-mail changes: the stored profile came back with the failure.
        if (!isConflict<CustomerProfile>(error, 'changed') || !error.current) throw error;
        return refreshed(deps, error.current, input, now);
      }
    }
    const profile = onClock(newProfile(tenant, global, input, now, 'seller'));
    try {
      await deps.customers.addProfile(profile);
      return { customer: toCustomerView(profile), created: true };
    } catch (error) {
      // The tenant already has this customer: registering it again answers (and refreshes) it.
      if (!isConflict<CustomerProfile>(error, 'already_exists') || !error.current) throw error;
      return refreshed(deps, error.current, input, now);
    }
  });
}

export async function getProfile(deps: Pick<CustomerDeps, 'customers'>, tenant: Tenant, uuid: string) {
  const profile = await deps.customers.findProfile(tenant, uuid);
  if (!profile) throw new NotFoundError(NOT_FOUND);
  return profile;
}

/** GET /api/v1/customers/{uuid}: this seller's view; another seller's customer answers as a missing one. */
export async function getCustomer(deps: Pick<CustomerDeps, 'customers'>, tenant: Tenant, uuid: string) {
  return toCustomerView(await getProfile(deps, tenant, uuid));
}

export const DOCUMENT_TAKEN = 'This seller already has a customer with this document';

/**
 * A seller changes only its own view (spec: every field optional, "same formats as create").
 * A new `document` fixes a mistyped one: the profile moves to the global customer of that document
 * (created when the document is new), keeping its id, uuid and history; 409 when the seller already
 * has a customer with it. `personType` follows the document (400 when it does not match).
 * `source`: who sends the change, the seller (its API) or the customer (the portal's customer-info).
 */
export async function updateCustomer(
  deps: CustomerDeps,
  tenant: Tenant,
  uuid: string,
  input: UpdateCustomerInput,
  source: EmailSource = 'seller',
): Promise<CustomerView> {
  return updateProfile(deps, await getProfile(deps, tenant, uuid), input, source);
}

/**
 * updateCustomer on a profile the caller has read. After a lost race the profile is read again
 * and the change tried on what is stored now.
 */
export function updateProfile(
  deps: CustomerDeps,
  profile: CustomerProfile,
  input: UpdateCustomerInput,
  source: EmailSource = 'seller',
): Promise<CustomerView> {
  let read: CustomerProfile | null = profile;
  return retrying(deps, async () => {
    const current = read ?? (await getProfile(deps, profile.tenant, profile.uuid));
    read = null;
    const document = input.document ?? current.document;
    const personType = input.personType ?? personTypeOf(document);
    if (personType !== personTypeOf(document))
      throw new ValidationError([
        personType === 'fisica'
          ? 'personType fisica requires a CPF (11 digits)'
          : 'personType juridica requires a CNPJ (14 characters)',
      ]);
    const now = deps.clock.now().toISOString();
    if (document !== current.document)
      return toCustomerView(await relink(deps, current, { document, personType }, input, now));
    const patch = diff(current, input, now, source);
    if (!patch) return toCustomerView(current);
    return toCustomerView(await deps.customers.updateProfile(current, patch));
  });
}

/**
 * The profile moves to another document's global customer in one write (docs/decisions.md,
 * "Customers"): its other changes go with it.
 */
async function relink(
  deps: CustomerDeps,
  current: CustomerProfile,
  to: { document: string; personType: PersonType },
  input: UpdateCustomerInput,
  now: string,
): Promise<CustomerProfile> {
  const tenant = current.tenant;
  const registration = await deps.customers.findRegistration(tenant, to.document);
  if (registration.linked) throw new ConflictError(DOCUMENT_TAKEN, 'customer_exists');
  const fields: CustomerProfile = { ...current, ...diff(current, input, now), ...to, updatedAt: now };
  const target =
    registration.global ??
    freshGlobal(await deps.customers.nextId(), deps.ids.uuid(), tenant, { ...fields, ...to }, now);
  const spare = { id: await deps.customers.nextId(), uuid: deps.ids.uuid() };
  return deps.customers.relinkProfile({
    current,
    next: { ...fields, globalEmail: target.email },
    target,
    createTarget: registration.global === null,
    spare,
  });
}

/** The override is stored as given and does not follow later e-mail changes (spec). */
export async function setBillingEmailOverride(
  deps: Pick<CustomerDeps, 'customers' | 'clock'>,
  tenant: Tenant,
  uuid: string,
  email: string | null,
): Promise<CustomerView> {
  const updated = await deps.customers.setBillingEmailOverride(
    tenant,
    uuid,
    email,
    'seller',
    deps.clock.now().toISOString(),
  );
  if (!updated) throw new NotFoundError(NOT_FOUND);
  return toCustomerView(updated);
}
