import type { ScheduledChargeChanges, ScheduledChargeRepository } from '#shared/domain/ports';
import {
  type Attempt,
  type Cycle,
  chargeOfPayToken,
  type ScheduledCharge,
  type TimelineEntry,
} from '#shared/domain/scheduled-charges/charge';
import type { Tenant } from '#shared/domain/tenant';
import { transactWithOverdueCount } from './customer-overdue';
import { dueJobIds, hourBuckets } from './due-buckets';
import {
  attemptEntity,
  chargeAttributes,
  chargePartitions,
  scheduledChargeEntity,
} from './entities/scheduled-charge';
import { keys } from './keys';
import { outboxPut } from './outbox';
import {
  CHARGE_ENTITY,
  COUNTER_ENTITY,
  CYCLE_ENTITY,
  CYCLE_FIELDS,
  listScheduledCharges,
  MAX_ITEMS_READ,
  readCharge,
  SEARCH_ENTITY,
  searchCopyKeys,
} from './scheduled-charge-queries';
import type { Item, Table, TransactItem } from './table';
import { transactionCreateWrites } from './transaction-repository';

const TIMELINE_ENTITY = 'scheduled-charge-event';
const { byCycle } = attemptEntity.patterns;
const { byCustomer, byDueHour } = scheduledChargeEntity.patterns;
/** The portal lists at most this many open charges of a customer. */
const CUSTOMER_LIST_LIMIT = 100;
const CLOSED = ['paid', 'canceled', 'recurrence_canceled'];

/** The charge's item with the timeline counter its save moved to. */
const chargeItem = (c: ScheduledCharge, timelineSeq: number): Item => ({
  ...scheduledChargeEntity.toItem(c),
  timelineSeq,
});

function cycleItem(c: ScheduledCharge, cycle: Cycle): Item {
  const item: Item = {
    ...keys.scheduledChargeCycle(c.tenant, c.id, cycle.number),
    entity: CYCLE_ENTITY,
    sellerId: c.tenant.sellerId,
    environment: c.tenant.environment,
    chargeId: c.id,
  };
  for (const f of CYCLE_FIELDS) item[f] = cycle[f] ?? null;
  return item;
}

const attemptItem = (tenant: Tenant, attempt: Attempt): Item => attemptEntity.toItem({ tenant, attempt });
const toAttempt = (item: Item): Attempt => attemptEntity.fromItem(item).attempt;

const toTimelineEntry = (item: Item): TimelineEntry => ({
  id: Number(item.id),
  kind: item.kind as TimelineEntry['kind'],
  cycleNumber: item.cycleNumber === null || item.cycleNumber === undefined ? null : Number(item.cycleNumber),
  data: (item.data as Record<string, unknown>) ?? {},
  createdAt: String(item.createdAt),
});

function counterUpdate(c: ScheduledCharge, partition: number, delta: number): TransactItem {
  return {
    Update: {
      Key: keys.scheduledChargeCounter(c.tenant, chargePartitions(c)[partition].scope),
      UpdateExpression: 'ADD #c :d SET entity = :e, #ver = :ver',
      ExpressionAttributeNames: { '#c': 'count', '#ver': 'version' },
      ExpressionAttributeValues: { ':d': delta, ':e': COUNTER_ENTITY, ':ver': 1 },
    },
  };
}

/** Counters of the list partitions the charge leaves go down, those it enters go up. */
function counterMoves(previous: ScheduledCharge | null, next: ScheduledCharge): TransactItem[] {
  const before = previous ? chargePartitions(previous) : [];
  return chargePartitions(next).flatMap((p, i) => {
    if (previous && before[i].value === p.value) return [];
    return [...(previous ? [counterUpdate(previous, i, -1)] : []), counterUpdate(next, i, 1)];
  });
}

/** The search copies rewritten (the list shows them), and deleted under keys the charge left. */
function searchWrites(previous: ScheduledCharge | null, next: ScheduledCharge): TransactItem[] {
  const nextKeys = searchCopyKeys(next);
  const gone = previous ? searchCopyKeys(previous).filter((k) => !nextKeys.some((n) => n.sk === k.sk)) : [];
  return [
    ...gone.map((Key): TransactItem => ({ Delete: { Key } })),
    ...nextKeys.map(
      (key): TransactItem => ({
        Put: { Item: { ...key, entity: SEARCH_ENTITY, ...chargeAttributes(next) } },
      }),
    ),
  ];
}

