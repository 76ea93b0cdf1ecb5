import { afterAll, beforeAll } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { type FakeAsaas, startFakeAsaas } from './fake-asaas/server';
import { client, nextRateWindow, startTestRuntime } from './runtime';

/** Keys of the fake Asaas's accounts (the shape of Asaas sandbox keys; they open nothing real). */
export const ASAAS_KEY =
  '$aact_YTU5YTE0M2M2N2I4MTliNzk0YTI5N2U5MzdjNWZmNDQ6OjAwMDAwMDAwMDAwMDAwNjQ3NTI6OiRhYWNoXzQ';
export const OTHER_KEY = '$aact_b3V0cmFfY29udGFfZG9fb3V0cm9fdmVuZGVkb3JfMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDA';

export interface AsaasLive {
  fake: FakeAsaas;
  runtime: Runtime;
  api: ReturnType<typeof client>;
}

/**
 * The live-payment tests' world, for one test file: the local fake of Asaas's API with the given
 * accounts (key → account name), and a runtime whose live slot talks to it. `use` receives both
 * once they are up, as useTestRuntime does.
 */
export function useAsaasLive(
  use: (live: AsaasLive) => void,
  accounts: Record<string, string> = { [ASAAS_KEY]: 'Padaria da Maria LTDA' },
): void {
  let live: AsaasLive | undefined;
  beforeAll(async () => {
    const fake = await startFakeAsaas();
    for (const [key, name] of Object.entries(accounts)) fake.addAccount(key, name);
    const runtime = await startTestRuntime({ asaasBaseUrl: fake.baseUrl });
    live = { fake, runtime, api: client(runtime.baseUrl) };
    use(live);
  });
  afterAll(async () => {
    await live?.runtime.stop();
    await live?.fake.stop();
  });
}

/**
 * A seller's dashboard JWT and a new sk_live_ key. A fresh rate window first: every seller of a
 * file signs in from 127.0.0.1, and the JWT routes count per minute.
 */
export async function liveKeyOf(live: AsaasLive, sellerId: number): Promise<{ jwt: string; key: string }> {
  const { api, runtime } = live;
  await nextRateWindow(runtime, api);
  const jwt = await runtime.issuer.sign(sellerId, { now: runtime.clock.now() });
  const res = await api.post('/api/api-keys', { name: 'live', environment: 'live' }, { token: jwt });
  return { jwt, key: res.body.key as string };
}

/** Connects the seller's Asaas account; on success the fake sends its webhooks where the answer says. */
export async function connectAsaas(live: AsaasLive, jwt: string, apiKey = ASAAS_KEY) {
  const res = await live.api.call('PUT', '/api/provider-connections/asaas', {
    token: jwt,
    body: { apiKey, environment: 'sandbox' },
  });
  if (res.status === 200) live.fake.setWebhook(apiKey, res.body.webhook.url, res.body.webhook.authToken);
  return res;
}

/** The buyer of the live tests, as POST /api/v1/customers takes it. */
export const LIVE_CUSTOMER = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '52998224725',
  phone: '11987654321',
  personType: 'fisica',
} as const;
