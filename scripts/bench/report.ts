import { readFileSync } from 'node:fs';
import { COLD_RUNS, type ColdStart } from './cold-start';
import { type EndpointReport, type EndpointResult, REQUESTS, WARMUP } from './endpoints';
import type { JobStats, RenewalJob } from './renewal-job';
import type { BundleSize, SizeReport } from './sizes';

/** DESIGN.md section 7 and issue 33's budgets. */
export const BUDGETS = {
  authTrips: 1,
  readTrips: 2,
  writeTrips: 3,
  /** Cold start (CPU) against the bare handler's. */
  coldRatio: 1.3,
  /** A route's p50 over the raw GetItem's, against the same ratio in the baseline. */
  p50OverBaseline: 1.1,
};

/**
 * Each route's figures before the data-layer work (issue 33), from one full `npm run bench`:
 * round trips and p50 beside the raw GetItem of that run. A run compares its routes' `x raw`
 * with these, so two runs on machines of different speed still compare.
 */
export interface Baseline {
  generatedAt: string;
  rawGetItemP50Ms: number;
  routes: Record<string, { tripsMean: number; p50Ms: number; xRaw: number }>;
}
export const BASELINE: Baseline = JSON.parse(
  readFileSync(new URL('./baseline.json', import.meta.url), 'utf8'),
) as Baseline;

/** A run's figures in the baseline's shape (how baseline.json was made from a run's results.json). */
export function baselineOf(endpoints: EndpointReport, generatedAt: string): Baseline {
  const raw = endpoints.rawGetItem.p50Ms;
  const routes: Baseline['routes'] = {};
  for (const e of endpoints.endpoints) {
    if (!e.latency || !e.roundTrips) continue;
    routes[e.route] = {
      tripsMean: e.roundTrips.mean,
      p50Ms: e.latency.p50Ms,
      xRaw: Math.round((e.latency.p50Ms / raw) * 100) / 100,
    };
  }
  return { generatedAt, rawGetItemP50Ms: raw, routes };
}

export interface BudgetCheck {
  subject: string;
  budget: string;
  value: string;
  pass: boolean;
}

