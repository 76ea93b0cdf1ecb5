/**
 * `BENCH_ONLY=word,word npm run bench`: measures only what one of the words names, to look at a
 * few routes without the whole run. A route is kept when a word occurs in its group's name or in
 * its route key (`BENCH_ONLY=subscription` keeps the subscriptions group, and `BENCH_ONLY=portal`
 * the portal group, GET /portal and the portal configuration routes); the bundle sizes and cold
 * starts run when a word occurs in their phase's name (`BENCH_ONLY=cold`); the endpoints run when
 * a route is kept. Unset or empty: everything.
 */
export interface BenchFilter {
  /** No filter: every route and every phase. */
  all: boolean;
  words: string[];
  route(group: string, routeKey: string): boolean;
  phase(name: Phase): boolean;
}

/** The phases of `npm run bench` by name; a BENCH_ONLY word selects those whose name contains it. */
export const PHASES = ['sizes and cold starts'] as const;
export type Phase = (typeof PHASES)[number];

/** The long phases, each run by its own script (`npm run bench:load`, ...: scripts/bench-phase.ts). */
export const LONG_PHASES = [
  'listing transactions',
  'listing subscriptions',
  'listing scheduled charges',
  'event throughput',
  'clock advance',
  'renewal job',
  'load test',
] as const;
export type LongPhase = (typeof LONG_PHASES)[number];

export function benchFilter(value: string | undefined): BenchFilter {
  const words = (value ?? '')
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter(Boolean);
  const all = words.length === 0;
  const named = (text: string) => all || words.some((w) => text.toLowerCase().includes(w));
  return {
    all,
    words,
    route: (group, routeKey) => named(group) || named(routeKey),
    phase: (name) => named(name),
  };
}
