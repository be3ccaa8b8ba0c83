/**
 * `jig.mr_rebase`, run as a supervised task process: rebases the worktree's branch onto the tip of
 * its base branch. It never leaves a rebase half done: on a conflict it records the conflicted
 * files and aborts, so the worktree is as it was. Conflicts are not findings: only a node's
 * `on_base_changed.on_conflict` plan resolves them, never a fix loop. What happened goes to `$JIG_RESULT_PATH`, with a
 * `rebase` block the engine reads (`base_tip`, `head_before`, `head_after`, `conflict`, `files`).
 *
 * Usage: node mr-rebase.js <base branch>
 */
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { OPEN_OPERATIONS } from '../git/open-operations.js';

function git(args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return { code: r.status ?? 1, out: (r.stdout ?? '').trim(), err: (r.stderr ?? '').trim() };
}

function finish(result: Record<string, unknown>, code: number): never {
  const path = process.env.JIG_RESULT_PATH;
  if (path) {
    writeFileSync(`${path}.tmp`, JSON.stringify(result, null, 2));
    renameSync(`${path}.tmp`, path);
  }
  process.stdout.write(`${String(result.summary)}\n`);
  process.exit(code);
}

/** A rebase or merge left open by an earlier run that was killed mid-way (a pause, a cap). */
function inProgress(): boolean {
  return OPEN_OPERATIONS.some((p) => {
    const path = git(['rev-parse', '--git-path', p]).out;
    return path !== '' && existsSync(path);
  });
}

// Ended mid-rebase (Jig ends a task's process group with SIGTERM): abort, so nothing is left open.
// git itself gets the signal too; the handler runs once spawnSync returns.
process.on('SIGTERM', () => {
  if (inProgress()) git(['rebase', '--abort']);
  process.exit(143);
});

const base = process.argv[2];
if (!base) finish({ status: 'failed', summary: 'mr_rebase: no base branch given' }, 2);
const tip = git(['rev-parse', '--verify', '--quiet', `${base}^{commit}`]);
if (tip.code !== 0) finish({ status: 'failed', summary: `mr_rebase: base branch ${base} does not exist` }, 1);
if (inProgress()) {
  git(['rebase', '--abort']);
  git(['merge', '--abort']);
  if (inProgress())
    finish(
      { status: 'failed', summary: 'mr_rebase: a rebase or merge is in progress and could not be aborted' },
      1,
    );
}
if (git(['symbolic-ref', '-q', 'HEAD']).code !== 0) {
  finish({ status: 'failed', summary: "mr_rebase: HEAD is detached; check out the item's branch first" }, 1);
}
const head = git(['rev-parse', 'HEAD']).out;
const block = { base, base_tip: tip.out, head_before: head };
if (git(['merge-base', '--is-ancestor', tip.out, 'HEAD']).code === 0) {
  finish(
    {
      status: 'done',
      summary: `mr_rebase: already on ${base} (${tip.out.slice(0, 12)})`,
      rebase: { ...block, head_after: head, conflict: false, rebased: false },
    },
    0,
  );
}
const dirty = git(['status', '--porcelain=v1', '--untracked-files=no']).out;
if (dirty !== '') {
  finish(
    {
      status: 'failed',
      summary: `mr_rebase: the worktree has uncommitted changes to tracked files; commit them first:\n${dirty}`,
      rebase: { ...block, conflict: false, dirty: true },
    },
    1,
  );
}
// The tip's id, not the branch name: the base may move again while this runs.
const r = git(['-c', 'core.editor=true', 'rebase', tip.out]);
if (r.code === 0) {
  const after = git(['rev-parse', 'HEAD']).out;
  finish(
    {
      status: 'done',
      summary: `mr_rebase: rebased onto ${base} (${tip.out.slice(0, 12)})`,
      rebase: { ...block, head_after: after, conflict: false, rebased: true },
    },
    0,
  );
}
const files = git(['diff', '--name-only', '--diff-filter=U']).out.split('\n').filter(Boolean);
const aborted = git(['rebase', '--abort']).code === 0 && !inProgress();
finish(
  {
    status: 'failed',
    summary:
      files.length > 0
        ? `mr_rebase: rebasing onto ${base} conflicts in ${files.join(', ')}; ${aborted ? 'the rebase was aborted' : 'the rebase could NOT be aborted: run git rebase --abort in the worktree'}`
        : `mr_rebase: git rebase failed: ${r.err || r.out}`,
    rebase: { ...block, head_after: head, conflict: files.length > 0, files },
  },
  1,
);
