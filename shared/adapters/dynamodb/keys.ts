/**
 * Every key of the single table is built here and nowhere else. Keys are prefixed by entity;
 * tenant data lives under SELLER#<id>#<environment> so a test-mode item can never be read
 * with a live tenant's keys. docs/data-model.md lists each access pattern against these.
 */
import type { Environment, Tenant } from '#shared/domain/tenant';

export type { Environment };

export interface Key {
  pk: string;
  sk: string;
}

const pad = (n: number, width = 12) => String(n).padStart(width, '0');

export const keys = {
  healthProbe: (): Key => ({ pk: 'SYSTEM', sk: 'HEALTH' }),
  heartbeat: (): Key => ({ pk: 'SYSTEM', sk: 'HEARTBEAT' }),
  counter: (name: string): Key => ({ pk: 'COUNTER', sk: name }),
  seller: (sellerId: number): Key => ({ pk: `SELLER#${sellerId}`, sk: 'PROFILE' }),
  apiKey: (hash: string): Key => ({ pk: `APIKEY#${hash}`, sk: 'APIKEY' }),
  apiKeysOfSeller: (sellerId: number) => `SELLER#${sellerId}#APIKEYS`,
  apiKeyPointer: (sellerId: number, id: string): Key => ({ pk: `SELLER#${sellerId}`, sk: `APIKEY#${id}` }),
  apiKeyName: (sellerId: number, env: Environment, name: string): Key => ({
    pk: `SELLER#${sellerId}#${env}`,
    sk: `APIKEYNAME#${name.toLowerCase()}`,
  }),
  rate: (principal: string): Key => ({ pk: `RATE#${principal}`, sk: 'RATE' }),
  idempotency: (scope: string, key: string): Key => ({ pk: `IDEMP#${scope}#${key}`, sk: 'IDEMP' }),
  tenantPartition: (sellerId: number, env: Environment) => `SELLER#${sellerId}#${env}`,
  tenant: (t: Tenant) => `SELLER#${t.sellerId}#${t.environment}`,
  webhookEndpoint: (t: Tenant, id: string): Key => ({
    pk: `SELLER#${t.sellerId}#${t.environment}`,
    sk: `WEBHOOK#${id}`,
  }),
  webhookEndpointPrefix: 'WEBHOOK#',
  webhookDelivery: (t: Tenant, id: string): Key => ({
    pk: `SELLER#${t.sellerId}#${t.environment}`,
    sk: `WHDELIVERY#${id}`,
  }),
  deliveriesOfEndpoint: (endpointId: string) => `WHENDPOINT#${endpointId}`,
  outboxEvent: (eventId: string): Key => ({ pk: `EVENT#${eventId}`, sk: 'EVENT' }),
  product: (t: Tenant, id: number): Key => ({
    pk: `SELLER#${t.sellerId}#${t.environment}`,
    sk: `PRODUCT#${pad(id)}`,
  }),
  productPrefix: 'PRODUCT#',
  productByUuid: (uuid: string) => `PRODUCTUUID#${uuid}`,
  productsByState: (t: Tenant, state: 'active' | 'archived') =>
    `SELLER#${t.sellerId}#${t.environment}#PRODUCTS#${state}`,
  /** Sorts after every product id in both the table and gsi2, so a newest-first page reads it first. */
  productCounter: (t: Tenant, state: 'active' | 'archived'): Key => ({
    pk: `SELLER#${t.sellerId}#${t.environment}`,
    sk: `PRODUCT#~COUNT#${state}`,
  }),
  counterSortKey: '~COUNT',
  transaction: (t: Tenant, id: number): Key => ({
    pk: `SELLER#${t.sellerId}#${t.environment}`,
    sk: `TXN#${pad(id)}`,
  }),
  transactionPrefix: 'TXN#',
  transactionByUuid: (uuid: string) => `TXNUUID#${uuid}`,
  transactionsByStatus: (t: Tenant, status: string) =>
    `SELLER#${t.sellerId}#${t.environment}#TXNSTATUS#${status}`,
  transactionByGatewayId: (gatewayPayId: number) => `GATEWAYPAY#${gatewayPayId}`,
  transactionsOfProduct: (t: Tenant, productId: number) =>
    `SELLER#${t.sellerId}#${t.environment}#TXNPRODUCT#${productId}`,
  transactionsOfCustomer: (t: Tenant, customerId: number) =>
    `SELLER#${t.sellerId}#${t.environment}#TXNCUSTOMER#${customerId}`,
  /** The seller-wide counter sorts after every transaction of the partition (see counterSortKey). */
  transactionCounter: (t: Tenant, scope: string): Key => ({
    pk: `SELLER#${t.sellerId}#${t.environment}`,
    sk: scope === 'ALL' ? 'TXN#~COUNT' : `COUNT#TXN#${scope}`,
  }),
  /** Hour buckets of pending pix expiries, swept by the heartbeat in case a schedule never fired. */
  pixExpiryBucket: (instant: string) => `DUE#PIX#${instant.slice(0, 13)}`,
  pixExpiry: (expiresAt: string, t: Tenant, id: number): Key => ({
    pk: `DUE#PIX#${expiresAt.slice(0, 13)}`,
    sk: `${expiresAt}#${t.sellerId}#${t.environment}#${id}`,
  }),
  notification: (provider: string, id: string): Key => ({ pk: `NOTIF#${provider}#${id}`, sk: 'NOTIF' }),
  sandboxCharge: (gatewayPayId: number): Key => ({ pk: `SANDBOX#${gatewayPayId}`, sk: 'CHARGE' }),
  portalConfig: (t: Tenant, productId?: number): Key => ({
    pk: `SELLER#${t.sellerId}#${t.environment}`,
    sk: productId === undefined ? 'PORTALCFG#SELLER' : `PORTALCFG#PRODUCT#${pad(productId)}`,
  }),
  // Customers: the global customer is keyed by environment + document, so de-duplication is a
  // condition on one key; each seller's profile and its search items live in the tenant partition.
  customerGlobal: (env: Environment, document: string): Key => ({
    pk: `CUSTOMER#${env}#${document}`,
    sk: 'GLOBAL',
  }),
  customerProfile: (t: Tenant, uuid: string): Key => ({
    pk: `SELLER#${t.sellerId}#${t.environment}`,
    sk: `CUSTOMER#${uuid}`,
  }),
  customersByCreation: (t: Tenant) => `SELLER#${t.sellerId}#${t.environment}#CUSTOMERS`,
  customersByName: (t: Tenant) => `SELLER#${t.sellerId}#${t.environment}#CUSTNAME`,
  customerEmailPrefix: (email: string) => `CUSTEMAIL#${email.toLowerCase()}#`,
  customerEmail: (t: Tenant, email: string, uuid: string): Key => ({
    pk: `SELLER#${t.sellerId}#${t.environment}`,
    sk: `CUSTEMAIL#${email.toLowerCase()}#${uuid}`,
  }),
  customerCount: (t: Tenant): Key => ({ pk: `SELLER#${t.sellerId}#${t.environment}`, sk: 'CUSTOMERCOUNT' }),
  customersOverdue: (t: Tenant) => `SELLER#${t.sellerId}#${t.environment}#OVERDUE`,
  customerOverdue: (t: Tenant, uuid: string): Key => ({
    pk: `SELLER#${t.sellerId}#${t.environment}#OVERDUE`,
    sk: uuid,
  }),
  /** Sortable form of a numeric id inside a sort key. */
  numeric: pad,
};
