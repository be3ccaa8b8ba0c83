import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import SlowFirst from './test/sequencer.js';

/** The build (test/helpers/built.ts): loaded by Node itself, not through Vite's module runner. */
const dist = new RegExp(
  `^${fileURLToPath(new URL('./dist/', import.meta.url)).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
);

/** The board's journeys in Chromium. */
const browserFiles = ['test/board-*.test.ts'];

/** The engine suite, run a second time with every test server's state in PostgreSQL (issue 27). */
const postgresFiles = ['test/engine-*.test.ts', 'test/serve-postgres.test.ts'];

// A new home jails its tasks where bubblewrap works (docs/sandbox.md); the suite's servers run them
// as the tests expect, unjailed, unless a test asks for a sandbox. Every worker inherits this.
process.env.JIG_SANDBOX_DEFAULT ??= 'none';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll gives up after 1 s by default: under a full run's load a page or a server can take
    // longer than that to show what a test waits for (a board page's first render failed a run so).
    // A passing poll returns as soon as it matches; only a failing one waits the whole time.
    expect: { poll: { timeout: 30_000 } },
    // Integration suites start real servers and child processes and wait on them: four files at
    // once keep two cores busy. Three left a sixth of them idle (610 s against 689 s for the whole
    // run, docs/testing.md); when the suite waited more, two left a third idle.
    maxWorkers: 4,
    // The longest files first, so the run does not end on one of them (test/sequencer.ts).
    sequence: { sequencer: SlowFirst },
    reporters: ['default'],
    server: { deps: { external: [dist] } },
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
        test: {
          name: 'board',
          include: ['web/src/**/*.test.ts', 'web/src/**/*.test.tsx'],
          // File after file in a worker, each in a DOM of its own (its `@vitest-environment`); the
          // kit's reset runs after every test of every file (web/src/test-setup.ts).
          isolate: false,
          setupFiles: ['web/src/test-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['test/**/*.test.ts'],
          exclude: [...browserFiles, ...configDefaults.exclude],
          // A worker runs file after file too: the worker's start, Vitest's set-up and the helpers
          // (and dist/'s server, test/helpers/built.ts) once per worker, not once per file; a tenth
          // less CPU (docs/testing.md). Files keep nothing of their own in the helpers' state: each
          // stops what it started (cleanupAll) and shared-home.ts forgets its server after the file.
          isolate: false,
          setupFiles: ['test/cpu-log.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: browserFiles,
          isolate: false,
          // Each journey waits on Chromium at every step (test/helpers/browser.ts: 60 s a wait).
          testTimeout: 120_000,
          setupFiles: ['test/cpu-log.ts'],
          // One Chromium for the run; each file gets a context of its own (test/global-chromium.ts).
          globalSetup: ['test/global-chromium.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: postgresFiles,
          env: { JIG_TEST_STORE: 'postgres' },
          isolate: false,
          // One PostgreSQL server for the run, and a migrated template every home's database copies.
          globalSetup: ['test/global-setup.ts'],
          setupFiles: ['test/cpu-log.ts'],
        },
      },
    ],
  },
});
