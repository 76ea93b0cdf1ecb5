import { FakeAsaas } from './server';

/**
 * The fake Asaas in a process of its own, for the fault suite and for trying live mode by hand:
 * `node --import tsx test/support/fake-asaas/main.ts [port]` (a free port unless given). It prints
 * `fake asaas ready at <base URL>` (the /v3 URL to give `npm start` as ASAAS_BASE_URL); its
 * `/__admin/` routes (server.ts, ADMIN_PREFIX) add accounts, list payments and switch faults.
 */
const port = Number(process.argv[2] ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error('usage: node --import tsx test/support/fake-asaas/main.ts [port]');
  process.exit(2);
}
const fake = await new FakeAsaas().start(port);
console.log(`fake asaas ready at ${fake.baseUrl}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => void fake.stop().then(() => process.exit(0)));
