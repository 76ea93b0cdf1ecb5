/**
 * `BENCH_ONLY=word,word npm run bench`: measures only what one of the words names, to look at a
 * few routes without the whole ~12 minute run. A route is kept when a word occurs in its group's
 * name or in its route key (`BENCH_ONLY=subscription` keeps the subscriptions group, and
 * `BENCH_ONLY=portal` the portal group, GET /portal and the portal configuration routes); a phase
 * (bundle sizes and cold starts, the listing costs, throughput, the clock, the renewal job, the
 * load test) runs
 * when a word occurs in its name (see PHASES); the endpoints run when a route is kept. Unset or
 * empty: everything, as before.
 */
export interface BenchFilter {
  /** No filter: every route and every phase. */
  all: boolean;
  words: string[];
  route(group: string, routeKey: string): boolean;
  phase(name: Phase): boolean;
}

/** The bench's phases by name; a BENCH_ONLY word selects those whose name contains it. */
export const PHASES = [
  'sizes and cold starts',
  'listing transactions',
  'listing subscriptions',
  'listing scheduled charges',
  'event throughput',
  'clock advance',
  'renewal job',
  'load test',
] as const;
export type Phase = (typeof PHASES)[number];

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
