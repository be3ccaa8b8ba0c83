#!/usr/bin/env node
// Refreshes the screenshots docs/getting-started.md shows: the browser test that walks the page
// takes them (JIG_DOC_SHOTS=1 writes them into docs/images). Usage: node scripts/docs-screenshots.mjs
import { spawnSync } from 'node:child_process';

const run = (cmd, args, env = {}) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
run('npm', ['run', 'build']);
run('npx', ['vitest', 'run', '--project', 'browser', 'test/board-getting-started.test.ts'], {
  JIG_DOC_SHOTS: '1',
});
