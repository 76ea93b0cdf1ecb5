import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // A hang guard, not a speed check (npm run bench measures speed): long test-clock walks on a
    // loaded 2-core CI machine beside DynamoDB Local have taken over a minute.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
