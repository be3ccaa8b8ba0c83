import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration suites start real servers and child processes; two cores, so keep parallelism modest.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
