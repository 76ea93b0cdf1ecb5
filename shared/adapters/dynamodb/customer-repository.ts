import type { BuyerRecords } from '#shared/domain/customers/buyer';
import {
  BuyerChangedError,
  type BuyerWrite,
  CustomerChangedError,
  CustomerContentionError,
  type CustomerProfile,
  type GlobalCustomer,
  type ProfilePatch,
  type ProfileRelink,
  type RegisteredFields,
  searchableName,
} from '#shared/domain/customers/customer';
import type { CustomerRepository } from '#shared/domain/ports';
import type { Environment, Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';
import { overdueCountWrites } from './customer-overdue';
import { createCustomerQueries, toProfile } from './customer-queries';
import { customerProfileEntity, nameOrder } from './entities/customer';
import {
  customerEmailEntity,
  customerGlobalEmailEntity,
  customerGlobalEntity,
  customerIdEntity,
  customerSellerEntity,
  type LinkedProfile,
  profileRefAttribute,
  SELLER_IDS,
} from './entities/customer-links';

const toGlobal = customerGlobalEntity.fromItem;

import { keys } from './keys';
import {
  ConditionFailedError,
  contended,
  type Item,
  orConflict,
  patchExpression,
  type Table,
  type TransactItem,
  type WritePart,
} from './table';

const { byCreation, byName } = customerProfileEntity.patterns;
const profileItem = customerProfileEntity.toItem;

const emailPointer = (p: Pick<CustomerProfile, 'tenant' | 'email' | 'uuid'>): TransactItem => ({
  Put: { Item: customerEmailEntity.toItem(p) },
});

const directoryPointer = (environment: Environment, email: string, document: string): TransactItem => ({
  Put: { Item: customerGlobalEmailEntity.toItem({ environment, email, document }) },
});

const sellerLink = (p: LinkedProfile): TransactItem => ({ Put: { Item: customerSellerEntity.toItem(p) } });

/** Put without condition: the profile's own condition guards the pair. */
const idPointer = (p: CustomerProfile): TransactItem => ({ Put: { Item: customerIdEntity.toItem(p) } });

/** The profile an id pointer (`CUSTOMERID#…`) carries, as it was when the pointer was last written. */
export function profileOfIdPointer(item: Item): CustomerProfile {
  return customerIdEntity.fromItem(item).profile;
}

/**
 * confirmUnchanged's entries: a check that the stored profile is still `profile` (its `updatedAt`;
 * overdue counts do not move it), returning the stored one on failure, and the id pointer's copy
 * refreshed with it, so the next read of the copy is current. The check is entry 0.
 */
function profileAsOfWrites(profile: CustomerProfile): TransactItem[] {
  return [
    {
      ConditionCheck: {
        Key: keys.customerProfile(profile.tenant, profile.uuid),
        ConditionExpression: 'attribute_exists(pk) AND updatedAt = :seenUpdatedAt',
        ExpressionAttributeValues: { ':seenUpdatedAt': profile.updatedAt },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    } as TransactItem,
    idPointer(profile),
  ];
}

/** profileAsOfWrites' check failed: the profile changed since the copy (`current`, when it is still there). */
function profileChanged(error: ConditionFailedError): Error {
  const stored = error.itemAt(0);
  if (!stored) return new CustomerContentionError({ cause: error });
  return new CustomerChangedError(toProfile(stored), { cause: error });
}

/** The count sits at the head of the newest-first listing partition (byCreation), read with the first page. */
const countOne = (tenant: Tenant): TransactItem => ({
  Update: {
    Key: keys.customerCount(tenant),
    UpdateExpression: 'SET entity = :entity, #ver = :one, #gpk = :gpk, #gsk = :gsk ADD #v :one',
    ExpressionAttributeNames: {
      '#v': 'value',
      '#ver': 'version',
      '#gpk': byCreation.partitionKey,
      '#gsk': byCreation.sortKey,
    },
    ExpressionAttributeValues: {
      ':one': 1,
      ':entity': 'customer-count',
      ':gpk': keys.customersByCreation(tenant),
      ':gsk': keys.counterSortKey,
    },
  },
});

/** A new global customer with the tenant's profile (entry 0: the global, ALL_OLD on failure). */
function newGlobalWrites(global: GlobalCustomer, profile: CustomerProfile): TransactItem[] {
  const { environment } = global;
  return [
    {
      Put: {
        Item: customerGlobalEntity.toItem({ global, sellerId: profile.tenant.sellerId }),
        ConditionExpression: 'attribute_not_exists(pk)',
        // A sale that assumed a new document learns the registered one from its failure.
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    } as TransactItem,
    { Put: { Item: profileItem(profile), ConditionExpression: 'attribute_not_exists(pk)' } },
    emailPointer(profile),
    countOne(profile.tenant),
    idPointer(profile),
    sellerLink(profile),
    directoryPointer(environment, profile.email, global.document),
  ];
}

/**
 * The tenant joins the global's seller list (a global is never deleted; the condition keeps it so).
 * A tenant already listed has a profile of it (one moved here from another document, keyed by its
 * own id): the write fails with the global (ALL_OLD), which names that profile.
 */
const joinSellerIds = (profile: CustomerProfile): TransactItem =>
  ({
    Update: {
      Key: keys.customerGlobal(profile.tenant.environment, profile.document),
      UpdateExpression: 'ADD #sellers :seller',
      ConditionExpression: 'attribute_exists(pk) AND NOT contains(#sellers, :sellerId)',
      ExpressionAttributeNames: { '#sellers': SELLER_IDS },
      ExpressionAttributeValues: {
        ':seller': new Set([profile.tenant.sellerId]),
        ':sellerId': profile.tenant.sellerId,
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  }) as TransactItem;

/** The sellers with a profile of a global item (every global lists them). */
// DynamoDB stores no empty set: a global whose last seller moved away (a corrected document) has none.
const sellersOf = (item: Item): Set<number> => (item[SELLER_IDS] as Set<number> | undefined) ?? new Set();

/** The tenant's new profile of a known global (entry 0: the profile, ALL_OLD on failure). */
function newProfileWrites(profile: CustomerProfile): TransactItem[] {
  return [
    {
      Put: {
        Item: profileItem(profile),
        ConditionExpression: 'attribute_not_exists(pk)',
        // The existing profile comes back with the failure: a re-registration needs no extra read.
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    } as TransactItem,
    emailPointer(profile),
    countOne(profile.tenant),
    idPointer(profile),
    sellerLink(profile),
    joinSellerIds(profile),
    directoryPointer(profile.tenant.environment, profile.email, profile.document),
  ];
}

/** The SET of a patch, with the name's search attributes when the name changes. */
function patchFields(current: CustomerProfile, patch: ProfilePatch): Item {
  const fields: Item = { ...patch };
  if (patch.name !== undefined) {
    fields.nameSearch = searchableName(patch.name);
    fields[byName.sortKey] = nameOrder(fields.nameSearch as string, current.uuid);
  }
  return fields;
}

/**
 * A re-registration's UpdateItem: the fields, written only when the stored e-mail is the one sent
 * (its pointer stays right) and some field differs (an identical registration changes nothing, not
 * even `updatedAt`). A failed condition returns the stored profile (ALL_OLD).
 */
function reRegisterUpdate(tenant: Tenant, uuid: string, fields: RegisteredFields, at: string) {
  const nameSearch = searchableName(fields.name);
  const set = patchExpression({
    ...fields,
    nameSearch,
    [byName.sortKey]: nameOrder(nameSearch, uuid),
    updatedAt: at,
  });
  // patchExpression names field f `#f_<f>` and its value `:f_<f>`.
  const differs = Object.entries(fields)
    .filter(([field, value]) => field !== 'email' && value !== undefined)
    .map(([field, value]) =>
      value === null
        ? `attribute_exists(#f_${field})`
        : `(attribute_not_exists(#f_${field}) OR #f_${field} <> :f_${field})`,
    );
  return {
    Key: keys.customerProfile(tenant, uuid),
    UpdateExpression: set.expression,
    ConditionExpression: `attribute_exists(pk) AND #f_email = :f_email AND (${differs.join(' OR ')})`,
    ExpressionAttributeNames: set.names,
    ExpressionAttributeValues: set.values,
    ReturnValues: 'ALL_NEW' as const,
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
}

/** The profile fields a relink changes (patchFields' form: a null clears one). */
function relinkedFields(current: CustomerProfile, next: CustomerProfile): ProfilePatch & Item {
  const changed: Item = {};
  for (const [field, value] of Object.entries(next)) {
    if (field === 'tenant' || field === 'overdueCount') continue;
    if (value !== current[field as keyof CustomerProfile]) changed[field] = value;
  }
  return changed as ProfilePatch & Item;
}

/**
 * A profile's move to another document, in one TransactWriteItems (entry 3, the seller's new link,
 * is the one whose failure means the tenant already has that document): the profile on the state
 * read (`updatedAt`, document), its id pointer's copy, the links, both globals' seller lists and
 * identities, the directory entry of the new document and, when the e-mail changes, its pointers.
 */
function relinkWrites({ current, next, target, createTarget, spare }: ProfileRelink): TransactItem[] {
  const { tenant } = current;
  const sellerId = tenant.sellerId;
  const set = patchExpression(patchFields(current, relinkedFields(current, next)));
  const ref = { id: next.id, uuid: next.uuid };
  const sellers = { '#sellers': SELLER_IDS, '#ref': profileRefAttribute(sellerId) };
  const emailMoves = current.email.toLowerCase() !== next.email.toLowerCase();
  return [
    {
      Update: {
        Key: keys.customerProfile(tenant, current.uuid),
        UpdateExpression: set.expression,
        ConditionExpression: 'attribute_exists(pk) AND #seenAt = :seenAt AND #seenDoc = :seenDoc',
        ExpressionAttributeNames: { ...set.names, '#seenAt': 'updatedAt', '#seenDoc': 'document' },
        ExpressionAttributeValues: {
          ...set.values,
          ':seenAt': current.updatedAt,
          ':seenDoc': current.document,
        },
      },
    },
    idPointer(next),
    { Delete: { Key: keys.customerSeller(tenant.environment, current.document, sellerId) } },
    { Put: { Item: customerSellerEntity.toItem(next), ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Update: {
        Key: keys.customerGlobal(tenant.environment, current.document),
        UpdateExpression: 'DELETE #sellers :seller SET #ref = :spare',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: sellers,
        ExpressionAttributeValues: { ':seller': new Set([sellerId]), ':spare': spare },
      },
    },
    createTarget
      ? {
          Put: {
            Item: customerGlobalEntity.toItem({ global: target, sellerId, ref }),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        }
      : {
          Update: {
            Key: keys.customerGlobal(tenant.environment, target.document),
            UpdateExpression: 'ADD #sellers :seller SET #ref = :ref',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: sellers,
            ExpressionAttributeValues: { ':seller': new Set([sellerId]), ':ref': ref },
          },
        },
    directoryPointer(tenant.environment, next.email, next.document),
    ...(emailMoves
      ? [{ Delete: { Key: keys.customerEmail(tenant, current.email, current.uuid) } }, emailPointer(next)]
      : []),
  ];
}

/**
 * A sale's buyer write as one part of the sale's unit of work: its entries, and its failed
 * assumption as BuyerChangedError (nothing was written). An `existing` customer writes nothing
 * (profiles are never deleted, and a sale changes none); its part still says that the sale's write
 * losing to another transaction is the customer's contention (the sale writes again).
 */
function buyerPart(write: BuyerWrite): WritePart {
  const contention = (cause: unknown) => new CustomerContentionError({ cause });
  switch (write.kind) {
    case 'newGlobal':
      return {
        items: newGlobalWrites(write.global, write.profile),
        contended: contention,
        toError: (failure) =>
          failure.itemAt(0) ? new BuyerChangedError({ cause: failure }) : contention(failure),
      };
    case 'newProfile':
      return {
        items: newProfileWrites(write.profile),
        contended: contention,
        // The profile's own key was taken (entry 0), or the global already lists the tenant.
        toError: (failure) =>
          failure.failedIndexes.some((i) => failure.itemAt(i))
            ? new BuyerChangedError({ cause: failure })
            : contention(failure),
      };
    case 'existing':
      return { items: [], contended: contention, toError: contention };
  }
}

async function transact(table: Table, items: TransactItem[]): Promise<void> {
  try {
    await table.transact(items);
  } catch (error) {
    if (contended(error)) throw new CustomerContentionError({ cause: error });
    throw error;
  }
}

export function createCustomerRepository(table: Table): CustomerRepository {
  const { getProfileItem, list } = createCustomerQueries(table);

  return {
    list,

    // Blocks of 100 per container, the next claimed in the background at half (issue 17): ids come from memory.
    nextId: () => table.nextId('customer', { block: 100 }),

    addBuyer: (write) => table.write(buyerPart(write)),

    async findBuyer(document) {
      const records: BuyerRecords = {};
      const globalKeys = (['test', 'live'] as Environment[]).map((env) => keys.customerGlobal(env, document));
      for (const item of await table.batchGet<Item>(globalKeys, { consistent: true })) {
        const global = toGlobal(item);
        records[global.environment] = { global, sellerIds: [...sellersOf(item)] };
      }
      return records;
    },

    async findGlobal(environment, document) {
      const item = await table.get<Item>(keys.customerGlobal(environment, document), { consistent: true });
      return item ? toGlobal(item) : null;
    },

    async findRegistration(tenant, document) {
      const globalKey = keys.customerGlobal(tenant.environment, document);
      const linkKey = keys.customerSeller(tenant.environment, document, tenant.sellerId);
      const items = await table.batchGet<Item>([globalKey, linkKey], { consistent: true });
      const global = items.find((i) => i.sk === globalKey.sk);
      return { global: global ? toGlobal(global) : null, linked: items.some((i) => i.sk === linkKey.sk) };
    },

    async findProfile(tenant, uuid) {
      const item = await getProfileItem(tenant, uuid);
      return item ? toProfile(item) : null;
    },

    async findRefById(tenant, id) {
      const pointer = await table.get<Item>(keys.customerById(tenant, id), { consistent: true });
      return pointer ? { id, uuid: customerIdEntity.fromItem(pointer).uuid } : null;
    },

    async confirmUnchanged(profile) {
      await table.write({ items: profileAsOfWrites(profile), toError: (failure) => profileChanged(failure) });
    },

    async findProfileById(tenant, id) {
      const pointer = await table.get<Item>(keys.customerById(tenant, id), { consistent: true });
      if (!pointer) return null;
      const item = await getProfileItem(tenant, customerIdEntity.fromItem(pointer).uuid);
      return item ? toProfile(item) : null;
    },

    async createGlobal(global, profile) {
      await orConflict(transact(table, newGlobalWrites(global, profile)), (failure) =>
        failure.failedIndexes.includes(0)
          ? new ConflictError('A customer with this document already exists', 'customer_exists', {
              reason: 'already_exists',
              cause: failure,
            })
          : new CustomerContentionError({ cause: failure }),
      );
    },

    async addProfile(profile) {
      try {
        await transact(table, newProfileWrites(profile));
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        const existing = error.itemAt(0) ?? (await getProfileItem(profile.tenant, profile.uuid));
        if (!existing) throw new CustomerContentionError({ cause: error });
        throw new ConflictError('The seller already has this customer', 'customer_exists', {
          reason: 'already_exists',
          current: toProfile(existing),
          cause: error,
        });
      }
    },

    async updateProfile(current, patch) {
      const next: CustomerProfile = { ...current, ...patch };
      const set = patchExpression(patchFields(current, patch));
      const names: Record<string, string> = { ...set.names, '#email': 'email' };
      const values: Item = { ...set.values, ':prevEmail': current.email };
      const update = {
        Key: keys.customerProfile(current.tenant, current.uuid),
        UpdateExpression: set.expression,
        // The e-mail pointers below are derived from the e-mail read: it must still be the stored one.
        ConditionExpression: 'attribute_exists(pk) AND #email = :prevEmail',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      };
      try {
        if (current.email.toLowerCase() === next.email.toLowerCase()) {
          return toProfile((await table.update<Item>({ ...update, ReturnValues: 'ALL_NEW' })) as Item);
        }
        // The answer is built from `current`, so nothing else of the profile may have changed either.
        const unchanged = {
          ...update,
          ConditionExpression: `${update.ConditionExpression} AND updatedAt = :prevUpdatedAt`,
          ExpressionAttributeValues: { ...values, ':prevUpdatedAt': current.updatedAt },
        };
        await transact(table, [
          { Update: unchanged },
          { Delete: { Key: keys.customerEmail(current.tenant, current.email, current.uuid) } },
          emailPointer(next),
          directoryPointer(next.tenant.environment, next.email, next.document),
        ]);
        return next;
      } catch (error) {
        // The profile changed (or went away) since `current` was read: the use case reads again.
        if (error instanceof ConditionFailedError || contended(error))
          throw new CustomerContentionError({ cause: error });
        throw error;
      }
    },

    async relinkProfile(change) {
      try {
        await table.transact(relinkWrites(change));
        return change.next;
      } catch (error) {
        if (error instanceof ConditionFailedError && error.failedIndexes.includes(3))
          throw new ConflictError(
            'This seller already has a customer with this document',
            'customer_exists',
            {
              reason: 'already_exists',
              cause: error,
            },
          );
        // The profile or a global changed since read (or another write held them): read again.
        if (error instanceof ConditionFailedError || contended(error))
          throw new CustomerContentionError({ cause: error });
        throw error;
      }
    },

    async reRegister(tenant, uuid, fields, at) {
      try {
        return toProfile((await table.update<Item>(reRegisterUpdate(tenant, uuid, fields, at))) as Item);
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        const stored = error.itemAt(0);
        if (!stored) throw new CustomerContentionError({ cause: error });
        throw new ConflictError('The customer is already registered as stored', 'customer_changed', {
          reason: 'changed',
          current: toProfile(stored),
          cause: error,
        });
      }
    },

    async setBillingEmailOverride(tenant, uuid, email, setBy, at) {
      try {
        const item = await table.update<Item>({
          Key: keys.customerProfile(tenant, uuid),
          UpdateExpression:
            email === null
              ? 'SET updatedAt = :at REMOVE billingEmailOverride, overrideSetBy'
              : 'SET updatedAt = :at, billingEmailOverride = :email, overrideSetBy = :by',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: {
            ':at': at,
            ...(email === null ? {} : { ':email': email, ':by': setBy }),
          },
          ReturnValues: 'ALL_NEW',
        });
        return item ? toProfile(item) : null;
      } catch (error) {
        if (error instanceof ConditionFailedError) return null;
        throw error;
      }
    },

    async adjustOverdue(tenant, uuid, delta) {
      for (let attempt = 0; attempt < 5; attempt++) {
        const item = await getProfileItem(tenant, uuid);
        if (!item) return null;
        // Compare-and-set on the count read, so the marker flips exactly on 0→1 and 1→0.
        const { writes, after } = overdueCountWrites(tenant, uuid, item, delta);
        if (writes.length === 0) return after;
        try {
          await transact(table, writes);
          return after;
        } catch (error) {
          if (!(error instanceof ConditionFailedError || error instanceof CustomerContentionError))
            throw error;
        }
      }
      throw new CustomerContentionError();
    },
  };
}