const sameCycle = (a: Cycle | undefined, b: Cycle) =>
  a !== undefined && JSON.stringify(a) === JSON.stringify(b);

/**
 * Cycles that differ from the previous state's. A series' cycles only grow (a cancelled cycle
 * stays, `canceled`), so nothing is deleted here.
 */
function cycleWrites(previous: ScheduledCharge | null, next: ScheduledCharge): TransactItem[] {
  const before = new Map((previous?.cycles ?? []).map((c) => [c.number, c]));
  return next.cycles.flatMap((cycle): TransactItem[] => {
    const old = before.get(cycle.number);
    if (sameCycle(old, cycle)) return [];
    return [{ Put: { Item: cycleItem(next, cycle) } }];
  });
}

function timelinePuts(c: ScheduledCharge, changes: ScheduledChargeChanges, lastId: number): TransactItem[] {
  return changes.timeline.map((t, i) => ({
    Put: {
      Item: {
        ...keys.scheduledChargeEvent(c.tenant, c.id, lastId + i + 1),
        entity: TIMELINE_ENTITY,
        version: 1,
        sellerId: c.tenant.sellerId,
        environment: c.tenant.environment,
        chargeId: c.id,
        id: lastId + i + 1,
        kind: t.kind,
        cycleNumber: t.cycleNumber,
        data: t.data,
        createdAt: c.updatedAt,
      },
    },
  }));
}

