import { describe, expect, it } from 'vitest';
import {
  type BatchDeps,
  processDeliveryBatch,
  type QueuedRecord,
} from '#shared/domain/webhooks/delivery-batch';

const message = (deliveryId: string) =>
  JSON.stringify({ deliveryId, sellerId: 7, environment: 'test', attempt: 1 });

function depsWith(get: (id: string) => Promise<null>) {
  const malformed: string[] = [];
  const failures: string[] = [];
  const deps = {
    deliveries: { get: (_tenant: unknown, id: string) => get(id) },
    clock: { now: () => new Date('2026-11-23T12:00:00Z') },
    onMalformed: (record: QueuedRecord) => malformed.push(record.id),
    onFailure: (record: QueuedRecord) => failures.push(record.id),
  } as unknown as BatchDeps;
  return { deps, malformed, failures };
}

describe('a batch of delivery messages', () => {
  it('returns to the queue only the records whose attempt could not run, and drops malformed ones', async () => {
    const seen: string[] = [];
    const { deps, malformed, failures } = depsWith(async (id) => {
      seen.push(id);
      if (id === 'whd_broken') throw new Error('table unavailable');
      return null;
    });
    const failed = await processDeliveryBatch(deps, [
      { id: 'm1', body: message('whd_gone') },
      { id: 'm2', body: '{not json' },
      { id: 'm3', body: JSON.stringify({ deliveryId: '', sellerId: 7, environment: 'test', attempt: 1 }) },
      { id: 'm4', body: message('whd_broken') },
    ]);
    expect(failed).toEqual(['m4']);
    expect(malformed).toEqual(['m2', 'm3']);
    expect(failures).toEqual(['m4']);
    expect(seen).toEqual(['whd_gone', 'whd_broken']);
  });
});
