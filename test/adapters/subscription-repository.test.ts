import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createPaymentMethodRepository } from '#shared/adapters/dynamodb/payment-method-repository';
import { createSubscriptionRepository } from '#shared/adapters/dynamodb/subscription-repository';
import { Table } from '#shared/adapters/dynamodb/table';
import { createTransactionRepository } from '#shared/adapters/dynamodb/transaction-repository';
import { atomically } from '#shared/adapters/dynamodb/unit-of-work';
import type { DomainEvent } from '#shared/domain/events/events';
import type { PaymentMethod } from '#shared/domain/payment-methods/payment-method';
import type { SubscriptionQuery } from '#shared/domain/ports';
import type { Subscription } from '#shared/domain/subscriptions/subscription';
import type { Tenant } from '#shared/domain/tenant';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { cancelled, caught } from '../support/transact-failures';

/** The commands the subscription repository sends: what one state change writes, which index a list reads. */
const ddb = mockClient(DynamoDBDocumentClient);
const TABLE_NAME = 'payment-service-test';
const table = () => new Table({ tableName: TABLE_NAME, client: new DynamoDBClient({ region: 'sa-east-1' }) });
const repo = () => createSubscriptionRepository(table());

const TENANT: Tenant = { sellerId: 7, environment: 'test' };
const CREATED = '2026-01-31T13:00:00.000Z';
const RENEWED = '2026-02-28T13:00:00.000Z';
const NEXT_END = '2026-03-31T13:00:00.000Z';

const current: Subscription = {
  id: 12,
  uuid: '5b000000-0000-4000-8000-000000000012',
  tenant: TENANT,
  status: 'active',
  customer: { id: 41, uuid: 'c-41', name: 'Ana Souza', email: 'ana@example.com', document: '52998224725' },
  price: {
    id: 3,
    uuid: 'price-3',
    name: 'Mensal',
    unitAmount: 4_990,
    billingInterval: 'month',
    intervalCount: 1,
    trialDays: 0,
    product: { id: 9, uuid: 'product-9', name: 'Clube' },
  },
  collectionMethod: 'card',
  paymentMethod: { id: 5, cardLast4: '4242', cardBrand: 'visa' },
  pixAuthorizationId: null,
  billingAnchor: CREATED,
  billingCycle: 1,
  currentPeriodStart: CREATED,
  currentPeriodEnd: RENEWED,
  trialEndsAt: null,
  cancelAt: null,
  cancelledAt: null,
  cancelAtPeriodEnd: false,
  cancelReason: null,
  pausedAt: null,
  lastPaymentAt: CREATED,
  nextPaymentAt: RENEWED,
  failedPaymentCount: 0,
  dueAt: RENEWED,
  pendingCharge: null,
  checkoutSessionId: null,
  metadata: {},
  createdAt: CREATED,
  updatedAt: CREATED,
  version: 4,
};

const event = (id: string, name: string): DomainEvent => ({
  tenant: TENANT,
  envelope: { id, event: name, timestamp: RENEWED, data: { id: 12 } },
});

const charge: Transaction = {
  id: 77,
  uuid: '7c000000-0000-4000-8000-000000000077',
  tenant: TENANT,
  provider: 'sandbox',
  gatewayPayId: 9_100_000_077,
  checkoutSessionId: null,
  clientReferenceId: null,
  affiliate: null,
  status: 'captured',
  paymentMethod: 'creditcard',
  value: 4_990,
  valueSeller: 4_752,
  installments: 1,
  customer: { ...current.customer, phone: '11987654321' },
  product: { ...current.price.product, value: 4_990 },
  pix: null,
  boleto: null,
  card: { brand: 'visa', last4: '4242' },
  failureCode: null,
  failureReason: null,
  refunds: [],
  refundedAmount: 0,
  paidAt: RENEWED,
  canceledAt: null,
  deadline: null,
  metadata: {},
  recurring: { subscriptionId: 12, billingCycle: 2, method: 'card' },
  createdAt: RENEWED,
  updatedAt: RENEWED,
  version: 1,
};

const newCard: PaymentMethod = {
  id: 6,
  uuid: '6d000000-0000-4000-8000-000000000006',
  tenant: TENANT,
  customer: { id: 41, uuid: 'c-41' },
  type: 'card',
  brand: 'visa',
  last4: '1111',
  expiryMonth: 12,
  expiryYear: 2031,
  status: 'active',
  provider: 'sandbox',
  token: 'tok_new',
  expiryNotices: [],
  nextExpiryStepAt: null,
  expiredAt: null,
  createdAt: RENEWED,
  updatedAt: RENEWED,
  version: 1,
};

