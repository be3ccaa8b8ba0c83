/**
 * What review costs on a repository of 5 000 files with 100 of them changed (20 committed, 80 left
 * uncommitted): the snapshot of the worktree (a node run's attempt, and `latest`) beside `git
 * status`, and one page of the diff beside `git diff --numstat` plus `git diff` of the same two
 * commits, in the same process. Run: npm run build && npm run bench -- review
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffCommits } from '../src/runtime/review/diff.js';
import { snapshotCommit } from '../src/runtime/review/snapshot.js';
import { benchGitEnv } from './git-repo.js';

const FILES = 5_000;
const CHANGED = 100;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const env = benchGitEnv;
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, encoding: 'utf8' });

function repoWithChanges(root: string): { dir: string; base: string } {
  const dir = join(root, 'repo');
  for (let d = 0; d < 50; d++) mkdirSync(join(dir, `d${d}`), { recursive: true });
  for (let i = 0; i < FILES; i++)
    writeFileSync(join(dir, `d${i % 50}`, `f${i}.ts`), `export const v${i} = ${i};\n`.repeat(20));
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'init');
  const base = git(dir, 'rev-parse', 'HEAD').trim();
  for (let i = 0; i < CHANGED; i++)
    writeFileSync(join(dir, `d${i % 50}`, `f${i}.ts`), `export const v${i} = ${i + 1};\n`.repeat(22));
  git(dir, 'add', ...Array.from({ length: 20 }, (_, i) => `d${i % 50}/f${i}.ts`));
  git(dir, 'commit', '-qm', 'some');
  return { dir, base };
}

async function time<T>(fn: () => Promise<T> | T): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const root = mkdtempSync(join(tmpdir(), 'jig-bench-review-'));
try {
  const { dir, base } = repoWithChanges(root);
  const rows: [string, number[], number[]][] = [];
  const snap: number[] = [];
  const status: number[] = [];
  const page: number[] = [];
  const raw: number[] = [];
  let head = '';
  for (let r = 0; r < RUNS; r++) {
    status.push(await time(() => git(dir, 'status', '--porcelain')));
    snap.push(await time(async () => (head = await snapshotCommit(dir))));
    raw.push(await time(() => [git(dir, 'diff', '--numstat', base, head), git(dir, 'diff', base, head)]));
    page.push(
      await time(() =>
        diffCommits(dir, base, head, {
          format: 'patch',
          ignoreWhitespace: false,
          offset: 0,
          limit: CHANGED,
          onlyPaths: null,
        }),
      ),
    );
  }
  rows.push(['snapshot of the worktree / git status', snap, status]);
  rows.push([`diff page of ${CHANGED} files / git diff --numstat + git diff`, page, raw]);
  const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)} ms`;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const [name, ours, base] of rows)
    console.log(
      `${name}: ${range(ours)} vs ${range(base)} (median ratio ${(median(ours) / median(base)).toFixed(2)}×)`,
    );
} finally {
  rmSync(root, { recursive: true, force: true });
}
