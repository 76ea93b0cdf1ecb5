import type { Api } from './api';

interface RequestLogView {
  id: string;
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  idempotencyKey: string | null;
  timestamp: string;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const POLL_MS = 2_000;

export const logLine = (r: RequestLogView) =>
  `${r.timestamp}  ${r.method.padEnd(6)} ${r.path}  ${r.status}  ${r.latencyMs}ms${
    r.idempotencyKey ? `  idempotency-key=${r.idempotencyKey}` : ''
  }`;

/** The tail's own reads would fill the tail: they are left out of what it prints. */
const isOwnRead = (r: RequestLogView) => r.method === 'GET' && r.path === '/api/request-logs';

/**
 * Prints the seller's latest API requests (GET /api/request-logs), oldest first, then, unless
 * `once`, the new ones as they are logged (a request shows a few seconds after its answer).
 */
export async function tailLogs(
  api: Api,
  options: {
    limit: number;
    status?: string;
    method?: string;
    once: boolean;
    print: (line: string) => void;
    stopped: () => boolean;
  },
): Promise<void> {
  const query = new URLSearchParams({ limit: String(options.limit) });
  if (options.status) query.set('status', options.status);
  if (options.method) query.set('method', options.method.toUpperCase());
  const seen = new Set<string>();
  for (let first = true; first || !options.stopped(); first = false) {
    const page = (await api.get(`/api/request-logs?${query}`)).data as RequestLogView[];
    for (const r of page.slice().reverse()) {
      if (seen.has(r.id)) continue;
      seen.add(r.id);
      if (!isOwnRead(r)) options.print(logLine(r));
    }
    if (options.once) return;
    await pause(POLL_MS);
  }
}