beforeEach(() => {
  ddb.reset();
  // Ids of history records: the `subscription-event` counter hands out a block of 20 ending at 20.
  ddb.on(UpdateCommand).resolves({ Attributes: { value: 20 } });
  ddb.on(TransactWriteCommand).resolves({});
});

/** The written entries as `<kind> <pk> <sk>`, in order. */
function entriesOf(call: number) {
  const items = ddb.commandCalls(TransactWriteCommand)[call].args[0].input.TransactItems ?? [];
  return items.map((entry) => {
    const [kind, body] = Object.entries(entry)[0] as [
      string,
      { Item?: Record<string, string>; Key?: Record<string, string> },
    ];
    const key = body.Item ?? body.Key ?? {};
    return `${kind} ${key.pk} ${key.sk}`;
  });
}

describe('SubscriptionRepository commands', () => {
  it('writes a renewal in one TransactWriteItems with its charge: the subscription on its version, its history, events, then the charge with its counters', async () => {
    const next: Subscription = {
      ...current,
      billingCycle: 2,
      currentPeriodStart: RENEWED,
      currentPeriodEnd: NEXT_END,
      lastPaymentAt: RENEWED,
      nextPaymentAt: NEXT_END,
      dueAt: NEXT_END,
      updatedAt: RENEWED,
      version: 5,
    };

    const shared = table();
    await atomically(async () => {
      await createSubscriptionRepository(shared).save(next, current, {
        events: [event('evt_renewed', 'subscription.renewed')],
        history: [{ eventType: 'payment_success', eventData: { transactionId: 77 } }],
      });
      await createTransactionRepository(shared).create(charge, [event('evt_created', 'transaction.created')]);
    });

    expect(entriesOf(0)).toEqual([
      'Put SELLER#7#test SUB#000000000012',
      `Put SELLER#7#test SUBEVT#000000000012#${RENEWED}#000000000001`,
      'Put EVENT#evt_renewed EVENT',
      'Put SELLER#7#test TXN#000000000077',
      'Update SELLER#7#test TXN#~COUNT',
      'Update SELLER#7#test COUNT#TXN#STATUS#captured',
      'Update SELLER#7#test COUNT#TXN#STATUSMETHOD#captured#creditcard',
      'Update SELLER#7#test COUNT#TXN#PRODUCT#9',
      'Update SELLER#7#test COUNT#TXN#CUSTOMER#41',
      // The seller's daily figures (shard 77 % 2): the sale on its day, the card settling at D+30.
      'Update SELLER#7#test#FIGURES#1 DAYS#2026-02-28',
      'Update SELLER#7#test#FIGURES#1 DAYS#2026-03-28',
      // The charge's search index entries: its buyer's name words, e-mail and document.
      'Put SELLER#7#test#TXNSEARCH#a ana#000000000077',
      'Put SELLER#7#test#TXNSEARCH#s souza#000000000077',
      'Put SELLER#7#test#TXNSEARCH#a ana@example.com#000000000077',
      'Put SELLER#7#test#TXNSEARCH#5 52998224725#000000000077',
      'Put EVENT#evt_created EVENT',
    ]);
    const put = ddb.commandCalls(TransactWriteCommand)[0].args[0].input.TransactItems?.[0].Put;
    expect(put?.ConditionExpression).toBe('attribute_exists(pk) AND version = :v');
    expect(put?.ExpressionAttributeValues).toEqual({ ':v': 4 });
    // The due index follows dueAt: the new hour bucket, sorted by the instant and the job id.
    expect(put?.Item).toMatchObject({
      gsi3pk: 'DUE#SUB#2026-03-31T13',
      gsi3sk: `${NEXT_END}#7:test:12`,
      version: 5,
    });
  });

  it('moves the status counters when the status changes, and leaves the due index when nothing is due', async () => {
    const next: Subscription = {
      ...current,
      status: 'canceled',
      dueAt: null,
      updatedAt: RENEWED,
      version: 5,
    };

    await repo().save(next, current, { events: [], history: [] });

    expect(entriesOf(0)).toEqual([
      'Put SELLER#7#test SUB#000000000012',
      'Update SELLER#7#test COUNT#SUB#STATUS#active',
      'Update SELLER#7#test COUNT#SUB#STATUS#canceled',
    ]);
    const items = ddb.commandCalls(TransactWriteCommand)[0].args[0].input.TransactItems ?? [];
    expect(items[0].Put?.Item).not.toHaveProperty('gsi3pk');
    expect(items[1].Update?.ExpressionAttributeValues).toMatchObject({
      ':d': -1,
      ':ipk': 'SELLER#7#test#SUBSTATUS#active',
      ':isk': '~COUNT',
    });
    expect(items[2].Update?.ExpressionAttributeValues).toMatchObject({
      ':d': 1,
      ':ipk': 'SELLER#7#test#SUBSTATUS#canceled',
    });
  });

  /** The portal's add-card-and-update: the new card and the subscription's switch to it, in one unit of work. */
  const saveWithNewCard = (next: Subscription) => {
    const shared = table();
    return atomically(async () => {
      await createPaymentMethodRepository(shared).create(newCard);
      await createSubscriptionRepository(shared).save(next, current, { events: [], history: [] });
    });
  };

  it('writes a card saved with the change in the same TransactWriteItems, its guard after its item', async () => {
    const next: Subscription = {
      ...current,
      paymentMethod: { id: 6, cardLast4: '1111', cardBrand: 'visa' },
      updatedAt: RENEWED,
      version: 5,
    };

    await saveWithNewCard(next);

    expect(entriesOf(0)).toEqual([
      'Put SELLER#7#test PAYMETHOD#000000000006',
      'Put SELLER#7#test PAYMETHODCARD#c-41#sandbox#visa#1111#2031-12',
      'Put SELLER#7#test SUB#000000000012',
    ]);
    const items = ddb.commandCalls(TransactWriteCommand)[0].args[0].input.TransactItems ?? [];
    expect(items.slice(0, 2).map((i) => i.Put?.ConditionExpression)).toEqual([
      'attribute_not_exists(pk)',
      'attribute_not_exists(pk)',
    ]);
    expect(items[0].Put?.Item).toMatchObject({ token: 'tok_new', customer: { id: 41, uuid: 'c-41' } });
  });

  it('answers a card the customer already has saved as payment_method_exists, a changed subscription as changed', async () => {
    const next: Subscription = { ...current, updatedAt: RENEWED, version: 5 };
    const save = () => saveWithNewCard(next);

    ddb.on(TransactWriteCommand).rejects(cancelled(['None', 'ConditionalCheckFailed', 'None']));
    expect(await caught(save())).toMatchObject({
      statusCode: 409,
      code: 'payment_method_exists',
      reason: 'already_exists',
    });

    ddb.on(TransactWriteCommand).rejects(cancelled(['None', 'None', 'ConditionalCheckFailed']));
    expect(await caught(save())).toMatchObject({ code: 'concurrent_update', reason: 'changed' });
  });

  it('counts a new subscription in its four list partitions', async () => {
    await repo().create(current, { events: [], history: [] });

    expect(entriesOf(0)).toEqual([
      'Put SELLER#7#test SUB#000000000012',
      'Update SELLER#7#test COUNT#SUB#ALL',
      'Update SELLER#7#test COUNT#SUB#STATUS#active',
      'Update SELLER#7#test COUNT#SUB#CUSTOMER#41',
      'Update SELLER#7#test COUNT#SUB#PRODUCT#9',
    ]);
  });

  it.each([
    [
      { customerId: 41, productId: 9, status: 'active' },
      'gsi5',
      'SELLER#7#test#SUBCUSTOMER#41',
      ['#price.#product.#id = :product AND #status = :status'],
    ],
    [{ productId: 9, status: 'active' }, 'gsi4', 'SELLER#7#test#SUBPRODUCT#9', ['#status = :status']],
    [{ status: 'failed' }, 'gsi2', 'SELLER#7#test#SUBSTATUS#failed', []],
    [{}, 'gsi1', 'SELLER#7#test#SUBS', []],
  ] as const)(
    'lists %j from the narrowest partition (%s), filtering the rest',
    async (filters, index, partition, filter) => {
      ddb.on(QueryCommand).resolves({ Items: [], ScannedCount: 0 });

      await repo().list(TENANT, { page: 1, limit: 20, ...filters } as SubscriptionQuery);

      const input = ddb.commandCalls(QueryCommand)[0].args[0].input;
      expect(input.IndexName).toBe(index);
      expect(input.ExpressionAttributeValues?.[':pk']).toBe(partition);
      expect(input.ScanIndexForward).toBe(false);
      expect(input.FilterExpression === undefined ? [] : [input.FilterExpression]).toEqual(filter);
    },
  );
});
