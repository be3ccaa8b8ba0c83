/**
 * What recording an agent session's changes costs its launch and its end (issue 51; ADR 0041
 * addendum): the worktree written as a tree before and after, and the changed texts read from git,
 * on a repository of BENCH_FILES files where the session changes ten, beside the baseline of the
 * same repository's `git status` twice (what any look at a worktree costs), in one process.
 * Run: npm run bench -- session-changes   (BENCH_FILES, BENCH_RUNS)
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { captureAfter, captureBefore } from '../src/runtime/recordings/session-changes.js';
import { record } from './figures.js';
import { benchGitEnv, benchRepo } from './git-repo.js';

const run = promisify(execFile);
const FILES = Number(process.env.BENCH_FILES ?? 2000);
const RUNS = Number(process.env.BENCH_RUNS ?? 10);

const root = mkdtempSync(join(tmpdir(), 'jig-bench-changes-'));
const repo = benchRepo(root);
for (let i = 0; i < FILES; i++) {
  mkdirSync(join(repo, 'src', String(i % 50)), { recursive: true });
  writeFileSync(join(repo, 'src', String(i % 50), `f${i}.ts`), `export const v${i} = ${i};\n`);
}
await run('git', ['add', '-A'], { cwd: repo, env: benchGitEnv });
await run('git', ['commit', '-q', '-m', 'files'], { cwd: repo, env: benchGitEnv });
const runDir = join(root, 'run');

const change = (n: number): void => {
  for (let i = 0; i < 10; i++) writeFileSync(join(repo, 'src', '0', `f${i * 50}.ts`), `// run ${n}\n`);
};

const capture: number[] = [];
const status: number[] = [];
for (let n = 0; n < RUNS; n++) {
  let t0 = performance.now();
  await captureBefore(runDir, `s${n}`, repo, null);
  change(n);
  await captureAfter(runDir, `s${n}`);
  capture.push(performance.now() - t0);
  t0 = performance.now();
  await run('git', ['status', '--porcelain'], { cwd: repo });
  change(n + 1000);
  await run('git', ['status', '--porcelain'], { cwd: repo });
  status.push(performance.now() - t0);
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const c = median(capture);
const s = median(status);
console.log(
  `session changes on ${FILES} files (10 changed), median of ${RUNS}: capture ${c.toFixed(1)} ms, two git status ${s.toFixed(1)} ms (${(c / s).toFixed(2)}×)`,
);
record('session_changes_ms', c);
record('session_changes_ratio', c / s);
rmSync(root, { recursive: true, force: true });
