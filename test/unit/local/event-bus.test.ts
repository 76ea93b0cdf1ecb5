import type { EventBridgeEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { LocalEventBus, matches } from '#infra/local/event-bus';
import { ManualClock } from './fake-clock';

const T0 = Date.parse('2026-11-21T12:00:00.000Z');
type Event = EventBridgeEvent<string, unknown>;

function setup() {
  const clock = new ManualClock(T0);
  const bus = new LocalEventBus(clock, 'payments-bus', null);
  return { clock, bus };
}

async function drain(bus: LocalEventBus, at: number) {
  while (await bus.runNext(new Date(at)).catch(() => true)) {}
}

describe('matches', () => {
  const event = { source: 'payment-service', 'detail-type': 'payment.paid' };

  it.each([
    [{}, true],
    [{ source: ['payment-service'] }, true],
    [{ source: ['other', 'payment-service'] }, true],
    [{ source: ['other'] }, false],
    [{ 'detail-type': ['payment.paid'] }, true],
    [{ 'detail-type': ['payment.refunded'] }, false],
    [{ source: ['payment-service'], 'detail-type': ['payment.paid'] }, true],
    [{ source: ['payment-service'], 'detail-type': ['payment.refunded'] }, false],
    [{ source: ['other'], 'detail-type': ['payment.paid'] }, false],
  ])('pattern %j matches: %s', (pattern, expected) => {
    expect(matches(pattern, event)).toBe(expected);
  });

  it('matches exact values only, not prefixes', () => {
    expect(matches({ 'detail-type': ['payment'] }, event)).toBe(false);
  });
});

describe('LocalEventBus delivery', () => {
  it('delivers an event to every rule whose pattern matches, as an EventBridge event', async () => {
    const { bus } = setup();
    const bySource: Event[] = [];
    const byType: Event[] = [];
    const other: Event[] = [];
    bus.addRule('by-source', { source: ['payment-service'] }, async (e) => bySource.push(e));
    bus.addRule('by-type', { 'detail-type': ['payment.paid'] }, async (e) => byType.push(e));
    bus.addRule('other', { source: ['billing'] }, async (e) => other.push(e));
    await bus.put([
      { source: 'payment-service', detailType: 'payment.paid', detail: { id: 'pay_1', amount: 4990 } },
    ]);
    expect(bus.nextDueAt()).toBe(T0);
    await drain(bus, T0);
    expect(other).toEqual([]);
    expect(bySource).toHaveLength(1);
    expect(byType).toHaveLength(1);
    expect(bySource[0]).toMatchObject({
      version: '0',
      source: 'payment-service',
      'detail-type': 'payment.paid',
      time: '2026-11-21T12:00:00.000Z',
      detail: { id: 'pay_1', amount: 4990 },
    });
    // One event fanned out to two rules keeps one id, as EventBridge does.
    expect(byType[0].id).toBe(bySource[0].id);
  });

  it('does nothing for an event no rule matches', async () => {
    const { bus } = setup();
    bus.addRule('r', { source: ['billing'] }, async () => {});
    await bus.put([{ source: 'payment-service', detailType: 'payment.paid', detail: {} }]);
    expect(bus.nextDueAt()).toBeUndefined();
    expect(await bus.runNext(new Date(T0))).toBe(false);
  });

  it('delivers a copy of the detail, as a JSON round trip', async () => {
    const { bus } = setup();
    const got: Event[] = [];
    bus.addRule('r', {}, async (e) => got.push(e));
    const detail = { at: new Date(T0), nested: { n: 1 } };
    await bus.put([{ source: 's', detailType: 't', detail }]);
    detail.nested.n = 2;
    await drain(bus, T0);
    expect(got[0].detail).toEqual({ at: '2026-11-21T12:00:00.000Z', nested: { n: 1 } });
  });
});

describe('LocalEventBus concurrency', () => {
  const putMany = (bus: LocalEventBus, n: number) =>
    bus.put(Array.from({ length: n }, (_, i) => ({ source: 's', detailType: 't', detail: { i } })));

  it('runs the due deliveries side by side, at most 20 at once, in one run', async () => {
    const { bus } = setup();
    let inFlight = 0;
    let most = 0;
    const seen: number[] = [];
    bus.addRule('r', {}, async (e) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      seen.push((e.detail as { i: number }).i);
      inFlight -= 1;
    });
    await putMany(bus, 50);
    expect(await bus.runNext(new Date(T0))).toBe(true);
    expect(most).toBe(20);
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(bus.nextDueAt()).toBeUndefined();
  });

  it('delivers the other events of a run when one target fails, then rethrows the failure', async () => {
    const { bus } = setup();
    const ok: number[] = [];
    bus.addRule('r', {}, async (e) => {
      const { i } = e.detail as { i: number };
      if (i === 2) throw new Error('target down');
      ok.push(i);
    });
    await putMany(bus, 5);
    await expect(bus.runNext(new Date(T0))).rejects.toThrow('target down');
    expect(ok.sort()).toEqual([0, 1, 3, 4]);
    expect(bus.nextDueAt()).toBe(T0 + 2_000);
  });
});

