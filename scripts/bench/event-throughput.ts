import { createServer } from 'node:http';
import { startRuntime } from '../../infra/local/runtime';
import { createApiKey } from '../../shared/domain/auth/api-keys';
import { newEvent } from '../../shared/domain/events/events';
import { createEndpoint } from '../../shared/domain/webhooks/endpoints';
import { configureLogs } from '../../shared/logger';
import {
  type CpuShare,
  cpuMeter,
  formatCpuShare,
  formatJitWarmUp,
  type JitWarmUp,
  warmUntilJitSettles,
} from './process-cpu';

export interface EventThroughput {
  events: number;
  /** Outbox write to signed delivery accepted by the receiver, through stream, bus, fan-out queue, fan-out and delivery queue. */
  eventsPerSecond: number;
  /** The target the local runtime must sustain (issue 17). */
  targetEventsPerSecond: number;
  /** Plain sequential POSTs of the same body from this process to the same receiver. */
  rawPostsPerSecond: number;
  /** The same POSTs with as many in flight as the queue's consumers can have (10 batches of 10). */
  rawParallelPostsPerSecond: number;
  /** DynamoDB requests of the fan-out and delivery functions per delivered event (outbox writes excluded). */
  deliveryRoundTripsPerEvent: number;
  /** The same requests by command, over the whole run. */
  deliveryRoundTrips: Record<string, number>;
  /** Events delivered before the measurement, and how DynamoDB Local's JIT stood after them. */
  warmUp: { events: number } & JitWarmUp;
  /**
   * The local stream poller's GetRecords calls per delivered event and the records they returned
   * (every write of the table, deliveries included); on AWS, Lambda's poller makes these.
   */
  streamReads: { callsPerEvent: number; recordsPerEvent: number };
  /** Where the CPU went per delivered event (outbox write to accepted POST, the receiver included). */
  cpu: CpuShare;
  dynamoLocalStopped: boolean;
}

const EVENTS = 6_000;
/**
 * Events delivered first, unmeasured, in rounds of this many until DynamoDB Local's JIT settled
 * (warmUntilJitSettles), at most WARMUP_MAX_ROUNDS: DynamoDB Local stands in for a service that is
 * always warm, and its JVM compiles its hot paths with C2 for a minute or more of load.
 */
const WARMUP_ROUND_EVENTS = 2_000;
const WARMUP_MAX_ROUNDS = 15;
const TARGET_EVENTS_PER_SECOND = 300;
/** Batch size times maximum concurrency of the delivery queue's consumers. */
const IN_FLIGHT = 100;

/**
 * Events delivered per second to a local receiver with one endpoint subscribed to everything,
 * next to raw HTTP POSTs per second from the same process (sequential and with the consumers'
 * concurrency), and the DynamoDB round trips the pipeline's functions made per event.
 */
