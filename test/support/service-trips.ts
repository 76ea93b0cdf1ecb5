import type { Runtime } from '../../infra/local/runtime';
import { PROVIDER_PREFIX, partitionKeys } from '../../scripts/bench/provider-trips';
import type { client } from './runtime';

/**
 * Counts the service's own DynamoDB round trips of one request, as the bench does: not the
 * commands that touch only the sandbox provider's items (a real provider keeps them elsewhere),
 * not an id block claimed ahead. Install it once on the runtime, in useTestRuntime's callback.
 */
export function serviceTrips(runtime: Runtime) {
  let providerTrips = 0;
  runtime.deps.table.client.middlewareStack.add(
    (next) => async (args) => {
      const pks = partitionKeys(args.input);
      if (pks.length > 0 && pks.every((pk) => pk.startsWith(PROVIDER_PREFIX))) providerTrips += 1;
      return next(args);
    },
    { step: 'initialize', name: 'testProviderTrips' },
  );
  return async function tripsOf<T>(
    work: () => Promise<T>,
  ): Promise<{ trips: number; claimedAhead: number; providerTrips: number; result: T }> {
    const total = runtime.roundTrips.total;
    const provider = providerTrips;
    const ahead = runtime.deps.table.aheadClaims;
    const result = await work();
    const claimedAhead = runtime.deps.table.aheadClaims - ahead;
    return {
      trips: runtime.roundTrips.total - total - (providerTrips - provider) - claimedAhead,
      claimedAhead,
      /** The sandbox provider's own commands, counted apart. */
      providerTrips: providerTrips - provider,
      result,
    };
  };
}

/** Starts a fresh rate window (100 requests a minute per key or client address) on the test clock. */
export async function freshRateWindow(api: ReturnType<typeof client>): Promise<void> {
  const now = Date.parse((await api.get('/api/test-helpers/clock')).body.now);
  await api.post('/api/test-helpers/clock/advance', { seconds: (60_000 - (now % 60_000)) / 1000 + 0.5 });
}
