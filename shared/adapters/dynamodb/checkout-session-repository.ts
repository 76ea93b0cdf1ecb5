import type { CheckoutSession, SessionPayment } from '#shared/domain/checkout/session';
import type { CheckoutSessionRepository, SessionQuery } from '#shared/domain/ports';
import { ConflictError } from '#shared/errors';
import { checkoutSessionEntity } from './entities/checkout-session';
import { keys } from './keys';
import { outboxPut } from './outbox';
import { alreadyExists, type ConditionFailedError, type Item, orConflict, type Table } from './table';

const { byTenant, byStatus, byProduct, byEmail } = checkoutSessionEntity.patterns;
const toItem = checkoutSessionEntity.toItem;
const toSession = checkoutSessionEntity.fromItem;
/** Expiry markers outlive their hour by a week: the sweep looks back hours, never days. */
const MARKER_TTL_SECONDS = 7 * 86_400;

/** A payment appended to a session that is still open and not past its expiry. */
const addPaymentUpdate = (id: string, payment: SessionPayment, now: string) => ({
  Key: keys.checkoutSession(id),
  UpdateExpression:
    'SET payments = list_append(if_not_exists(payments, :empty), :p), updatedAt = :now, version = version + :one',
  ConditionExpression: '#status = :open AND expiresAt > :now',
  ExpressionAttributeNames: { '#status': 'status' },
  ExpressionAttributeValues: { ':p': [payment], ':empty': [], ':now': now, ':open': 'open', ':one': 1 },
});

const notOpen = (cause: unknown) =>
  new ConflictError('The checkout session is no longer open', 'session_not_open', {
    reason: 'invalid_state',
    cause,
  });

interface Source {
  IndexName: string;
  partitionKey: string;
  sortKey: string;
  value: string;
}

/**
 * The most selective filter picks the index (product, then e-mail, then status, else the tenant's
 * partition); created_at bounds are a key condition on every one of them; the other filters are
 * filter expressions on that partition.
 */
function plan(tenant: CheckoutSession['tenant'], q: SessionQuery) {
  const source: Source =
    q.productId !== undefined
      ? { ...idx(byProduct), value: keys.sessionsOfProduct(tenant, q.productId) }
      : q.customerEmail !== undefined
        ? { ...idx(byEmail), value: keys.sessionsOfEmail(tenant, q.customerEmail) }
        : q.status !== undefined
          ? { ...idx(byStatus), value: keys.sessionsByStatus(tenant, q.status) }
          : { ...idx(byTenant), value: keys.sessionsOfTenant(tenant) };
  const names: Record<string, string> = { '#pk': source.partitionKey, '#sk': source.sortKey };
  const values: Item = {
    ':pk': source.value,
    ':from': q.createdFrom ?? '0',
    ':to': `${q.createdTo ?? '9999'}~`,
  };
  const filters: string[] = [];
  if (q.status !== undefined && source.IndexName !== byStatus.name) {
    names['#status'] = 'status';
    values[':status'] = q.status;
    filters.push('#status = :status');
  }
  if (q.customerEmail !== undefined && q.productId !== undefined) {
    names['#email'] = byEmail.partitionKey;
    values[':email'] = keys.sessionsOfEmail(tenant, q.customerEmail);
    filters.push('#email = :email');
  }
  return {
    IndexName: source.IndexName,
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
    ScanIndexForward: false,
  };
}

function idx(index: { name: string; partitionKey: string; sortKey: string }) {
  return { IndexName: index.name, partitionKey: index.partitionKey, sortKey: index.sortKey };
}

export function createCheckoutSessionRepository(table: Table): CheckoutSessionRepository {
  return {
    async create(s, events) {
      await orConflict(
        table.transact([
          { Put: { Item: toItem(s), ConditionExpression: 'attribute_not_exists(pk)' } },
          {
            Put: {
              Item: {
                ...keys.sessionExpiry(s.expiresAt, s.id),
                entity: 'session-expiry',
                version: 1,
                sessionId: s.id,
                expiresAt: s.expiresAt,
                ttl: Math.floor(Date.parse(s.expiresAt) / 1000) + MARKER_TTL_SECONDS,
              },
            },
          },
          ...events.map(outboxPut),
        ]),
        alreadyExists('The checkout session'),
      );
    },

    async get(id) {
      const item = await table.get<Item>(keys.checkoutSession(id), { consistent: true });
      return item ? toSession(item) : null;
    },

    async addPayment(id, payment, now) {
      await table.write({ items: [{ Update: addPaymentUpdate(id, payment, now) }], toError: notOpen });
    },

    async close(next, previous, events) {
      await orConflict(
        table.transact([
          {
            Put: {
              Item: toItem(next),
              ConditionExpression: '#status = :open AND version = :v',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':open': 'open', ':v': previous.version },
            },
          },
          ...events.map(outboxPut),
        ]),
        (cause: ConditionFailedError) =>
          new ConflictError('The checkout session changed; read it again', 'concurrent_update', {
            reason: 'changed',
            cause,
          }),
      );
    },

    async list(tenant, q) {
      const input = plan(tenant, q);
      const wanted = q.page * q.limit;
      const matched: Item[] = [];
      let itemsRead = 0;
      let cursor: string | undefined;
      do {
        const page = await table.query<Item>({
          ...input,
          Limit: Math.max(wanted - matched.length, 1) * 2,
          cursor,
        });
        itemsRead += page.scanned ?? page.items.length;
        matched.push(...page.items);
        cursor = page.cursor;
      } while (cursor && matched.length < wanted);
      // The total counts keys only, over the same key condition and filters.
      let totalCount = 0;
      let countCursor: string | undefined;
      if (!cursor && q.page === 1) totalCount = matched.length;
      else {
        do {
          const page = await table.query<Item>({ ...input, Select: 'COUNT', cursor: countCursor });
          totalCount += page.count ?? 0;
          countCursor = page.cursor;
        } while (countCursor);
      }
      return {
        items: matched.slice((q.page - 1) * q.limit, wanted).map(toSession),
        totalCount,
        itemsRead,
      };
    },

    async dueExpiries(now, hoursBack) {
      const due: string[] = [];
      const nowIso = now.toISOString();
      for (let h = hoursBack; h >= 0; h--) {
        const bucket = keys.sessionExpiryBucket(new Date(now.getTime() - h * 3_600_000).toISOString());
        let cursor: string | undefined;
        do {
          const out = await table.query<Item>({
            KeyConditionExpression: 'pk = :pk AND sk <= :now',
            ExpressionAttributeValues: { ':pk': bucket, ':now': `${nowIso}~` },
            cursor,
          });
          for (const item of out.items)
            if (String(item.expiresAt) <= nowIso) due.push(String(item.sessionId));
          cursor = out.cursor;
        } while (cursor);
      }
      return due;
    },
  };
}
