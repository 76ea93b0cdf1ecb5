import { Agent, request } from 'node:http';

/**
 * The load test's second process (forked by load-test.ts): sends the planned requests open-loop,
 * each at its own slot of a fixed rate whether or not earlier ones were answered, and reports
 * every request's status and latency. Loopback only: every address is 127.x.x.x.
 */

export interface PlannedRequest {
  /** The route as in the route table (METHOD /path/{param}), for the per-route counts. */
  route: string;
  method: string;
  path: string;
  /** An API key; a public route has none and is told apart by its source address. */
  token?: string;
  body?: unknown;
  /** Loopback source address the connection is made from (the public routes' rate-limit principal). */
  localAddress: string;
  /** Statuses that count as success. */
  expect: number[];
}

export interface LoadPlan {
  baseUrl: string;
  ratePerSecond: number;
  requests: PlannedRequest[];
}

export interface Outcome {
  route: string;
  status: number;
  /** Send to last byte of the answer, in ms. */
  latencyMs: number;
  /** How late the request left after its slot (a saturated client would show it here). */
  lagMs: number;
  error?: string;
}

const agents = new Map<string, Agent>();
const agentFor = (localAddress: string) => {
  let agent = agents.get(localAddress);
  if (!agent) {
    agent = new Agent({ keepAlive: true, localAddress });
    agents.set(localAddress, agent);
  }
  return agent;
};

function send(baseUrl: string, r: PlannedRequest): Promise<{ status: number; error?: string }> {
  const body = r.body === undefined ? undefined : JSON.stringify(r.body);
  const headers: Record<string, string> = {};
  if (r.token) headers.authorization = `Bearer ${r.token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return new Promise((ok) => {
    const req = request(
      new URL(r.path, baseUrl),
      { method: r.method, headers, agent: agentFor(r.localAddress) },
      (res) => {
        res.resume();
        res.on('end', () => ok({ status: res.statusCode ?? 0 }));
        res.on('error', (error) => ok({ status: 0, error: String(error) }));
      },
    );
    req.on('error', (error) => ok({ status: 0, error: String(error) }));
    req.end(body);
  });
}

export async function runPlan(plan: LoadPlan): Promise<Outcome[]> {
  const intervalMs = 1000 / plan.ratePerSecond;
  const started = performance.now();
  const pending: Promise<Outcome>[] = [];
  let next = 0;
  while (next < plan.requests.length) {
    const now = performance.now() - started;
    // Every slot that has come: late slots are sent at once, never skipped (open loop).
    while (next < plan.requests.length && next * intervalMs <= now) {
      const r = plan.requests[next];
      const slot = next * intervalMs;
      next += 1;
      const sentAt = performance.now();
      pending.push(
        send(plan.baseUrl, r).then(({ status, error }) => ({
          route: r.route,
          status,
          latencyMs: performance.now() - sentAt,
          lagMs: sentAt - started - slot,
          ...(error ? { error } : {}),
        })),
      );
    }
    const wait = next * intervalMs - (performance.now() - started);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  const outcomes = await Promise.all(pending);
  for (const agent of agents.values()) agent.destroy();
  return outcomes;
}

// Forked: one plan in, the outcomes out, then leave.
if (process.send) {
  process.once('message', (plan: LoadPlan) => {
    const cpu = process.cpuUsage();
    runPlan(plan).then(
      (outcomes) => {
        const used = process.cpuUsage(cpu);
        process.send?.({ outcomes, cpuMs: (used.user + used.system) / 1000 }, () => process.exit(0));
      },
      (error: unknown) => process.send?.({ error: String(error) }, () => process.exit(1)),
    );
  });
}
