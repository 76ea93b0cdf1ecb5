import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type Runtime, type RuntimeOptions, startRuntime } from '#infra/local/runtime';
import { configureLogs } from '#shared/logger';
import { fileDynamoEndpoint } from './file-dynamo';

/** Captured log lines of the runtime under test (for the "no secrets in logs" checks). */
export const logLines: string[] = [];

/**
 * A local runtime on a random port, on the test file's DynamoDB Local with a table of its own,
 * nothing written to disk. Tests talk to it over HTTP only.
 */
export async function startTestRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  configureLogs({ level: 'info', sink: (line) => logLines.push(line) });
  const runtime = await startRuntime({
    port: 0,
    dataDir: null,
    dynamoEndpoint: 'dynamoEndpoint' in options ? options.dynamoEndpoint : await fileDynamoEndpoint(),
    tableName: `t-${randomUUID()}`,
    tickMs: 50,
    checkResponses: true,
    ...options,
  });
  // Every answer a test received must match its route's response schema (or the error body).
  const stop = runtime.stop.bind(runtime);
  runtime.stop = async () => {
    await stop();
    if (runtime.responseViolations.length > 0)
      throw new Error(`answers that do not match their schema:\n${runtime.responseViolations.join('\n')}`);
  };
  return runtime;
}

/**
 * A fresh window for every rate limit: the request limit counts on real time (the runtime's wall
 * clock, skewed in this process to just past the next minute's start, so the test has the whole
 * window; no route moves it), the customer-area limits on the test clock (advanced 61 s over HTTP).
 */
export async function nextRateWindow(runtime: Runtime, api = client(runtime.baseUrl)): Promise<void> {
  const wall = runtime.wallClock.now().getTime();
  runtime.wallClock.skew((60_000 - (wall % 60_000)) / 1000 + 0.5);
  await api.post('/api/test-helpers/clock/advance', { seconds: 61 });
}

/**
 * The usual preamble of an integration test file: one runtime for the file, started before and
 * stopped after its tests, handed to `bind` with its client; with `freshRateWindow` every test
 * starts in a fresh per-IP rate window (public routes count per client IP).
 */
export function useTestRuntime(
  bind: (runtime: Runtime, api: ReturnType<typeof client>) => void,
  options: RuntimeOptions & { freshRateWindow?: boolean } = {},
): void {
  const { freshRateWindow = true, ...runtimeOptions } = options;
  let started: Runtime | undefined;
  let api: ReturnType<typeof client> | undefined;
  beforeAll(async () => {
    started = await startTestRuntime(runtimeOptions);
    api = client(started.baseUrl);
    bind(started, api);
  });
  afterAll(() => started?.stop());
  if (freshRateWindow) {
    beforeEach(async () => {
      if (started && api) await nextRateWindow(started, api);
    });
  }
}

export interface Call {
  status: number;
  body: any;
  headers: Headers;
}

/** A small HTTP client bound to a runtime. */
export function client(baseUrl: string) {
  const call = async (
    method: string,
    path: string,
    options: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
  ): Promise<Call> => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  return {
    call,
    get: (path: string, options?: Parameters<typeof call>[2]) => call('GET', path, options),
    post: (path: string, body?: unknown, options?: Parameters<typeof call>[2]) =>
      call('POST', path, { ...options, body }),
    patch: (path: string, body?: unknown, options?: Parameters<typeof call>[2]) =>
      call('PATCH', path, { ...options, body }),
    del: (path: string, options?: Parameters<typeof call>[2]) => call('DELETE', path, options),
  };
}
