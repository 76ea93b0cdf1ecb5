import { defineConfig } from 'vitest/config';

/**
 * The fault suite (test/faults/, issue 34): it starts its own fake Asaas, DynamoDB Local and
 * runtime processes, so it needs none of the global setup's pool or bundles.
 */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
