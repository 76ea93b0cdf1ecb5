import { describe, expect, it } from 'vitest';
import type { DynamoLocal } from '#infra/local/dynamodb-local';
import { DynamoPool, leaseDynamo } from '../support/dynamo-pool';

function fakeStarts() {
  const started: string[] = [];
  const stopped: string[] = [];
  let fail = false;
  const start = async (): Promise<DynamoLocal> => {
    if (fail) throw new Error('java is gone');
    const endpoint = `http://127.0.0.1:${9000 + started.length}`;
    started.push(endpoint);
    return { endpoint, port: 0, pid: undefined, stop: async () => void stopped.push(endpoint) };
  };
  return {
    start,
    started,
    stopped,
    failNext: () => {
      fail = true;
    },
  };
}

describe('DynamoPool', () => {
  it('leases a fresh instance per lease, keeps one started ahead, and stops a released one', async () => {
    const f = fakeStarts();
    const pool = new DynamoPool(f.start);
    pool.warm();
    const a = await pool.lease();
    const b = await pool.lease();
    expect(a).not.toBe(b);
    expect(f.started).toHaveLength(3); // a, b and the spare for the next lease
    await pool.release(a);
    await pool.release(a);
    expect(f.stopped).toEqual([a]);
    await pool.close();
    expect(f.stopped.sort()).toEqual([...f.started].sort());
    await expect(pool.lease()).rejects.toThrow('closed');
  });

  it('answers a failed start at the lease that takes it', async () => {
    const f = fakeStarts();
    f.failNext();
    const pool = new DynamoPool(f.start);
    await expect(pool.lease()).rejects.toThrow('java is gone');
    await pool.close();
  });

  it('serves lease and release over loopback HTTP for the workers', async () => {
    const f = fakeStarts();
    const pool = new DynamoPool(f.start);
    const { url, server } = await pool.serve();
    try {
      const lease = await leaseDynamo(url);
      expect(f.started).toContain(lease.endpoint);
      await lease.release();
      await lease.release();
      expect(f.stopped).toEqual([lease.endpoint]);
      const unknown = await fetch(`${url}/nope`, { method: 'POST' });
      expect(unknown.status).toBe(404);
    } finally {
      server.close();
      await pool.close();
    }
  });
});
