import { startRuntime } from '#infra/local/runtime';
import { configureLogs } from '#shared/logger';
import { startFakeAsaas } from '../../test/support/fake-asaas/server';
import { percentile } from './endpoints';

/**
 * `npm run bench:provider-down`: how fast a live sale is refused while Asaas is down. The fake
 * Asaas answers 503 to everything; three sales open the circuit (shared/adapters/http/circuit-breaker.ts);
 * then REFUSED sales are timed from the client. Target: every one 503 provider_unavailable in under
 * TARGET_MS, none reaching the provider.
 */
const REFUSED = 20;
const TARGET_MS = 100;
/** A key of the fake's account, shaped like an Asaas sandbox key (it opens nothing real). */
const KEY = '$aact_YmVuY2hfcHJvdmlkZXJfZG93bl9hY2NvdW50X2tleV8wMDAwMDAwMDAwMDAwMDAwMDA';

configureLogs({ level: 'silent' });
const fake = await startFakeAsaas();
fake.addAccount(KEY, 'Bench LTDA');
const runtime = await startRuntime({
  port: 0,
  dataDir: null,
  logLevel: 'silent',
  tableName: 'bench-provider-down',
  devIdentity: false,
  asaasBaseUrl: fake.baseUrl,
});
const call = async (method: string, path: string, body?: unknown, token?: string) => {
  const started = performance.now();
  const res = await fetch(`${runtime.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as Record<string, any>;
  return { status: res.status, json, ms: performance.now() - started };
};
try {
  const now = runtime.clock.now();
  const sellerId = await runtime.deps.repos.sellers.create('Bench provider down', now);
  const jwt = await runtime.issuer.sign(sellerId, { now });
  const key = (await call('POST', '/api/api-keys', { name: 'live', environment: 'live' }, jwt)).json.key;
  const connected = await call(
    'PUT',
    '/api/provider-connections/asaas',
    { apiKey: KEY, environment: 'sandbox' },
    jwt,
  );
  if (connected.status !== 200)
    throw new Error(`connect: ${connected.status} ${JSON.stringify(connected.json)}`);
  const product = (
    await call(
      'POST',
      '/api/products',
      { name: 'Curso', image: 'https://cdn.example.com/c.png', value: 100 },
      key,
    )
  ).json;
  const sale = () =>
    call('POST', '/api/transactions', {
      productId: product.uuid,
      paymentMethod: 'pix',
      customer: {
        name: 'Maria Souza',
        email: 'maria@example.com',
        document: '52998224725',
        phone: '11987654321',
      },
    });
  const up = await sale();
  if (up.status !== 201)
    throw new Error(`a live sale with Asaas up: ${up.status} ${JSON.stringify(up.json)}`);
  fake.down('error');
  for (let i = 0; i < 3; i++) await sale();
  const reached = fake.requests.length;
  const refused = [];
  for (let i = 0; i < REFUSED; i++) refused.push(await sale());
  const times = refused.map((r) => r.ms);
  const allRefused = refused.every((r) => r.status === 503 && r.json.code === 'provider_unavailable');
  const p99 = percentile(times, 99) ?? 0;
  const ok = allRefused && fake.requests.length === reached && Math.max(...times) < TARGET_MS;
  console.log(
    [
      `Provider down: ${REFUSED} live pix sales after the circuit opened (3 failed sales), timed at the client:`,
      `  p50 ${(percentile(times, 50) ?? 0).toFixed(1)} ms  p99 ${p99.toFixed(1)} ms  max ${Math.max(...times).toFixed(1)} ms (target < ${TARGET_MS} ms)`,
      `  all 503 provider_unavailable: ${allRefused ? 'yes' : 'NO'}; calls that reached the provider: ${fake.requests.length - reached}`,
      `  ${ok ? 'ok' : 'FAIL'}`,
    ].join('\n'),
  );
  if (!ok) process.exitCode = 1;
} finally {
  await runtime.stop();
  await fake.stop();
}
