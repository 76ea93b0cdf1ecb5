import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The fault suite (`npm run test:faults`) fails until issue 34's attempts written ahead land:
    // then delete this line, and npm test (and CI) runs it with the rest.
    exclude: [...configDefaults.exclude, 'test/faults/**'],
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
