import { describe, expect, it } from 'vitest';
import { createDeliveryRepository } from '#shared/adapters/dynamodb/delivery-repository';
import { sandboxChargeEntity } from '#shared/adapters/dynamodb/entities/sandbox-charge';
import { createEventLog } from '#shared/adapters/dynamodb/event-log-repository';
import { keys } from '#shared/adapters/dynamodb/keys';
import { eventLogIndex } from '#shared/adapters/dynamodb/migrations/0003-event-log-index';
import { BASELINE_FORMAT, LATEST_FORMAT, MIGRATIONS } from '#shared/adapters/dynamodb/migrations/list';
import type { Migration } from '#shared/adapters/dynamodb/migrations/migration';
import { MigrationRefusedError, runMigrations } from '#shared/adapters/dynamodb/migrations/runner';
import { outboxPut } from '#shared/adapters/dynamodb/outbox';
import { createProviderConnectionRepository } from '#shared/adapters/dynamodb/provider-repositories';
import type { Item, Table } from '#shared/adapters/dynamodb/table';
import type { DomainEvent } from '#shared/domain/events/events';
import type { Tenant } from '#shared/domain/tenant';
import type { WebhookDelivery } from '#shared/domain/webhooks/deliveries';
import { freshTable } from '../contract/support';

const tenant: Tenant = { sellerId: 7, environment: 'test' };
const LOCAL_STAMP = { pk: 'LOCAL#DATA_FORMAT', sk: 'LOCAL#DATA_FORMAT' };

