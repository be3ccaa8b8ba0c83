import { defineConfig } from 'vitest/config';
import SlowFirst from './test/sequencer.js';

/** The engine suite, run a second time with every test server's state in PostgreSQL (issue 27). */
const postgresFiles = ['test/engine-*.test.ts', 'test/serve-postgres.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration suites start real servers and child processes, and much of their time is spent
    // waiting on them: three files at once keep two cores busy (two left a third of them idle;
    // four gained nothing over three, and made every file slower).
    maxWorkers: 3,
    // The longest files first, so the run does not end on one of them (test/sequencer.ts).
    sequence: { sequencer: SlowFirst },
    reporters: ['default'],
    // Both stores in one run and one pool of workers: the PostgreSQL files start beside the rest
    // instead of after them. Without `--project postgres`, the suite runs once (docs/testing.md).
    projects: [
      {
        extends: true,
        test: {
          name: 'units',
          include: ['src/**/*.test.ts'],
          // Pure modules and single services: one worker runs file after file without starting
          // afresh (about half of these files' CPU was the new worker each one got).
          isolate: false,
        },
      },
      {
        extends: true,
        // The board's units render into a DOM of their own per file (testing-library's cleanup).
        test: { name: 'board', include: ['web/src/**/*.test.ts', 'web/src/**/*.test.tsx'] },
      },
      {
        extends: true,
        test: { name: 'sqlite', include: ['test/**/*.test.ts'], setupFiles: ['test/cpu-log.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: postgresFiles,
          env: { JIG_TEST_STORE: 'postgres' },
          // One PostgreSQL server for the run, and a migrated template every home's database copies.
          globalSetup: ['test/global-setup.ts'],
          setupFiles: ['test/cpu-log.ts'],
        },
      },
    ],
  },
});