export interface BenchResults {
  generatedAt: string;
  node: string;
  /** BENCH_ONLY's words when the run measured only part (scripts/bench/filter.ts). */
  only?: string[];
  /** Absent when BENCH_ONLY left the bundles out. */
  sizes?: SizeReport;
  coldStarts?: ColdStart[];
  endpoints: EndpointReport;
  budgets: BudgetCheck[];
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const ms = (n: number) => n.toFixed(2);
const ratio = (a: number, b: number) => (b > 0 ? a / b : Number.NaN);
const verdict = (checks: BudgetCheck[]) => {
  const failed = checks.filter((c) => !c.pass);
  return failed.length === 0 ? 'PASS' : `FAIL: ${failed.map((c) => `${c.budget} (${c.value})`).join('; ')}`;
};

function coldChecks(cold: ColdStart, bare: ColdStart): BudgetCheck[] {
  // CPU time: wall time on a shared machine measures the neighbours (docs/decisions.md).
  const x = ratio(cold.cpuMedianMs, bare.cpuMedianMs);
  return [
    {
      subject: `cold start ${cold.name}`,
      budget: `<= ${BUDGETS.coldRatio}x bare`,
      value: `${x.toFixed(2)}x`,
      pass: x <= BUDGETS.coldRatio,
    },
  ];
}

/** This run's x raw over the baseline's: how much slower the route is than before, in the same terms. */
function overBaseline(e: EndpointResult, rawP50Ms: number): number | undefined {
  const before = BASELINE.routes[e.route];
  if (!before || !e.latency) return undefined;
  return e.latency.p50Ms / rawP50Ms / before.xRaw;
}

function endpointChecks(e: EndpointResult, rawP50Ms: number): BudgetCheck[] {
  const trips = e.roundTrips;
  if (!trips) return [];
  const over = overBaseline(e, rawP50Ms);
  const limit = e.kind === 'read' ? BUDGETS.readTrips : BUDGETS.writeTrips;
  const bad = Object.entries(e.unexpected).map(([status, n]) => `${n}x ${status}`);
  return [
    {
      subject: e.route,
      budget: 'auth+rate <= 1 trip',
      value: `max ${trips.authMax}`,
      pass: trips.authMax <= BUDGETS.authTrips,
    },
    {
      subject: e.route,
      budget: `${e.kind} <= ${limit} trips`,
      value: `max ${trips.max}`,
      pass: trips.max <= limit,
    },
    { subject: e.route, budget: 'no Scan', value: `${trips.scans} scans`, pass: trips.scans === 0 },
    { subject: e.route, budget: 'expected status', value: bad.join(', ') || 'all', pass: bad.length === 0 },
    ...(over === undefined
      ? []
      : [
          {
            subject: e.route,
            budget: `x raw <= ${BUDGETS.p50OverBaseline}x baseline`,
            value: `${over.toFixed(2)}x`,
            pass: over <= BUDGETS.p50OverBaseline,
          },
        ]),
  ];
}

export function evaluateBudgets(
  sizes: SizeReport | undefined,
  cold: ColdStart[] | undefined,
  endpoints: EndpointReport,
): BudgetCheck[] {
  const bareCold = sizes && cold?.find((c) => c.name === sizes.bare.name);
  return [
    ...(bareCold ? (cold ?? []).filter((c) => c !== bareCold).flatMap((c) => coldChecks(c, bareCold)) : []),
    ...endpoints.endpoints.flatMap((e) => endpointChecks(e, endpoints.rawGetItem.p50Ms)),
    {
      subject: 'whole run',
      budget: 'no Scan',
      value: endpoints.scanCommands.join(', ') || 'none',
      pass: endpoints.scanCommands.length === 0,
    },
  ];
}

/** Columns separated by two spaces; `align` has one letter per column, l or r. */
export function table(header: string[], rows: string[][], align: string): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (align[i] === 'r' ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const shortCommand = (name: string) => name.replace(/Command$/, '');

function bundlesTable(sizes: SizeReport): string {
  const { bare, functions } = sizes;
  const row = (s: BundleSize) => [
    s.name,
    kb(s.loadBytes),
    String(s.loadFiles),
    kb(s.totalBytes),
    String(s.totalFiles),
    ratio(s.loadBytes, bare.loadBytes).toFixed(2),
  ];
  return table(
    ['function', 'load KB', 'files', 'total KB', 'files', 'x bare'],
    [row(bare), ...functions.map(row)],
    'lrrrrr',
  );
}

function coldTable(sizes: SizeReport, coldStarts: ColdStart[]): string {
  const bare = coldStarts.find((c) => c.name === sizes.bare.name) as ColdStart;
  // The bytes a cold start reads sit beside its time, so a ratio can be told apart into code
  // loaded (size) and code run at module scope (time per KB).
  const bytesOf = new Map([sizes.bare, ...sizes.functions].map((s) => [s.name, s.loadBytes]));
  const rows = coldStarts.map((c) => {
    const bytes = bytesOf.get(c.name);
    return [
      c.name,
      ms(c.medianMs),
      ms(Math.min(...c.runsMs)),
      ms(Math.max(...c.runsMs)),
      ratio(c.medianMs, bare.medianMs).toFixed(2),
      ms(c.cpuMedianMs),
      ratio(c.cpuMedianMs, bare.cpuMedianMs).toFixed(2),
      bytes === undefined ? '-' : kb(bytes),
      bytes === undefined ? '-' : ratio(bytes, sizes.bare.loadBytes).toFixed(2),
      c.envNeeded.join(' ') || 'none',
      c === bare ? 'reference' : verdict(coldChecks(c, bare)),
    ];
  });
  return table(
    [
      'function',
      'median ms',
      'min',
      'max',
      'x bare',
      'cpu ms',
      'cpu x bare',
      'load KB',
      'KB x bare',
      'env needed',
      `budget on cpu x bare (<= ${BUDGETS.coldRatio}x)`,
    ],
    rows,
    'lrrrrrrrrll',
  );
}

/** p50 over the raw GetItem's p50: how many bare DynamoDB reads the whole request costs in time. */
const xRaw = (p50Ms: number, r: BenchResults) => ratio(p50Ms, r.endpoints.rawGetItem.p50Ms).toFixed(1);

function endpointsTable(r: BenchResults): string {
  const rawP50 = r.endpoints.rawGetItem.p50Ms;
  const rows = r.endpoints.endpoints.map((e) => {
    const t = e.roundTrips;
    if (!t || !e.latency)
      return [e.route, e.kind, 'no recipe', '', '', '', '', '', '', '', '', '', '', '', ''];
    const before = BASELINE.routes[e.route];
    const commands = Object.entries(t.byCommand)
      .map(([name, n]) => `${shortCommand(name)} ${n}`)
      .join(', ');
    return [
      e.route,
      e.kind,
      `${t.mean}/${t.max}`,
      `${t.authMean}/${t.authMax}`,
      `${t.handlerMean}/${t.handlerMax}`,
      commands || '-',
      t.providerMax > 0 ? `${t.providerMean}/${t.providerMax}` : '-',
      t.idsAheadMax > 0 ? `${t.idsAheadMean}/${t.idsAheadMax}` : '-',
      (t.nestedMax ?? 0) > 0 ? `${t.nestedMean}/${t.nestedMax}` : '-',
      ms(e.latency.p50Ms),
      xRaw(e.latency.p50Ms, r),
      before ? `${before.tripsMean}` : '-',
      before ? before.xRaw.toFixed(1) : '-',
      ms(e.latency.p99Ms),
      verdict(endpointChecks(e, rawP50)),
    ];
  });
  const raw = r.endpoints.rawGetItem;
  rows.push([
    'raw GetItem (no HTTP)',
    'read',
    '1/1',
    '',
    '',
    'GetItem 1',
    '-',
    '-',
    '-',
    ms(raw.p50Ms),
    '1.0',
    '1',
    '1.0',
    ms(raw.p99Ms),
    'reference',
  ]);
  return table(
    [
      'route',
      'kind',
      'trips avg/max',
      'auth+rate',
      'handler',
      'commands per request',
      'provider (apart)',
      'id block ahead (apart)',
      'requests it sent (apart)',
      'p50 ms',
      'x raw',
      'trips before',
      'x raw before',
      'p99 ms',
      'budget',
    ],
    rows,
    'llrrrlrrrrrrrrl',
  );
}

/** The bundle and cold-start tables; printed on their own when BENCH_ONLY measured no endpoint. */
export function bundleSections(sizes: SizeReport, coldStarts: ColdStart[]): string[] {
  return [
    'Bundles: esbuild, minified. "load" = entry + chunks imported statically (what a cold start reads);',
    '"total" adds the lazy import() chunks. x bare compares load sizes.',
    bundlesTable(sizes),
    '',
    `Cold module load: await import(bundle) in a fresh node process, ${COLD_RUNS} runs each (medians;`,
    'cpu = user + system time of the import, which the budgets use; load KB = what the import reads).',
    coldTable(sizes, coldStarts),
    '',
  ];
}

export function formatReport(r: BenchResults): string {
  const failed = r.budgets.filter((b) => !b.pass);
  const missing = r.endpoints.endpoints.filter((e) => !e.recipe).map((e) => e.route);
  const sections = [
    `npm run bench  (${r.generatedAt}, Node ${r.node})${r.only ? `  BENCH_ONLY=${r.only.join(',')}` : ''}`,
    '',
    ...(r.sizes && r.coldStarts ? bundleSections(r.sizes, r.coldStarts) : []),
    `Endpoints: ${REQUESTS} sequential requests after ${WARMUP} warm-up, fetch against the local runtime.`,
    'Round trips per request as avg/max; auth+rate = sent before the route handler ran, handler = the rest.',
    'x raw = p50 / the p50 of a raw GetItem on the same DynamoDB Local (last row); trips before and',
    `x raw before: the same figures in scripts/bench/baseline.json (${BASELINE.generatedAt}).`,
    endpointsTable(r),
    '',
    `Scan commands over the whole run: ${r.endpoints.scanCommands.join(', ') || 'none'}`,
    `DynamoDB Local stopped after the run: ${r.endpoints.dynamoLocalStopped ? 'yes' : 'NO, a java process is left'}`,
    `Routes without a recipe: ${missing.join(', ') || 'none'}`,
    `Recipes naming no route: ${r.endpoints.unusedRecipes.join(', ') || 'none'}`,
    '',
    `Budgets: ${r.budgets.length - failed.length} pass, ${failed.length} fail`,
    ...failed.map((b) => `  FAIL ${b.subject}: ${b.budget} (${b.value})`),
  ];
  return sections.join('\n');
}

const rounded = (_key: string, value: unknown) =>
  typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 100) / 100 : value;

/** Indented down to three levels; deeper or short values stay on one line, to paste into notes. */
function compactJson(value: unknown, depth = 0): string {
  const flat = JSON.stringify(value, rounded) ?? 'null';
  if (depth >= 3 || flat.length <= 120 || value === null || typeof value !== 'object') return flat;
  const pad = '  '.repeat(depth + 1);
  const close = '  '.repeat(depth);
  if (Array.isArray(value)) {
    return `[\n${value.map((v) => pad + compactJson(v, depth + 1)).join(',\n')}\n${close}]`;
  }
  const entries = Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${pad}${JSON.stringify(k)}: ${compactJson(v, depth + 1)}`);
  return `{\n${entries.join(',\n')}\n${close}}`;
}

export function formatJson(r: BenchResults): string {
  return ['----- BEGIN bench.json -----', compactJson(r), '----- END bench.json -----'].join('\n');
}

/**
 * Issue 12's "Done when": the round trips of a renewal job. The budget is a write's (<= 3 trips of
 * the service's own); the provider's table work is shown apart, as it is an HTTPS call in AWS.
 */
export function formatRenewalJob(r: RenewalJob): string {
  const row = (label: string, s: JobStats, budget: number | null) => [
    label,
    String(s.runs),
    Object.entries(s.outcomes)
      .map(([k, v]) => `${k} ${v}`)
      .join(', '),
    `${s.tripsMean}/${s.tripsMax}`,
    `${s.serviceMean}/${s.serviceMax}`,
    `${s.providerMean}/${s.providerMax}`,
    Object.entries(s.byCommand)
      .map(([name, n]) => `${name} ${n}`)
      .join(', '),
    ms(s.p50Ms),
    ms(s.maxMs),
    budget === null ? 'reference' : s.serviceMax <= budget ? 'PASS' : `FAIL: service <= ${budget} trips`,
  ];
  const rows = [
    row('renewal paid by saved card', r.paid, null),
    row('same job fired again', r.secondRun, 1),
    row('renewal declined (retry scheduled)', r.declined, null),
    row('same job twice at once (per pair)', r.concurrentPair, null),
  ];
  const charges =
    r.chargeTransactions === r.expectedChargeTransactions
      ? `${r.chargeTransactions}, as expected: no job charged twice`
      : `${r.chargeTransactions}, expected ${r.expectedChargeTransactions}: A JOB CHARGED TWICE OR NOT AT ALL`;
  return [
    `Renewal job: the jobs handler run with the scheduled \`subscription-due\` payload, ${r.renewals} runs each after warm-up,`,
    'each run alone (no background work). trips = every DynamoDB command; service = the subscription,',
    "transaction, outbox, counters and sequences; provider = the sandbox's own SANDBOX# items (an HTTPS call in AWS).",
    table(
      [
        'job run',
        'runs',
        'answered',
        'trips avg/max',
        'service',
        'provider',
        'commands per run',
        'p50 ms',
        'max ms',
        'budget',
      ],
      rows,
      'lrlrrrlrrl',
    ),
    `Card transactions of first payments and renewal attempts: ${charges}.`,
    `DynamoDB Local stopped after the run: ${r.dynamoLocalStopped ? 'yes' : 'NO, a java process is left'}`,
  ].join('\n');
}