export function createScheduledChargeRepository(table: Table): ScheduledChargeRepository {
  /**
   * The charge's Put (index 0, conditioned), its counters, search copies, changed cycles with the
   * pay tokens of new ones, timeline, attempts, transactions with their counters and events, its
   * own events and the customer's overdue count, in one TransactWriteItems. A failed condition
   * of the charge is `changed` (save) or `already_exists` (create) and never retried; one of the
   * overdue count (another charge of the customer moved it) is retried with the count read again;
   * any other is a stored transaction or pay token (`already_exists`). A change writes the charge
   * (1), up to 2 counter moves, 3 search copies (+3 deletes when the due date moves), its changed
   * cycles and their pay tokens, its timeline entries, attempts, transactions (each with 4
   * counters, a pix marker and its events), outbox events and the customer's overdue count (2):
   * about 10 to 30 for the engine's changes; one past TransactWriteItems' 100 (a cancel of a series
   * with dozens of overdue cycles) is refused whole with an Error, never written in part.
   */
  async function write(
    previous: ScheduledCharge | null,
    next: ScheduledCharge,
    changes: ScheduledChargeChanges,
  ): Promise<void> {
    if ((changes.transactions?.length ?? 0) > 1)
      throw new Error(
        'A scheduled charge change writes at most one new transaction (their tenant counters are shared items)',
      );
    // The timeline's ids continue the counter of the charge as read (`previous.timelineSeq`); the
    // Put's condition holds it to the stored one, so an entry is never written over.
    const lastTimelineId = previous?.timelineSeq ?? 0;
    const timelineSeq = lastTimelineId + changes.timeline.length;
    const put: TransactItem = previous
      ? {
          Put: {
            Item: chargeItem(next, timelineSeq),
            ConditionExpression: 'attribute_exists(pk) AND version = :v AND timelineSeq = :seq',
            ExpressionAttributeValues: { ':v': previous.version, ':seq': previous.timelineSeq },
          },
        }
      : { Put: { Item: chargeItem(next, timelineSeq), ConditionExpression: 'attribute_not_exists(pk)' } };
    const fixed: TransactItem[] = [
      put,
      ...counterMoves(previous, next),
      ...searchWrites(previous, next),
      ...cycleWrites(previous, next),
      ...timelinePuts(next, changes, lastTimelineId),
      ...(changes.attempts ?? []).map((a): TransactItem => ({ Put: { Item: attemptItem(next.tenant, a) } })),
      ...changes.events.map(outboxPut),
      ...(changes.transactions ?? []).flatMap((t) => transactionCreateWrites(t.record, t.events)),
    ];
    await transactWithOverdueCount(
      table,
      fixed,
      { tenant: next.tenant, customerUuid: next.customer.uuid, delta: changes.customerOverdueDelta ?? 0 },
      { entity: 'The scheduled charge', creating: previous === null },
    );
  }

  return {
    nextAttemptId: () => table.nextId('scheduled-charge-attempt', { block: 20 }),

    create: (charge, changes) => write(null, charge, changes),

    get: (tenant, id) => readCharge(table, tenant, id),

    save: (next, previous, changes) => write(previous, next, changes),

    list: (tenant, query) => listScheduledCharges(table, tenant, query),

    async timeline(tenant, chargeId, limit = 100) {
      const page = await table.query<Item>({
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: {
          ':pk': keys.tenant(tenant),
          ':prefix': keys.scheduledChargeEventsPrefix(chargeId),
        },
        ScanIndexForward: false,
        Limit: limit,
      });
      return page.items.map(toTimelineEntry);
    },

    async attempts(tenant, chargeId, query) {
      const input =
        query.cycleNumber === undefined
          ? {
              KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
              ExpressionAttributeValues: {
                ':pk': keys.tenant(tenant),
                ':prefix': keys.scheduledChargeAttemptsPrefix(chargeId),
              },
            }
          : {
              IndexName: byCycle.name,
              KeyConditionExpression: '#pk = :pk',
              ExpressionAttributeNames: { '#pk': byCycle.partitionKey },
              ExpressionAttributeValues: {
                ':pk': keys.scheduledChargeAttemptsOfCycle(tenant, chargeId, query.cycleNumber),
              },
            };
      const skip = (query.page - 1) * query.limit;
      const wanted = skip + query.limit;
      // Newest first (ids from one sequence): the rows up to the page's end, then the keys counted.
      const rows: Item[] = [];
      let cursor: string | undefined;
      do {
        const page = await table.query<Item>({
          ...input,
          ScanIndexForward: false,
          Limit: Math.min(500, wanted - rows.length),
          cursor,
        });
        rows.push(...page.items);
        cursor = page.cursor;
      } while (cursor && rows.length < wanted);
      let totalCount = 0;
      let countCursor: string | undefined;
      do {
        const page = await table.query<Item>({ ...input, Select: 'COUNT', cursor: countCursor });
        totalCount += page.count ?? 0;
        countCursor = page.cursor;
      } while (countCursor);
      return { items: rows.slice(skip, wanted).map(toAttempt), totalCount };
    },

    /** The token names its charge: the charge alone is read, and the token must be one of its cycles'. */
    async findByPayToken(payToken) {
      const named = chargeOfPayToken(payToken);
      if (!named) return null;
      const charge = await readCharge(table, named.tenant, named.chargeId);
      const cycle = charge?.cycles.find((c) => c.payToken === payToken);
      return charge && cycle ? { charge, cycle } : null;
    },

    /** Open charges (not paid or cancelled), latest due date first (then id), each with its cycles. */
    async listByCustomer(tenant, customerId, options = {}) {
      const index = byCustomer;
      const since = options.closedSince;
      const found: Item[] = [];
      let read = 0;
      let cursor: string | undefined;
      do {
        const page = await table.query<Item>({
          IndexName: index.name,
          KeyConditionExpression: '#pk = :pk',
          FilterExpression: `NOT (#status IN (:c0, :c1, :c2))${since ? ' OR #updatedAt >= :since' : ''}`,
          ExpressionAttributeNames: {
            '#pk': index.partitionKey,
            '#status': 'status',
            ...(since ? { '#updatedAt': 'updatedAt' } : {}),
          },
          ExpressionAttributeValues: {
            ':pk': keys.scheduledChargesOfCustomer(tenant, customerId),
            ':c0': CLOSED[0],
            ':c1': CLOSED[1],
            ':c2': CLOSED[2],
            ...(since ? { ':since': since } : {}),
          },
          ScanIndexForward: false,
          cursor,
        });
        read += page.scanned ?? page.items.length;
        found.push(...page.items.filter((item) => item.entity === CHARGE_ENTITY));
        cursor = page.cursor;
      } while (cursor && found.length < CUSTOMER_LIST_LIMIT && read < MAX_ITEMS_READ);
      const charges = await Promise.all(
        found
          .slice(0, CUSTOMER_LIST_LIMIT)
          .map((item) => readCharge(table, tenant, scheduledChargeEntity.fromItem(item).id)),
      );
      return charges.filter((c): c is ScheduledCharge => c !== null);
    },

    dueCharges(now, hoursBack) {
      const accept = (item: Item) => item.entity === CHARGE_ENTITY;
      return dueJobIds(table, byDueHour, hourBuckets(now, hoursBack, keys.scheduledChargeDueBucket), now, {
        accept,
      });
    },
  };
}
