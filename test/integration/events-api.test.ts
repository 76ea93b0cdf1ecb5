import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { sellerFixtures } from '../support/fixtures';
import { eventually, Receiver } from '../support/receiver';
import { type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});
let receiver: Receiver;
beforeEach(async () => {
  receiver = await new Receiver().start();
});
afterEach(() => receiver.stop());

const fixtures = sellerFixtures(() => ({ runtime, api }), 81_000);
/** A seller of its own: a write key, a read-only key and its dashboard token, all sandbox. */
async function seller() {
  const { jwt, key } = await fixtures.seller({ permissions: 'write' });
  const read = await fixtures.apiKey(jwt, { name: `read-${Math.random()}`, permissions: 'read' });
  return { jwt, key, readKey: read.key };
}

const product = (key: string, name: string) =>
  api.post('/api/products', { name, image: 'https://cdn.example.com/p.png', value: 19.9 }, { token: key });

describe('GET /api/events', () => {
  it('lists a tenant’s events newest first, by type, by resource and by time, in cursor pages', async () => {
    const s = await seller();
    const a = (await product(s.key, 'A')).body;
    const b = (await product(s.key, 'B')).body;
    expect((await api.patch(`/api/products/${a.id}`, { name: 'A2' }, { token: s.key })).status).toBe(200);

    const all = await api.get('/api/events', { token: s.readKey });
    expect(all.status).toBe(200);
    expect(all.body.data.map((e: { event: string }) => e.event)).toEqual([
      'product.updated',
      'product.created',
      'product.created',
    ]);
    expect(all.body.data[0]).toMatchObject({ id: expect.stringMatching(/^evt_/), data: { id: a.id } });

    const created = await api.get('/api/events?type=product.created', { token: s.key });
    expect(created.body.data.map((e: { data: { id: number } }) => e.data.id)).toEqual([b.id, a.id]);
    const aboutA = await api.get(`/api/events?resourceId=${a.id}`, { token: s.key });
    expect(aboutA.body.data.map((e: { event: string }) => e.event)).toEqual([
      'product.updated',
      'product.created',
    ]);

    const first = await api.get('/api/events?limit=2', { token: s.key });
    expect(first.body.data).toHaveLength(2);
    const second = await api.get(`/api/events?limit=2&cursor=${first.body.nextCursor}`, { token: s.key });
    expect(second.body).toMatchObject({ data: [{ data: { id: a.id } }], nextCursor: null });

    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    const inTwo = new Date(Date.now() + 7_200_000).toISOString();
    expect((await api.get(`/api/events?from=${inAnHour}&to=${inTwo}`, { token: s.key })).body.data).toEqual(
      [],
    );
    const reversed = await api.get(`/api/events?from=${inTwo}&to=${inAnHour}`, { token: s.key });
    expect(reversed).toMatchObject({ status: 400, body: { message: ['from must not be after to'] } });
    const bad = await api.get('/api/events?type=no.such.event&from=yesterday', { token: s.key });
    expect(bad.status).toBe(400);
    expect(bad.body.message.join(' ')).toMatch(/type/);
    expect(bad.body.message.join(' ')).toMatch(/from/);
  });

  it('answers the dashboard token too, scoped to its environment', async () => {
    const s = await seller();
    await product(s.key, 'C');
    const test = await api.get('/api/events', { token: s.jwt, headers: { 'x-environment': 'test' } });
    expect(test.body.data).toHaveLength(1);
    const live = await api.get('/api/events', { token: s.jwt });
    expect(live.body.data).toEqual([]);
  });
});

describe('GET /api/events/{id}', () => {
  it('shows each delivery of the event, and another seller’s event answers as a missing one', async () => {
    const s = await seller();
    const endpoint = await api.post(
      '/api/webhook-endpoints',
      { url: receiver.url, events: ['*'] },
      { token: s.key },
    );
    expect(endpoint.status).toBe(201);
    const p = (await product(s.key, 'D')).body;
    const [event] = (await api.get('/api/events', { token: s.key })).body.data;
    expect(event.data.id).toBe(p.id);
    await eventually(async () => {
      const res = await api.get(`/api/events/${event.id}`, { token: s.readKey });
      return res.body.deliveries?.[0]?.status === 'succeeded';
    });
    const detail = await api.get(`/api/events/${event.id}`, { token: s.key });
    expect(detail.body).toMatchObject({
      id: event.id,
      event: 'product.created',
      deliveries: [{ endpointId: endpoint.body.id, eventId: event.id, status: 'succeeded', attemptCount: 1 }],
    });

    const other = await seller();
    const foreign = await api.get(`/api/events/${event.id}`, { token: other.key });
    const missing = await api.get('/api/events/evt_AAAAAAAAAAAAAAAAAAAAAAAA', { token: other.key });
    expect(foreign.status).toBe(404);
    expect({ ...foreign.body, timestamp: null, path: null }).toEqual({
      ...missing.body,
      timestamp: null,
      path: null,
    });
    expect((await api.get('/api/events/not-an-id', { token: s.key })).status).toBe(404);
  });
});
