/**
 * Every key and index of the single table is named here and nowhere else; the table definition
 * (CDK and DynamoDB Local) takes its attribute and index names from this module, and each entity's
 * definition (entities/) builds its items and access patterns from these keys. Keys are
 * prefixed by entity; tenant data lives under SELLER#<id>#<environment> (built by `tenant` only),
 * so a test-mode item can never be read with a live tenant's keys. docs/data-model.md lists each
 * access pattern against these.
 */
import type { Environment, Tenant } from '#shared/domain/tenant';

export type { Environment };

export interface Key {
  pk: string;
  sk: string;
}

/** The table's own key attributes and its TTL attribute. */
export const ATTRIBUTES = { partitionKey: 'pk', sortKey: 'sk', ttl: 'ttl' } as const;

/**
 * The global secondary indexes, with generic names: each entity names its own access patterns on
 * them (shared/adapters/dynamodb/entities/), so one physical index is reached under its entities'
 * pattern names and never under a second semantic name of its own. docs/data-model.md lists which
 * patterns each index serves.
 */
export const INDEXES = {
  gsi1: { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  gsi2: { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  gsi3: { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  gsi4: { name: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk' },
  gsi5: { name: 'gsi5', partitionKey: 'gsi5pk', sortKey: 'gsi5sk' },
  gsi6: { name: 'gsi6', partitionKey: 'gsi6pk', sortKey: 'gsi6sk' },
} as const;

export type PhysicalIndex = keyof typeof INDEXES;
export type IndexDefinition = (typeof INDEXES)[PhysicalIndex];

const pad = (n: number, width = 12) => String(n).padStart(width, '0');

/** A seller's own partition (profile, API key pointers). */
const seller = (sellerId: number) => `SELLER#${sellerId}`;
/** The partition of one seller's data in one environment: every tenant key starts here. */
const tenant = (t: Tenant) => `${seller(t.sellerId)}#${t.environment}`;
const inTenant = (t: Tenant, sk: string): Key => ({ pk: tenant(t), sk });

export const keys = {
  healthProbe: (): Key => ({ pk: 'SYSTEM', sk: 'HEALTH' }),
  heartbeat: (): Key => ({ pk: 'SYSTEM', sk: 'HEARTBEAT' }),
  counter: (name: string): Key => ({ pk: 'COUNTER', sk: name }),
  /** The partition of every id counter: any item a seller ever created allocated its id here. */
  counterPartition: 'COUNTER',
  /** The table's stored-shape format: the id of the last migration its data was brought to. */
  migrationFormat: (): Key => ({ pk: 'MIGRATION', sk: 'FORMAT' }),
  /** One migration's run: its lease, its resumable cursors, done or not. */
  migration: (id: number): Key => ({ pk: 'MIGRATION', sk: `MIGRATION#${pad(id, 4)}` }),
  seller: (sellerId: number): Key => ({ pk: seller(sellerId), sk: 'PROFILE' }),
  /** A seller's dashboard login record (signed up alone, second factor), beside its profile. */
  sellerLogin: (sellerId: number): Key => ({ pk: seller(sellerId), sk: 'LOGIN' }),
  /** A dashboard user's membership of a seller they were invited to (their role there). */
  teamMember: (sellerId: number, userId: string): Key => ({
    pk: seller(sellerId),
    sk: `TEAM#MEMBER#${userId}`,
  }),
  /** A pending invitation of one e-mail address to a seller's team (one per address: a new one replaces it). */
  teamInvitation: (sellerId: number, email: string): Key => ({
    pk: seller(sellerId),
    sk: `TEAM#INVITE#${email}`,
  }),
  /** A seller's members and pending invitations: one prefix query of its partition. */
  teamPrefix: 'TEAM#',
  /** An invitation's token (its SHA-256) → the seller and address it invites: one GetItem at acceptance. */
  teamInvitationToken: (tokenHash: string): Key => ({ pk: `INVITE#${tokenHash}`, sk: 'INVITE' }),
  /** The sellers a dashboard user is a member of (team-member.byUser). */
  sellersOfUser: (userId: string) => `USER#${userId}#SELLERS`,
  /** The local runtime's stand-in for the user pool: one login per (lower-cased) e-mail address. */
  localLogin: (email: string): Key => ({ pk: `LOCALLOGIN#${email}`, sk: 'LOGIN' }),
  /** A local refresh token or TOTP sign-in challenge, by the SHA-256 of its value. */
  localSession: (tokenHash: string): Key => ({ pk: `LOCALSESSION#${tokenHash}`, sk: 'SESSION' }),
  /** A tenant's events, newest first (outbox-event.byTenant), and those of one event type (byType). */
  eventsOfTenant: (t: Tenant) => `${tenant(t)}#EVENTS`,
  eventsOfType: (t: Tenant, type: string) => `${tenant(t)}#EVENTTYPE#${type}`,
  /**
   * A tenant's API request log (request-log), in a partition of its own so that a busy seller's
   * requests never share the tenant partition's throughput; newest first by the sort key.
   */
  requestLogsOfTenant: (t: Tenant) => `${tenant(t)}#REQUESTS`,
  requestLog: (t: Tenant, at: string, requestId: string): Key => ({
    pk: `${tenant(t)}#REQUESTS`,
    sk: `${at}#${requestId}`,
  }),
  /** The deliveries of one event (webhook-delivery.byEvent), one per endpoint it was sent to. */
  deliveriesOfEvent: (t: Tenant, eventId: string) => `${tenant(t)}#EVENTDELIVERIES#${eventId}`,
  apiKey: (hash: string): Key => ({ pk: `APIKEY#${hash}`, sk: 'APIKEY' }),
  apiKeysOfSeller: (sellerId: number) => `${seller(sellerId)}#APIKEYS`,
  apiKeyPointer: (sellerId: number, id: string): Key => ({ pk: seller(sellerId), sk: `APIKEY#${id}` }),
  apiKeyName: (sellerId: number, environment: Environment, name: string): Key =>
    inTenant({ sellerId, environment }, `APIKEYNAME#${name.toLowerCase()}`),
  /** The hashes of a seller's active keys in one environment (the cap, and who shares the limit). */
  apiKeySet: (sellerId: number, environment: Environment): Key =>
    inTenant({ sellerId, environment }, 'APIKEYSET'),
  rate: (principal: string): Key => ({ pk: `RATE#${principal}`, sk: 'RATE' }),
  /** A cool-down put on a principal, beside its counter. */
  rateHold: (principal: string): Key => ({ pk: `RATE#${principal}`, sk: 'HOLD' }),
  idempotency: (scope: string, key: string): Key => ({ pk: `IDEMP#${scope}#${key}`, sk: 'IDEMP' }),
  tenant,
  webhookEndpoint: (t: Tenant, id: string): Key => inTenant(t, `WEBHOOK#${id}`),
  webhookEndpointPrefix: 'WEBHOOK#',
  /** A daily reconciliation with a provider: its day then its id, so the tenant's list is by day. */
  reconciliation: (t: Tenant, day: string, id: string): Key => inTenant(t, `RECON#${day}#${id}`),
  reconciliationPrefix: 'RECON#',
  /** How many endpoints the tenant has (the cap); not under webhookEndpointPrefix, so no list reads it. */
  webhookEndpointCount: (t: Tenant): Key => inTenant(t, 'WEBHOOKCOUNT'),
  webhookDelivery: (t: Tenant, id: string): Key => inTenant(t, `WHDELIVERY#${id}`),
  deliveriesOfEndpoint: (endpointId: string) => `WHENDPOINT#${endpointId}`,
  outboxEvent: (eventId: string): Key => ({ pk: `EVENT#${eventId}`, sk: 'EVENT' }),
  product: (t: Tenant, id: number): Key => inTenant(t, `PRODUCT#${pad(id)}`),
  productPrefix: 'PRODUCT#',
  productByUuid: (uuid: string) => `PRODUCTUUID#${uuid}`,
  /**
   * A copy of the product under its uuid in the table itself (no index attributes), written in the
   * product's own transactions: a GetItem finds it, so a sale reads it with the buyer in one
   * BatchGetItem (issue 17).
   */
  productCopy: (uuid: string): Key => ({ pk: `PRODUCTUUID#${uuid}`, sk: 'PRODUCT' }),
  productsByState: (t: Tenant, state: 'active' | 'archived') => `${tenant(t)}#PRODUCTS#${state}`,
  /** Sorts after every product id in both the table and product.byState, so a newest-first page reads it first. */
  productCounter: (t: Tenant, state: 'active' | 'archived'): Key => inTenant(t, `PRODUCT#~COUNT#${state}`),
  counterSortKey: '~COUNT',
  transaction: (t: Tenant, id: number): Key => inTenant(t, `TXN#${pad(id)}`),
  transactionPrefix: 'TXN#',
  transactionByUuid: (uuid: string) => `TXNUUID#${uuid}`,
  transactionsByStatus: (t: Tenant, status: string) => `${tenant(t)}#TXNSTATUS#${status}`,
  transactionsByStatusAndMethod: (t: Tenant, status: string, method: string) =>
    `${tenant(t)}#TXNSTATUSMETHOD#${status}#${method}`,
  transactionByGatewayId: (gatewayPayId: number) => `GATEWAYPAY#${gatewayPayId}`,
  transactionsOfProduct: (t: Tenant, productId: number) => `${tenant(t)}#TXNPRODUCT#${productId}`,
  transactionsOfCustomer: (t: Tenant, customerId: number) => `${tenant(t)}#TXNCUSTOMER#${customerId}`,
  /**
   * A transaction's entry in the search index under one token (a word of its buyer's name, the
   * e-mail, the document), in a partition per token's first character: a search reads one key range
   * (the token prefix) of one partition.
   */
  transactionSearch: (t: Tenant, token: string, id: number): Key => ({
    pk: `${tenant(t)}#TXNSEARCH#${[...token][0]}`,
    sk: `${token}#${pad(id)}`,
  }),
  transactionSearchPartition: (t: Tenant, prefix: string) => `${tenant(t)}#TXNSEARCH#${[...prefix][0]}`,
  /** The seller-wide counter sorts after every transaction of the partition (see counterSortKey). */
  transactionCounter: (t: Tenant, scope: string): Key =>
    inTenant(t, scope === 'ALL' ? 'TXN#~COUNT' : `COUNT#TXN#${scope}`),
  /**
   * One shard of a tenant's daily figures for the block of days starting `firstDay` (the shard is
   * the partition, so a busy seller's figures spread over several; daily-figures.ts).
   */
  dailyFigures: (t: Tenant, shard: number, firstDay: string): Key => ({
    pk: `${tenant(t)}#FIGURES#${shard}`,
    sk: `DAYS#${firstDay}`,
  }),
  /** Hour buckets of pending pix expiries, swept by the heartbeat in case a schedule never fired. */
  pixExpiryBucket: (instant: string) => `DUE#PIX#${instant.slice(0, 13)}`,
  pixExpiry: (expiresAt: string, t: Tenant, id: number): Key => ({
    pk: `DUE#PIX#${expiresAt.slice(0, 13)}`,
    sk: `${expiresAt}#${t.sellerId}#${t.environment}#${id}`,
  }),
  notification: (provider: string, id: string): Key => ({ pk: `NOTIF#${provider}#${id}`, sk: 'NOTIF' }),
  sandboxCharge: (gatewayPayId: number): Key => ({ pk: `SANDBOX#${gatewayPayId}`, sk: 'CHARGE' }),
  /** The sandbox's charges of one seller created on one Sao Paulo day (what it lists for reconciliation). */
  sandboxChargesOfDay: (sellerId: number, day: string) => `SANDBOX#CHARGES#${sellerId}#${day}`,
  /** A card the sandbox tokenized (brand, last 4, expiry, outcome class; never the number). */
  sandboxCardToken: (token: string): Key => ({ pk: `SANDBOX#TOKEN#${token}`, sk: 'TOKEN' }),
  /**
   * An idempotency key the sandbox answered (saved-card and Pix Automático debits): the charge it
   * made, written with that charge. Scoped to the account, as a provider scopes its keys.
   */
  sandboxIdempotency: (t: Tenant, key: string): Key => ({
    pk: `SANDBOX#IDEM#${t.sellerId}#${t.environment}#${key}`,
    sk: 'IDEM',
  }),
  /** A Pix Automático authorization the sandbox issued (pending, active or revoked; seller, max amount). */
  sandboxPixAuthorization: (authorizationId: string): Key => ({
    pk: `SANDBOX#PIXAUTH#${authorizationId}`,
    sk: 'PIXAUTH',
  }),
  /** A seller's connected live provider account (issue 16): environment, encrypted key, account name. */
  providerConnection: (sellerId: number, provider: string): Key => ({
    pk: seller(sellerId),
    sk: `PROVIDER#${provider}`,
  }),
  /** Every seller with a connected account at a provider (the daily reconciliation walks it). */
  connectedSellers: (provider: string) => `PROVIDER#${provider}#CONNECTED`,
  /** The seller a provider webhook token (its SHA-256) belongs to: one GetItem per notification. */
  providerWebhookToken: (provider: string, tokenHash: string): Key => ({
    pk: `PROVIDER#${provider}#WHTOKEN#${tokenHash}`,
    sk: 'WHTOKEN',
  }),
  /** The provider's customer of a buyer's document, per seller and provider account environment. */
  providerCustomer: (provider: string, sellerId: number, account: string, document: string): Key => ({
    pk: `PROVIDER#${provider}#CUS#${sellerId}#${account}#${document}`,
    sk: 'CUSTOMER',
  }),
  /** Our gateway id of a live provider charge → the provider's payment id and the seller. */
  providerCharge: (provider: string, gatewayPayId: number): Key => ({
    pk: `PROVIDER#${provider}#PAY#${gatewayPayId}`,
    sk: 'CHARGE',
  }),
  /** The first answer to a saved-card debit key at a live provider (which has no idempotency keys). */
  providerIdempotency: (provider: string, sellerId: number, key: string): Key => ({
    pk: `PROVIDER#${provider}#IDEM#${sellerId}#${key}`,
    sk: 'IDEM',
  }),
  /** The IP a buyer saved a card from at a live provider, by the card token's SHA-256 (issue 16). */
  providerCardIp: (provider: string, sellerId: number, tokenHash: string): Key => ({
    pk: `PROVIDER#${provider}#CARDIP#${sellerId}#${tokenHash}`,
    sk: 'CARDIP',
  }),
  /** A Pix Automático authorization a live provider issued for one of our pix charges (issue 16). */
  providerPixAuthorization: (provider: string, authorizationId: string): Key => ({
    pk: `PROVIDER#${provider}#PIXAUTH#${authorizationId}`,
    sk: 'PIXAUTH',
  }),
  /** The authorization whose immediate QR code has this conciliation id (its first payment carries it). */
  providerPixConciliation: (provider: string, conciliationId: string): Key => ({
    pk: `PROVIDER#${provider}#PIXQR#${conciliationId}`,
    sk: 'PIXQR',
  }),
  /** A product's affiliation with one affiliate (a seller id); a product's list is one prefix query. */
  affiliation: (t: Tenant, productId: number, affiliateId: number): Key =>
    inTenant(t, `AFFIL#${pad(productId)}#${pad(affiliateId, 15)}`),
  affiliationsOfProduct: (productId: number) => `AFFIL#${pad(productId)}#`,
  /** A seller's reminder schedule and channels. */
  sellerReminders: (t: Tenant): Key => inTenant(t, 'REMINDERS#SELLER'),
  /** A customer's reminder override and opt-outs. */
  customerReminders: (t: Tenant, customerId: number): Key =>
    inTenant(t, `REMINDERS#CUSTOMER#${pad(customerId)}`),
  /** An opt-out link's token, read by the public route without a tenant. */
  reminderOptOut: (token: string): Key => ({ pk: `OPTOUT#${token}`, sk: 'OPTOUT' }),
  portalConfig: (t: Tenant, productId?: number): Key =>
    inTenant(t, productId === undefined ? 'PORTALCFG#SELLER' : `PORTALCFG#PRODUCT#${pad(productId)}`),
  // Customers: the global customer is keyed by environment + document, so de-duplication is a
  // condition on one key; each seller's profile and its search items live in the tenant partition.
  customerGlobal: (env: Environment, document: string): Key => ({
    pk: `CUSTOMER#${env}#${document}`,
    sk: 'GLOBAL',
  }),
  customerProfile: (t: Tenant, uuid: string): Key => inTenant(t, `CUSTOMER#${uuid}`),
  customersByCreation: (t: Tenant) => `${tenant(t)}#CUSTOMERS`,
  customersByName: (t: Tenant) => `${tenant(t)}#CUSTNAME`,
  customerEmailPrefix: (email: string) => `CUSTEMAIL#${email.toLowerCase()}#`,
  customerEmail: (t: Tenant, email: string, uuid: string): Key =>
    inTenant(t, `CUSTEMAIL#${email.toLowerCase()}#${uuid}`),
  /** The global customers registered with an e-mail (the magic-link request by e-mail), one item per document. */
  customerGlobalEmail: (env: Environment, email: string, document: string): Key => ({
    pk: `CUSTGLOBALEMAIL#${env}#${email.toLowerCase()}`,
    sk: `DOC#${document}`,
  }),
  customerGlobalEmailPartition: (env: Environment, email: string) =>
    `CUSTGLOBALEMAIL#${env}#${email.toLowerCase()}`,
  /** A seller that has a profile of the global customer, in the global's partition (the customer area). */
  customerSeller: (env: Environment, document: string, sellerId: number): Key => ({
    pk: `CUSTOMER#${env}#${document}`,
    sk: `SELLER#${pad(sellerId)}`,
  }),
  customerSellerPrefix: 'SELLER#',
  customerCount: (t: Tenant): Key => inTenant(t, 'CUSTOMERCOUNT'),
  customersOverdue: (t: Tenant) => `${tenant(t)}#OVERDUE`,
  customerOverdue: (t: Tenant, uuid: string): Key => ({ pk: `${tenant(t)}#OVERDUE`, sk: uuid }),
  // Checkout sessions: keyed by their id alone (the hosted page reads a session without a tenant);
  // a tenant's lists read the indexes under its partition names.
  checkoutSession: (id: string): Key => ({ pk: `CHECKOUT#${id}`, sk: 'SESSION' }),
  sessionsOfTenant: (t: Tenant) => `${tenant(t)}#SESSIONS`,
  sessionsByStatus: (t: Tenant, status: string) => `${tenant(t)}#SESSIONS#${status}`,
  sessionsOfProduct: (t: Tenant, productId: number) => `${tenant(t)}#SESSPRODUCT#${productId}`,
  sessionsOfEmail: (t: Tenant, email: string) => `${tenant(t)}#SESSEMAIL#${email.toLowerCase()}`,
  /** Hour buckets of session expiries, swept by the heartbeat in case a schedule never fired. */
  sessionExpiryBucket: (instant: string) => `DUE#CS#${instant.slice(0, 13)}`,
  /** A payment attempt, written ahead of the provider call it guards (its id: `att_…`). */
  paymentAttempt: (t: Tenant, id: string): Key => inTenant(t, `ATT#${id}`),
  /** Hour buckets of pending attempts' `dueAt`, swept by the heartbeat in case a schedule never fired. */
  attemptDueBucket: (instant: string) => `DUE#ATT#${instant.slice(0, 13)}`,
  sessionExpiry: (expiresAt: string, id: string): Key => ({
    pk: `DUE#CS#${expiresAt.slice(0, 13)}`,
    sk: `${expiresAt}#${id}`,
  }),
  // Sandbox mailbox (test tenants' mail on AWS): the message, and a copy without its body under
  // the recipient for the `to` filter. Ids sort by time, so both read newest first.
  mail: (t: Tenant, id: string): Key => inTenant(t, `MAIL#${id}`),
  mailPrefix: 'MAIL#',
  mailTo: (t: Tenant, to: string, id: string): Key => inTenant(t, `MAILTO#${encodeURIComponent(to)}#${id}`),
  mailToPrefix: (to: string) => `MAILTO#${encodeURIComponent(to)}#`,
  /** A message that must go out once (a receipt per event id): its claim, then its sent mark. */
  mailLog: (key: string): Key => ({ pk: `MAILLOG#${key}`, sk: 'MAILLOG' }),
  // Saved cards (payment methods): by id in the tenant partition; payment-method.byCustomer lists a
  // customer's; byExpiryMonth buckets the next expiry step by month for the heartbeat's sweep.
  paymentMethod: (t: Tenant, id: number): Key => inTenant(t, `PAYMETHOD#${pad(id)}`),
  paymentMethodsOfCustomer: (t: Tenant, customerUuid: string) => `${tenant(t)}#PAYMETHODS#${customerUuid}`,
  /** One per customer and card (provider, brand, last 4, expiry): a card is saved once. */
  paymentMethodCard: (
    t: Tenant,
    card: { customerUuid: string; provider: string; brand: string; last4: string; expiry: string },
  ): Key =>
    inTenant(
      t,
      `PAYMETHODCARD#${card.customerUuid}#${card.provider}#${card.brand}#${card.last4}#${card.expiry}`,
    ),
  /** The month (YYYY-MM of the ISO instant) of a payment method's next expiry step. */
  paymentMethodExpiryBucket: (instant: string) => `DUE#CARD#${instant.slice(0, 7)}`,
  // Subscription prices: by id in the tenant partition; subscription-price.byProduct lists a
  // product's prices, byUuid finds one by uuid (the tenant is compared).
  price: (t: Tenant, id: number): Key => inTenant(t, `PRICE#${pad(id)}`),
  priceByUuid: (uuid: string) => `PRICEUUID#${uuid}`,
  pricesOfProduct: (t: Tenant, productId: number) => `${tenant(t)}#PRICES#${productId}`,
  // Subscriptions: by id in the tenant partition, listed newest first (by id) in four index
  // partitions (all, status, customer, product), each headed by its counter (counterSortKey).
  subscription: (t: Tenant, id: number): Key => inTenant(t, `SUB#${pad(id)}`),
  subscriptionsOfTenant: (t: Tenant) => `${tenant(t)}#SUBS`,
  subscriptionsByStatus: (t: Tenant, status: string) => `${tenant(t)}#SUBSTATUS#${status}`,
  subscriptionsOfCustomer: (t: Tenant, customerId: number) => `${tenant(t)}#SUBCUSTOMER#${customerId}`,
  subscriptionsOfProduct: (t: Tenant, productId: number) => `${tenant(t)}#SUBPRODUCT#${productId}`,
  /** The counter of one list partition (`ALL`, `STATUS#<s>`, `CUSTOMER#<id>`, `PRODUCT#<id>`). */
  subscriptionCounter: (t: Tenant, scope: string): Key => inTenant(t, `COUNT#SUB#${scope}`),
  /**
   * A history record. The change's instant precedes the id in the sort key: ids come in blocks per
   * container, so only the time orders records written by different containers.
   */
  subscriptionEvent: (t: Tenant, subscriptionId: number, createdAt: string, eventId: number): Key =>
    inTenant(t, `SUBEVT#${pad(subscriptionId)}#${createdAt}#${pad(eventId)}`),
  subscriptionEventsPrefix: (subscriptionId: number) => `SUBEVT#${pad(subscriptionId)}#`,
  /** Hour buckets of subscriptions' `dueAt`, swept by the heartbeat in case a schedule never fired. */
  subscriptionDueBucket: (instant: string) => `DUE#SUB#${instant.slice(0, 13)}`,
  /** A sandbox seller's test clock, in its tenant partition (a prefix query lists them). */
  testClock: (t: Tenant, id: string): Key => inTenant(t, `TESTCLOCK#${id}`),
  testClockPrefix: 'TESTCLOCK#',
  /** A tenant's count of test clocks: the cap is a condition on it, written with the clock. */
  testClockCount: (t: Tenant): Key => inTenant(t, 'TESTCLOCKCOUNT'),
  /** Hour buckets of test clocks' `deletesAfter`, swept by the heartbeat in case a schedule never fired. */
  testClockDeletionBucket: (instant: string) => `DUE#CLOCK#${instant.slice(0, 13)}`,
  /**
   * The due index of one test clock: the subscriptions, scheduled charges, carnês and saved cards on
   * it with work due, sorted by `<due time>#<job id>` (an advance reads it instead of the hour buckets).
   */
  testClockDue: (t: Tenant, clockId: string) => `${tenant(t)}#CLOCKDUE#${clockId}`,
  // Scheduled charges: the charge, its cycles and its timeline under `SCH#<id>` in the tenant
  // partition (ids have a fixed length, so one charge's prefix never covers another's); the charge
  // and its cycles sort before its timeline (`CYC` < `EVT`), so one range query reads them alone.
  // Listed by dueDate then id in four index partitions (all, status, customer, type), each with a
  // counter; searched through copies of the charge under its customer's name, e-mail and document.
  scheduledCharge: (t: Tenant, id: string): Key => inTenant(t, `SCH#${id}`),
  /** One cycle of a charge; at most 9999 cycles sort by number. */
  scheduledChargeCycle: (t: Tenant, id: string, cycleNumber: number): Key =>
    inTenant(t, `SCH#${id}#CYC#${pad(cycleNumber, 4)}`),
  /** The last sort key of the charge-and-cycles range (the timeline sorts after it). */
  scheduledChargeCyclesEnd: (id: string) => `SCH#${id}#CYC#~`,
  /** A timeline entry; ids come from the charge's own counter, so they sort in write order. */
  scheduledChargeEvent: (t: Tenant, id: string, entryId: number): Key =>
    inTenant(t, `SCH#${id}#EVT#${pad(entryId)}`),
  scheduledChargeEventsPrefix: (id: string) => `SCH#${id}#EVT#`,
  /** An attempt, outside the charge's range; ids come from one sequence, so they sort oldest first. */
  scheduledChargeAttempt: (t: Tenant, id: string, attemptId: number): Key =>
    inTenant(t, `SCHATT#${id}#${pad(attemptId)}`),
  scheduledChargeAttemptsPrefix: (id: string) => `SCHATT#${id}#`,
  /** scheduled-charge-attempt.byCycle partition of one cycle's attempts (the attempts' cycleNumber filter). */
  scheduledChargeAttemptsOfCycle: (t: Tenant, id: string, cycleNumber: number) =>
    `${tenant(t)}#SCHATTCYC#${id}#${cycleNumber}`,
  scheduledChargesOfTenant: (t: Tenant) => `${tenant(t)}#SCHS`,
  scheduledChargesByStatus: (t: Tenant, status: string) => `${tenant(t)}#SCHSTATUS#${status}`,
  scheduledChargesOfCustomer: (t: Tenant, customerId: number) => `${tenant(t)}#SCHCUSTOMER#${customerId}`,
  scheduledChargesOfType: (t: Tenant, type: string) => `${tenant(t)}#SCHTYPE#${type}`,
  /** The index sort key of every list partition: dueDate, then id. */
  scheduledChargeListOrder: (dueDate: string, id: string) => `${dueDate}#${id}`,
  /** The counter of one list partition (`ALL`, `STATUS#<s>`, `CUSTOMER#<id>`, `TYPE#<t>`). */
  scheduledChargeCounter: (t: Tenant, scope: string): Key => inTenant(t, `COUNT#SCH#${scope}`),
  /**
   * The search copies of a charge (by customer `NAME` (searchable), `EMAIL` (lower case) or `DOC`),
   * each ending in the list order; `scheduledChargeSearchPrefix` is the begins_with of a search.
   */
  scheduledChargeSearch: (
    t: Tenant,
    by: 'NAME' | 'EMAIL' | 'DOC',
    value: string,
    dueDate: string,
    id: string,
  ) => inTenant(t, `SCHSEARCH#${by}#${value}#${dueDate}#${id}`),
  scheduledChargeSearchPrefix: (by: 'NAME' | 'EMAIL' | 'DOC', value: string, exact: boolean) =>
    `SCHSEARCH#${by}#${value}${exact ? '#' : ''}`,
  /** Hour buckets of scheduled charges' `dueAt`, swept by the heartbeat in case a schedule never fired. */
  scheduledChargeDueBucket: (instant: string) => `DUE#SCH#${instant.slice(0, 13)}`,
  // Installment plans (carnê): the plan, its (at most 12) installments inline, under `PLAN#<uuid>`
  // in the tenant partition. Listed newest first (createdAt, then uuid) in four index partitions
  // (all, status, customer, customer and status), each headed by its counter (counterSortKey).
  installmentPlan: (t: Tenant, uuid: string): Key => inTenant(t, `PLAN#${uuid}`),
  installmentPlansOfTenant: (t: Tenant) => `${tenant(t)}#PLANS`,
  installmentPlansByStatus: (t: Tenant, status: string) => `${tenant(t)}#PLANSTATUS#${status}`,
  installmentPlansOfCustomer: (t: Tenant, customerId: number) => `${tenant(t)}#PLANCUSTOMER#${customerId}`,
  installmentPlansOfCustomerByStatus: (t: Tenant, customerId: number, status: string) =>
    `${tenant(t)}#PLANCUSTSTATUS#${customerId}#${status}`,
  /** The index sort key of every list partition: createdAt, then uuid. */
  installmentPlanListOrder: (createdAt: string, uuid: string) => `${createdAt}#${uuid}`,
  /** The counter of one list partition (`ALL`, `STATUS#<s>`, `CUSTOMER#<id>`, `CUSTSTATUS#<id>#<s>`). */
  installmentPlanCounter: (t: Tenant, scope: string): Key => inTenant(t, `COUNT#PLAN#${scope}`),
  /** The duplicate guard: one hold per fingerprint (customer, product, installments, date, affiliate). */
  installmentPlanFingerprint: (t: Tenant, fingerprint: string): Key => inTenant(t, `PLANFP#${fingerprint}`),
  /** Hour buckets of installment plans' `dueAt`, swept by the heartbeat in case a schedule never fired. */
  installmentPlanDueBucket: (instant: string) => `DUE#PLAN#${instant.slice(0, 13)}`,
  /** A customer portal session, found by the SHA-256 of its token (no tenant in the request). */
  portalSession: (tokenHash: string): Key => ({ pk: `PORTALSESSION#${tokenHash}`, sk: 'PORTALSESSION' }),
  /** A seller's profile by the customer's numeric id: a pointer to the uuid-keyed profile. */
  customerById: (t: Tenant, id: number): Key => inTenant(t, `CUSTOMERID#${pad(id)}`),
  /** Sortable form of a numeric id inside a sort key. */
  numeric: pad,
  /** Sorts after every `numeric` value and before the counters (`:` follows `9`, `~` follows both). */
  numericEnd: ':',
};
