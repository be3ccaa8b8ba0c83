import { dbAll } from './test-store.js';
import { existsSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { post } from './engine.js';
import { git } from './git.js';
import type { JigProcess } from './server.js';

export const ofType = (ev: any[], type: string) => ev.filter((e) => e.type === type);
export const payloads = (ev: any[], type: string) => ofType(ev, type).map((e) => e.payload);
export const sessionsOf = (ev: any[], task: string) =>
  ev.filter((e) => e.type === 'worker_session_started' && e.payload.task === task);
/** How many sessions each task path started, in first-start order. */
export const ran = (ev: any[]): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const e of ofType(ev, 'worker_session_started')) out[e.payload.task] = (out[e.payload.task] ?? 0) + 1;
  return out;
};
export const stoppedAs = (kind: string) => (i: any) => i.status === 'stopped' && i.stop?.kind === kind;
export const completed = (i: any) => i.status === 'completed';
export const retry = (jig: JigProcess, id: string, body?: unknown) =>
  post(jig, `/api/work-items/${id}/retry`, body);
export const approve = (jig: JigProcess, id: string, gate: string) =>
  post(jig, `/api/work-items/${id}/gates/${gate}/approve`);

/** The store's columns the API does not show (base_ref, steer, worktree_path), read-only. */
export async function row(
  home: string,
  id: string,
): Promise<{ base_ref: string; steer: string | null; worktree_path: string }> {
  const [r] = await dbAll<{ base_ref: string; steer: string | null; worktree_path: string }>(
    home,
    'SELECT base_ref, steer, worktree_path FROM work_items WHERE id = ?',
    [id],
  );
  if (!r) throw new Error(`no work item ${id} in the store`);
  return r;
}

/** A commit on the repo's checked-out base branch (main), as a colleague merging would add. */
export function moveBase(repo: string, file: string, text: string): string {
  writeFileSync(join(repo, file), text);
  git(repo, 'add', file);
  git(repo, 'commit', '-qm', `base: ${file}`);
  return git(repo, 'rev-parse', 'HEAD');
}

/** True when a rebase or merge is still open in the worktree. */
export function inProgress(wt: string): string[] {
  return ['rebase-merge', 'rebase-apply', 'MERGE_HEAD'].filter((d) => {
    const p = git(wt, 'rev-parse', '--git-path', d);
    return existsSync(isAbsolute(p) ? p : join(wt, p));
  });
}

export const contains = (wt: string, sha: string): boolean => {
  try {
    git(wt, 'merge-base', '--is-ancestor', sha, 'HEAD');
    return true;
  } catch {
    return false;
  }
};

export const CHECK = `    tasks:
      - id: check
        kind: subprocess
        run: 'true'
`;