describe('LocalEventBus retries', () => {
  it('retries a failing target with exponential backoff: 2 s, then 4 s, then 8 s', async () => {
    const { bus } = setup();
    let failures = 3;
    const deliveries: number[] = [];
    let now = T0;
    bus.addRule('r', {}, async () => {
      deliveries.push(now);
      if (failures-- > 0) throw new Error('target down');
    });
    await bus.put([{ source: 's', detailType: 't', detail: {} }]);
    await expect(bus.runNext(new Date(now))).rejects.toThrow('target down');
    expect(bus.nextDueAt()).toBe(T0 + 2_000);
    expect(await bus.runNext(new Date(T0 + 1_999))).toBe(false);
    now = T0 + 2_000;
    await expect(bus.runNext(new Date(now))).rejects.toThrow();
    expect(bus.nextDueAt()).toBe(T0 + 6_000);
    now = T0 + 6_000;
    await expect(bus.runNext(new Date(now))).rejects.toThrow();
    expect(bus.nextDueAt()).toBe(T0 + 14_000);
    now = T0 + 14_000;
    expect(await bus.runNext(new Date(now))).toBe(true);
    expect(deliveries).toEqual([T0, T0 + 2_000, T0 + 6_000, T0 + 14_000]);
    expect(bus.nextDueAt()).toBeUndefined();
    expect(bus.failed).toEqual([]);
  });

  it('caps the backoff at 300 s and gives up after 185 attempts', async () => {
    const { bus } = setup();
    let attempts = 0;
    bus.addRule('r', {}, async () => {
      attempts++;
      throw new Error('down');
    });
    await bus.put([{ source: 's', detailType: 't', detail: {} }]);
    let previous = T0;
    let largestGap = 0;
    for (let due = bus.nextDueAt(); due !== undefined; due = bus.nextDueAt()) {
      largestGap = Math.max(largestGap, due - previous);
      previous = due;
      await bus.runNext(new Date(due)).catch(() => undefined);
    }
    expect(attempts).toBe(185);
    expect(largestGap).toBe(300_000);
    expect(bus.failed).toHaveLength(1);
    expect(bus.failed[0]).toMatchObject({ rule: 'r', attempts: 185 });
  });

  it('gives up on an event older than 24 hours', async () => {
    const { bus } = setup();
    bus.addRule('r', {}, async () => {
      throw new Error('down');
    });
    await bus.put([{ source: 's', detailType: 't', detail: {} }]);
    await expect(bus.runNext(new Date(T0 + 86_400_001))).rejects.toThrow('down');
    expect(bus.nextDueAt()).toBeUndefined();
    expect(bus.failed).toHaveLength(1);
  });

  it('retries only the rule whose target failed', async () => {
    const { bus } = setup();
    const ok: Event[] = [];
    bus.addRule('ok', {}, async (e) => ok.push(e));
    bus.addRule('bad', {}, async () => {
      throw new Error('down');
    });
    await bus.put([{ source: 's', detailType: 't', detail: {} }]);
    await drain(bus, T0);
    expect(ok).toHaveLength(1);
    expect(bus.nextDueAt()).toBe(T0 + 2_000);
    await drain(bus, T0 + 2_000);
    expect(ok).toHaveLength(1);
  });
});
