import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts', 'web/src/**/*.test.tsx'],
    // `JIG_TEST_STORE=postgres` (npm run test:pg): one PostgreSQL server for the run; else nothing.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration suites start real servers and child processes; two cores, so keep parallelism modest.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
