import { AsyncLocalStorage } from 'node:async_hooks';
import type { Clock, ClockScope } from '#shared/domain/ports';

export const systemClock: Clock = { now: () => new Date() };

const scope = new AsyncLocalStorage<{ clockId: string; time: () => Date }>();

/**
 * The test clock scope of the work in progress (async context): a sandbox test clock's advance and
 * the creations of a customer on a clock run inside it (shared/domain/test-clocks).
 */
export const clockScope: ClockScope = {
  current: () => scope.getStore()?.clockId ?? null,
  run: (clockId, time, work) => scope.run({ clockId, time }, work),
  outside: (work) => scope.exit(work),
};

/** The business clock: `base` (real time, or the local runtime's global clock) unless a test clock's scope is open. */
export function scopedClock(base: Clock): Clock {
  return { now: () => scope.getStore()?.time() ?? base.now() };
}