export async function measureEventThroughput(): Promise<EventThroughput> {
  configureLogs({ level: 'silent' });
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  const address = receiver.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
  const runtime = await startRuntime({
    port: 0,
    dataDir: null,
    logLevel: 'silent',
    tableName: 'bench-events',
    tickMs: 20,
    dynamoJit: 'long',
  });
  try {
    const { deps } = runtime;
    const tenant = { sellerId: 777_001, environment: 'test' as const };
    await createApiKey({ apiKeys: deps.repos.apiKeys, clock: deps.clock, ids: deps.ids }, tenant.sellerId, {
      name: 'bench',
      environment: 'test',
    });
    await createEndpoint(
      { endpoints: deps.repos.webhookEndpoints, clock: deps.clock, ids: deps.ids, urlPolicy: deps.urlPolicy },
      tenant,
      { url, events: ['*'] },
    );
    const data = (i: number) => ({ id: `bench_${i}`, updatedAt: deps.clock.now().toISOString() });
    /** Writes `count` events to the outbox, 25 per transaction, and ticks until they were received. */
    const deliver = async (count: number) => {
      const target = received + count;
      let writes = 0;
      for (let i = 0; i < count; i += 25) {
        const batch = Array.from({ length: Math.min(25, count - i) }, (_, k) =>
          newEvent(deps, tenant, 'product.updated', data(i + k)),
        );
        await deps.repos.outbox.write(batch);
        writes += 1;
      }
      const deadline = Date.now() + 120_000;
      while (received < target && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      return writes;
    };
    const jit = await warmUntilJitSettles(
      runtime.dynamo?.pid,
      async () => {
        await deliver(WARMUP_ROUND_EVENTS);
      },
      WARMUP_MAX_ROUNDS,
    );
    const warmedUp = received;
    const before = { ...runtime.roundTrips.byCommand };
    const readsBefore = { ...runtime.streams.reads };
    const meter = cpuMeter(runtime.dynamo?.pid);
    const started = performance.now();
    const outboxWrites = await deliver(EVENTS);
    const eventsSeconds = (performance.now() - started) / 1000;
    const delivered = received - warmedUp;
    const cpu = meter.stop(delivered, TARGET_EVENTS_PER_SECOND);
    const deliveryRoundTrips: Record<string, number> = {};
    for (const [command, count] of Object.entries(runtime.roundTrips.byCommand)) {
      const own =
        count - (before[command] ?? 0) - (command === 'TransactWriteItemsCommand' ? outboxWrites : 0);
      if (own > 0) deliveryRoundTrips[command] = own;
    }
    const pipelineTrips = Object.values(deliveryRoundTrips).reduce((a, b) => a + b, 0);

    const body = JSON.stringify({
      id: 'evt_raw',
      event: 'product.updated',
      timestamp: new Date().toISOString(),
      data: data(0),
    });
    const rawStarted = performance.now();
    for (let i = 0; i < EVENTS; i++) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await res.body?.cancel();
    }
    const rawSeconds = (performance.now() - rawStarted) / 1000;
    let next = 0;
    const post = async () => {
      while (next++ < EVENTS) {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        await res.body?.cancel();
      }
    };
    const parallelStarted = performance.now();
    await Promise.all(Array.from({ length: IN_FLIGHT }, post));
    const parallelSeconds = (performance.now() - parallelStarted) / 1000;
    const rate = (n: number, seconds: number) => Math.round((n / seconds) * 10) / 10;
    const perEvent = (n: number) => Math.round((n / Math.max(1, delivered)) * 100) / 100;
    return {
      events: delivered,
      eventsPerSecond: rate(delivered, eventsSeconds),
      targetEventsPerSecond: TARGET_EVENTS_PER_SECOND,
      rawPostsPerSecond: rate(EVENTS, rawSeconds),
      rawParallelPostsPerSecond: rate(EVENTS, parallelSeconds),
      deliveryRoundTripsPerEvent: Math.round((pipelineTrips / Math.max(1, delivered)) * 100) / 100,
      deliveryRoundTrips,
      warmUp: { events: warmedUp, ...jit },
      streamReads: {
        callsPerEvent: perEvent(runtime.streams.reads.calls - readsBefore.calls),
        recordsPerEvent: perEvent(runtime.streams.reads.records - readsBefore.records),
      },
      cpu,
      dynamoLocalStopped: true,
    };
  } finally {
    await runtime.stop();
    await new Promise<void>((r) => receiver.close(() => r()));
  }
}

export function formatEventThroughput(t: EventThroughput): string {
  return [
    `Webhook delivery throughput (outbox -> stream -> bus -> fan-out queue -> fan-out -> delivery queue -> signed POST), one local receiver, after ${t.warmUp.events} events unmeasured (${formatJitWarmUp(t.warmUp)}):`,
    `  events delivered: ${t.events} at ${t.eventsPerSecond} events/s (target >= ${t.targetEventsPerSecond}: ${t.eventsPerSecond >= t.targetEventsPerSecond ? 'ok' : 'FAIL'})`,
    `  raw POSTs from this process: ${t.rawPostsPerSecond}/s sequential, ${t.rawParallelPostsPerSecond}/s with ${IN_FLIGHT} in flight`,
    `  DynamoDB round trips per event, fan-out and delivery: ${t.deliveryRoundTripsPerEvent} (${Object.entries(
      t.deliveryRoundTrips,
    )
      .map(([command, n]) => `${command.replace(/Command$/, '')} ${n}`)
      .join(', ')})`,
    `  stream reads (Lambda's poller on AWS): ${t.streamReads.callsPerEvent} GetRecords per event, returning ${t.streamReads.recordsPerEvent} records per event`,
    formatCpuShare(t.cpu, 'event', t.targetEventsPerSecond),
  ].join('\n');
}
