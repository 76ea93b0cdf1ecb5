import type { Runtime } from '#infra/local/runtime';
import { nestedIn, providerOnly } from '../../scripts/bench/provider-trips';
import type { client } from './runtime';

interface Sent {
  provider: boolean;
  /** runtime.currentRequest() when it was sent. */
  request: number | undefined;
}

/**
 * Counts the service's own DynamoDB round trips of one request, as the bench does: not the
 * commands that touch only the sandbox provider's items (a real provider keeps them elsewhere),
 * not an id block claimed ahead, and not those of a request the request sent to the service (the
 * sandbox's notification), which are that request's: counted apart as `nestedTrips`. Install it
 * once on the runtime, in useTestRuntime's callback.
 */
export function serviceTrips(runtime: Runtime) {
  let sent: Sent[] = [];
  runtime.deps.table.client.middlewareStack.add(
    (next) => async (args) => {
      // As runtime.roundTrips: the request log's drain is nobody's trip.
      if (runtime.counted())
        sent.push({ provider: providerOnly(args.input), request: runtime.currentRequest() });
      return next(args);
    },
    { step: 'initialize', name: 'testProviderTrips' },
  );
  return async function tripsOf<T>(work: () => Promise<T>): Promise<{
    trips: number;
    claimedAhead: number;
    providerTrips: number;
    nestedTrips: number;
    result: T;
  }> {
    const total = runtime.roundTrips.total;
    const ahead = runtime.deps.table.aheadClaims;
    sent = [];
    const result = await work();
    const claimedAhead = runtime.deps.table.aheadClaims - ahead;
    const isNested = nestedIn(sent);
    const providerTrips = sent.filter((s) => s.provider).length;
    const nestedTrips = sent.filter((s) => !s.provider && isNested(s)).length;
    // Work of no request at all (the runtime's heartbeat sweep, a queue consumer) that happened to
    // run meanwhile is nobody's trip: a request's own commands always carry its request id.
    const background = sent.filter((s) => !s.provider && s.request === undefined).length;
    return {
      trips: runtime.roundTrips.total - total - providerTrips - nestedTrips - claimedAhead - background,
      claimedAhead,
      /** The sandbox provider's own commands, counted apart. */
      providerTrips,
      /** The commands of requests it sent to the service, counted apart. */
      nestedTrips,
      result,
    };
  };
}

/**
 * Starts a fresh rate window (100 requests a minute per key or client address), aligned to its
 * start: on real time (the runtime's wall clock, skewed in process) and on the test clock.
 */
export async function freshRateWindow(runtime: Runtime, api: ReturnType<typeof client>): Promise<void> {
  const wall = runtime.wallClock.now().getTime();
  runtime.wallClock.skew((60_000 - (wall % 60_000)) / 1000 + 0.5);
  const now = Date.parse((await api.get('/api/test-helpers/clock')).body.now);
  await api.post('/api/test-helpers/clock/advance', { seconds: (60_000 - (now % 60_000)) / 1000 + 0.5 });
}