/** A clock the test moves: leases expire when it says. */
function fakeClock(start = Date.parse('2026-11-28T12:00:00Z')) {
  let now = start;
  return {
    now: () => new Date(now),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const eventAt = (i: number): DomainEvent => ({
  tenant,
  envelope: {
    id: `evt_${String(i).padStart(4, '0')}`,
    event: i % 2 ? 'transaction.paid' : 'product.created',
    timestamp: new Date(Date.parse('2026-11-28T10:00:00Z') + i * 1000).toISOString(),
    data: { id: 1000 + i },
  },
});

const deliveryOf = (event: DomainEvent): WebhookDelivery => ({
  id: `whd_${event.envelope.id}`,
  tenant,
  endpointId: 'we_1',
  eventId: event.envelope.id,
  eventName: event.envelope.event,
  body: JSON.stringify(event.envelope),
  status: 'succeeded',
  scheduledAttempts: 1,
  manualAttempts: 0,
  lastStatusCode: 200,
  lastDurationMs: 12,
  lastError: null,
  lastResponseExcerpt: 'ok',
  lastAttemptAt: event.envelope.timestamp,
  nextAttemptAt: null,
  createdAt: event.envelope.timestamp,
  updatedAt: event.envelope.timestamp,
});

/**
 * A table of format 2 as `npm start` left it: its stamp, a seller, and `count` events with their
 * deliveries written by today's code, then stripped of the index attributes the events API added
 * (the shape written before it). Answers the items as today's code writes them.
 */
async function oldShapeTable(count: number): Promise<{ table: Table; written: Item[] }> {
  const table = await freshTable('migrations');
  await table.put({ ...LOCAL_STAMP, entity: 'data-format', version: 1, format: BASELINE_FORMAT });
  await table.nextId('seller');
  const deliveries = createDeliveryRepository(table);
  for (let i = 0; i < count; i++) {
    const event = eventAt(i);
    await table.transact([outboxPut(event)]);
    await deliveries.createIfAbsent(deliveryOf(event));
  }
  const written = await allOf(table, count);
  for (let i = 0; i < count; i++) {
    const id = eventAt(i).envelope.id;
    await table.update({
      Key: keys.outboxEvent(id),
      UpdateExpression: 'REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk, resourceId',
    });
    await table.update({
      Key: keys.webhookDelivery(tenant, `whd_${id}`),
      UpdateExpression: 'REMOVE gsi2pk, gsi2sk',
    });
  }
  return { table, written };
}

async function allOf(table: Table, count: number): Promise<Item[]> {
  const ids = Array.from({ length: count }, (_, i) => eventAt(i).envelope.id);
  const found = await table.batchGet<Item>(
    ids.flatMap((id) => [keys.outboxEvent(id), keys.webhookDelivery(tenant, `whd_${id}`)]),
    { consistent: true },
  );
  return found.sort((a, b) => `${a.pk}${a.sk}`.localeCompare(`${b.pk}${b.sk}`));
}

const formatOf = async (table: Table) =>
  (await table.get<Item>(keys.migrationFormat(), { consistent: true }))?.format;

/** The event-log migration in one segment, `migrate` wrapped: the cases that count pages. */
function wrapped(wrap: (items: Item[], real: (items: Item[]) => Promise<void>) => Promise<void>): Migration {
  return {
    ...eventLogIndex,
    run: (ctx) =>
      eventLogIndex.run({
        ...ctx,
        eachPage: (source, migrate) =>
          ctx.eachPage({ ...source, segments: 1 }, (items) => wrap(items, migrate)),
      }),
  };
}

describe('the migration runner on DynamoDB Local', () => {
  it('lists migrations numbered on from the baseline format', () => {
    expect(MIGRATIONS.map((m) => m.id)).toEqual(MIGRATIONS.map((_, i) => BASELINE_FORMAT + 1 + i));
    expect(LATEST_FORMAT).toBe(MIGRATIONS.at(-1)?.id);
  });

  it('stamps a fresh table with the latest format and runs nothing', async () => {
    const table = await freshTable('migrations');
    const outcome = await runMigrations(table, { owner: 'a', clock: fakeClock() });
    expect(outcome).toEqual({ state: 'current', format: LATEST_FORMAT, ran: [], stamped: true });
    expect(await formatOf(table)).toBe(LATEST_FORMAT);
    expect(await table.get(keys.migration(3), { consistent: true })).toBeUndefined();
  });

  it('migrates data of format 2: the events API lists the old events and their deliveries', async () => {
    const { table, written } = await oldShapeTable(9);
    const log = createEventLog(table);
    const window = { from: '2026-11-28T00:00:00.000Z', to: '2026-11-28T23:59:59.999Z', limit: 50 };
    expect((await log.list(tenant, window)).items).toHaveLength(0);

    const outcome = await runMigrations(table, { owner: 'a', clock: fakeClock(), pageSize: 4 });
    expect(outcome).toEqual({ state: 'current', format: LATEST_FORMAT, ran: [3, 4, 5], stamped: true });
    // Every item is now exactly what today's code writes; the old stamp moved to the format item.
    expect(await allOf(table, 9)).toEqual(written);
    expect(await table.get(LOCAL_STAMP, { consistent: true })).toBeUndefined();
    expect(await formatOf(table)).toBe(LATEST_FORMAT);
    expect((await log.list(tenant, window)).items).toHaveLength(9);
    expect((await log.list(tenant, { ...window, type: 'transaction.paid' })).items).toHaveLength(4);
    expect((await log.get(tenant, 'evt_0003'))?.deliveries.map((d) => d.id)).toEqual(['whd_evt_0003']);
    expect(await table.get(keys.migration(3), { consistent: true })).toMatchObject({
      status: 'done',
      items: 18,
    });

    // Twice changes nothing more.
    expect(await runMigrations(table, { owner: 'b', clock: fakeClock() })).toEqual({
      state: 'current',
      format: LATEST_FORMAT,
      ran: [],
      stamped: false,
    });
    expect(await allOf(table, 9)).toEqual(written);
  });

  it('migrates provider connections and sandbox charges written before the reconciliation: both are listed', async () => {
    const table = await freshTable('migrations');
    await table.put({ ...LOCAL_STAMP, entity: 'data-format', version: 1, format: BASELINE_FORMAT });
    const connections = createProviderConnectionRepository(table);
    await connections.save({
      sellerId: 41,
      provider: 'asaas',
      environment: 'production',
      encryptedApiKey: 'sealed',
      apiKeyLast4: 'oXzQ',
      accountName: 'Loja 41',
      webhookTokenHash: 'a'.repeat(64),
      connectedAt: '2026-11-20T12:00:00.000Z',
    });
    const charge = { gatewayPayId: 512345678901234, sellerId: 41, createdAt: '2026-11-27T14:00:00.000Z' };
    await table.put({ ...sandboxChargeEntity.toItem(charge), method: 'pix', amount: 2500, status: 'paid' });
    const keysOfItems = [keys.providerConnection(41, 'asaas'), keys.sandboxCharge(charge.gatewayPayId)];
    const written = await table.batchGet<Item>(keysOfItems, { consistent: true });
    for (const key of keysOfItems)
      await table.update({ Key: key, UpdateExpression: 'REMOVE gsi1pk, gsi1sk' });
    expect((await connections.connectedSellers('asaas')).sellerIds).toEqual([]);

    const outcome = await runMigrations(table, { owner: 'a', clock: fakeClock(), pageSize: 1 });
    expect(outcome).toMatchObject({
      state: 'current',
      format: LATEST_FORMAT,
      ran: expect.arrayContaining([4]),
    });
    const sort = (items: Item[]) => items.sort((a, b) => `${a.pk}`.localeCompare(`${b.pk}`));
    expect(sort(await table.batchGet<Item>(keysOfItems, { consistent: true }))).toEqual(sort(written));
    expect((await connections.connectedSellers('asaas')).sellerIds).toEqual([41]);
    const byDay = sandboxChargeEntity.patterns.byDay;
    const listed = await table.query<Item>({
      IndexName: byDay.name,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': byDay.partitionKey },
      ExpressionAttributeValues: { ':pk': keys.sandboxChargesOfDay(41, '2026-11-27') },
    });
    expect(listed.items.map((i) => i.gatewayPayId)).toEqual([charge.gatewayPayId]);
  });

  it('resumes from its recorded cursor after a crash, once the lease of the dead runner ends', async () => {
    const { table, written } = await oldShapeTable(5);
    const clock = fakeClock();
    let pages = 0;
    let migratedBefore = 0;
    const crashing = wrapped(async (items, migrate) => {
      if (++pages === 3) throw new Error('killed');
      await migrate(items);
      migratedBefore += items.length;
    });
    await expect(
      runMigrations(table, { owner: 'dead', clock, pageSize: 2, migrations: [crashing] }),
    ).rejects.toThrow('killed');
    const afterCrash = await table.get<Item>(keys.migration(3), { consistent: true });
    expect(afterCrash).toMatchObject({
      status: 'running',
      leaseOwner: 'dead',
      pages: 2,
      items: migratedBefore,
    });
    expect(await formatOf(table)).toBe(2);

    const seen: Item[] = [];
    const counting = wrapped(async (items, migrate) => {
      seen.push(...items);
      await migrate(items);
    });
    // The lease still holds: a second runner keeps off.
    expect(
      await runMigrations(table, { owner: 'next', clock, pageSize: 2, migrations: [counting] }),
    ).toMatchObject({
      state: 'leased',
      migration: 3,
      owner: 'dead',
    });
    expect(seen).toEqual([]);
    clock.advance(60_001);
    expect(
      await runMigrations(table, { owner: 'next', clock, pageSize: 2, migrations: [counting] }),
    ).toMatchObject({
      state: 'current',
      format: 3,
      ran: [3],
    });
    // Only what followed the cursor was read again: the crashed page and the pages after it.
    expect(seen.length).toBe(10 - migratedBefore);
    expect(await allOf(table, 5)).toEqual(written);
  });

  it('pauses at its deadline with its cursor saved and its lease released, and goes on from there', async () => {
    const { table, written } = await oldShapeTable(4);
    const clock = fakeClock();
    let pages = 0;
    let seen = 0;
    const slow = wrapped(async (items, migrate) => {
      pages++;
      seen += items.length;
      clock.advance(1_000);
      await migrate(items);
    });
    const deadline = new Date(clock.now().getTime() + 1_500);
    expect(
      await runMigrations(table, { owner: 'lambda-1', clock, deadline, pageSize: 2, migrations: [slow] }),
    ).toEqual({ state: 'paused', format: 2, migration: 3 });
    expect(pages).toBe(2);
    expect(await table.get<Item>(keys.migration(3), { consistent: true })).not.toHaveProperty('leaseOwner');
    expect(
      await runMigrations(table, { owner: 'lambda-2', clock, pageSize: 2, migrations: [slow] }),
    ).toMatchObject({
      state: 'current',
      ran: [3],
    });
    // No page was read twice: the second run began at the saved cursor.
    expect(seen).toBe(8);
    expect(await allOf(table, 4)).toEqual(written);
  });

  it('lets one of two concurrent runners hold the lease; the other keeps off', async () => {
    const { table, written } = await oldShapeTable(3);
    const clock = fakeClock();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const held = wrapped(async (items, migrate) => {
      entered();
      await gate;
      await migrate(items);
    });
    const first = runMigrations(table, { owner: 'first', clock, migrations: [held] });
    await inside;
    expect(await runMigrations(table, { owner: 'second', clock, migrations: [held] })).toMatchObject({
      state: 'leased',
      owner: 'first',
    });
    release();
    expect(await first).toMatchObject({ state: 'current', ran: [3] });
    expect(await allOf(table, 3)).toEqual(written);
  });

  it('never brings back an item removed while its page was being migrated', async () => {
    const { table } = await oldShapeTable(2);
    const removing = wrapped(async (items, migrate) => {
      await table.delete(keys.outboxEvent('evt_0000'));
      await migrate(items);
    });
    await runMigrations(table, { owner: 'a', clock: fakeClock(), migrations: [removing] });
    expect(await table.get(keys.outboxEvent('evt_0000'), { consistent: true })).toBeUndefined();
    expect(await table.get<Item>(keys.outboxEvent('evt_0001'), { consistent: true })).toHaveProperty(
      'gsi1pk',
    );
  });

  it("pages through an index partition by Query, resuming from the cursor of the index's key", async () => {
    const { table } = await oldShapeTable(5);
    const clock = fakeClock();
    const seen: string[] = [];
    let crash = true;
    const byEndpoint: Migration = {
      id: 3,
      name: 'mark-deliveries',
      description: 'marks the deliveries of one endpoint',
      run: (ctx) =>
        ctx.eachPage(
          {
            query: {
              IndexName: 'gsi1',
              KeyConditionExpression: 'gsi1pk = :pk',
              ExpressionAttributeValues: { ':pk': keys.deliveriesOfEndpoint('we_1') },
            },
          },
          async (items) => {
            if (crash && seen.length === 2) throw new Error('killed');
            for (const item of items) {
              seen.push(String(item.id));
              await table.update({
                Key: { pk: item.pk, sk: item.sk },
                UpdateExpression: 'SET marked = :yes',
                ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(marked)',
                ExpressionAttributeValues: { ':yes': true },
              });
            }
          },
        ),
    };
    const options = { clock, pageSize: 2, migrations: [byEndpoint] };
    await expect(runMigrations(table, { ...options, owner: 'dead' })).rejects.toThrow('killed');
    crash = false;
    clock.advance(60_001);
    expect(await runMigrations(table, { ...options, owner: 'next' })).toMatchObject({
      state: 'current',
      ran: [3],
    });
    // Each delivery once: the second run began after the first page.
    expect(seen.sort()).toEqual(Array.from({ length: 5 }, (_, i) => `whd_${eventAt(i).envelope.id}`));
  });

  it('refuses a table of a newer format, and data with no format recorded', async () => {
    const newer = await freshTable('migrations');
    await newer.put({
      ...keys.migrationFormat(),
      entity: 'migration-format',
      version: 1,
      format: LATEST_FORMAT + 1,
    });
    const refusal = await runMigrations(newer, { owner: 'a', clock: fakeClock() }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(MigrationRefusedError);
    expect((refusal as Error).message).toContain(
      `format ${LATEST_FORMAT + 1}, newer than the format ${LATEST_FORMAT}`,
    );

    const unrecorded = await freshTable('migrations');
    await unrecorded.nextId('seller');
    const second = await runMigrations(unrecorded, { owner: 'a', clock: fakeClock() }).catch(
      (e: unknown) => e,
    );
    expect(second).toBeInstanceOf(MigrationRefusedError);
    expect((second as MigrationRefusedError).found).toBeNull();
    expect(await formatOf(unrecorded)).toBeUndefined();
  });
});
