import { describe, expect, it } from 'vitest';
import {
  type BatchDeps,
  processDeliveryBatch,
  type QueuedRecord,
} from '#shared/domain/webhooks/delivery-batch';

const message = (deliveryId: string) =>
  JSON.stringify({ deliveryId, sellerId: 7, environment: 'test', attempt: 1 });

/** The batch read fails whenever a record's own read would (an id starting whd_bad). */
function depsWith(get: (id: string) => Promise<null>) {
  const malformed: string[] = [];
  const failures: string[] = [];
  const batches: string[][] = [];
  const deps = {
    deliveries: {
      getWithEndpoint: async (_tenant: unknown, id: string) => ({ delivery: await get(id), endpoint: null }),
      getManyWithEndpoints: async (refs: { id: string }[]) => {
        batches.push(refs.map((r) => r.id));
        if (refs.some((r) => r.id.startsWith('whd_bad'))) throw new Error('table unavailable');
        return refs.map(() => ({ delivery: null, endpoint: null }));
      },
    },
    clock: { now: () => new Date('2026-11-23T12:00:00Z') },
    onMalformed: (record: QueuedRecord) => malformed.push(record.id),
    onFailure: (record: QueuedRecord) => failures.push(record.id),
  } as unknown as BatchDeps;
  return { deps, malformed, failures, batches };
}

describe('a batch of delivery messages', () => {
  it('reads the deliveries and endpoints of the whole batch in one read', async () => {
    const seen: string[] = [];
    const { deps, batches } = depsWith(async (id) => {
      seen.push(id);
      return null;
    });
    const ids = Array.from({ length: 10 }, (_, i) => `whd_ok_${String(i).padStart(16, '0')}`);
    const failed = await processDeliveryBatch(deps, [
      ...ids.map((id, i) => ({ id: `m${i}`, body: message(id) })),
      { id: 'bad', body: '{not json' },
    ]);
    expect(failed).toEqual([]);
    expect(batches).toEqual([ids]);
    expect(seen).toEqual([]);
  });

  it('returns to the queue only the records whose attempt could not run, and drops malformed ones', async () => {
    const seen: string[] = [];
    const { deps, malformed, failures } = depsWith(async (id) => {
      seen.push(id);
      if (id === 'whd_bad_0123456789abcdef') throw new Error('table unavailable');
      return null;
    });
    const failed = await processDeliveryBatch(deps, [
      { id: 'm1', body: message('whd_abc_0123456789abcdef') },
      { id: 'm2', body: '{not json' },
      { id: 'm3', body: JSON.stringify({ deliveryId: '', sellerId: 7, environment: 'test', attempt: 1 }) },
      { id: 'm4', body: message('whd_bad_0123456789abcdef') },
    ]);
    expect(failed).toEqual(['m4']);
    expect(malformed).toEqual(['m2', 'm3']);
    expect(failures).toEqual(['m4']);
    // The batch read failed, so each record read its own: only m4's failed.
    expect(seen).toEqual(['whd_abc_0123456789abcdef', 'whd_bad_0123456789abcdef']);
  });

  it('runs the records side by side and answers the failed ones in batch order', async () => {
    const started: string[] = [];
    const release: Array<() => void> = [];
    const { deps, failures } = depsWith((id) => {
      started.push(id);
      return new Promise((ok, fail) =>
        release.push(() => (id.startsWith('whd_bad') ? fail(new Error('down')) : ok(null))),
      );
    });
    const ids = ['whd_bad_0000000000000001', 'whd_ok_0000000000000002', 'whd_bad_0000000000000003'];
    const batch = processDeliveryBatch(
      deps,
      ids.map((id, i) => ({ id: `m${i}`, body: message(id) })),
    );
    // Every record's read has started before any of them is answered.
    for (let i = 0; i < 5 && started.length < 3; i++) await new Promise((r) => setImmediate(r));
    expect(started).toEqual(ids);
    for (const done of release.reverse()) done();
    expect(await batch).toEqual(['m0', 'm2']);
    expect(failures.sort()).toEqual(['m0', 'm2']);
  });
});
