import { afterAll, beforeAll, beforeEach } from 'vitest';
import { AsaasProvider } from '#shared/adapters/asaas/asaas-provider';
import { AsaasClient } from '#shared/adapters/asaas/client';
import type { ProviderCredentials } from '#shared/domain/ports/provider-connections';
import { type FakeAsaas, startFakeAsaas } from './fake-asaas/server';
import { MemoryProviderLinks } from './fakes/provider-links';

/** The adapter tests' clock and buyer. */
export const ADAPTER_NOW = new Date('2026-11-23T15:00:00Z');
export const ADAPTER_BUYER = { name: 'Maria Silva', document: '24971563792', email: 'maria@example.com' };

/**
 * One Asaas adapter test's world, rebuilt before each test: the fake Asaas (started once per file,
 * with one account), fresh links, the seller's connection (`connected`, which a test may change or
 * clear) and an AsaasProvider pointed at the fake, whose backoff sleeps are recorded, not slept.
 */
export interface AsaasAdapterWorld {
  fake: FakeAsaas;
  links: MemoryProviderLinks;
  provider: AsaasProvider;
  connected: ProviderCredentials | null;
  sleeps: number[];
  /** Another provider on the same fake, links and connection (a shorter timeout, for one). */
  build(timeoutMs?: number): AsaasProvider;
}

export function useAsaasAdapter(
  apiKey: string,
  accountName: string,
  use: (world: AsaasAdapterWorld) => void,
  options: { maxAttempts?: number } = {},
): void {
  let fake: FakeAsaas;
  beforeAll(async () => {
    fake = await startFakeAsaas();
    fake.addAccount(apiKey, accountName);
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.requests.length = 0;
    const world = {
      fake,
      links: new MemoryProviderLinks(),
      connected: { apiKey, environment: 'sandbox' },
      sleeps: [],
    } as unknown as AsaasAdapterWorld;
    world.build = (timeoutMs = 2_000) =>
      new AsaasProvider({
        client: new AsaasClient({
          baseUrls: { sandbox: fake.baseUrl, production: fake.baseUrl },
          timeoutMs,
          ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
          sleep: async (ms) => {
            world.sleeps.push(ms);
          },
          random: () => 0.5,
        }),
        credentials: async () => world.connected,
        links: world.links,
        clock: { now: () => ADAPTER_NOW },
      });
    world.provider = world.build();
    use(world);
  });
}
