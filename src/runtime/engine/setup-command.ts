import type { RepoEntry } from '../../contract/config/repos.js';
import type { EventPayload } from '../../contract/event-kinds.js';
import type { StopKind } from '../../contract/item-status.js';
import { SETUP_NODE } from '../../contract/verdicts.js';
import type { ItemRecord } from '../../store/work-items.js';
import type { EngineResources } from './resources.js';
import { passed, stopKindOf } from '../../core/chain/walk-rules.js';
import type { Prepared } from './worktree.js';
import { keepSetupOutputOut, releaseChangedSetupOutput } from '../git/setup-output.js';
import type { StartedItem } from './started-item.js';

/** Why the walk cannot start: the item stops with this (or `halt`: it stopped meanwhile). */
export type NotReady =
  { kind: 'stop'; stop: StopKind; reason: string; node: string | null; session?: string } | { kind: 'halt' };

/** What `worktree_prepared` says of a cut worktree: the root's, or a workspace member's. */
export function preparedPayload(
  prep: Extract<Prepared, { ok: true }>,
  branch: string,
  member?: string,
): EventPayload<'worktree_prepared'> {
  return {
    ...(member !== undefined ? { member } : {}),
    path: prep.path,
    branch,
    base_branch: prep.baseBranch,
    base_ref: prep.baseRef,
    local_files: prep.copied,
    local_files_skipped: prep.skipped,
  };
}

/**
 * Runs a repository's `setup_command` in a worktree just cut (the root's, or `member`'s, whose name
 * then leads every reason); null when it passed or is `""`. A repository without one stops the item:
 * whether it needs setting up is a person's call.
 */
export async function runSetup(
  r: EngineResources,
  rec: ItemRecord,
  repo: RepoEntry,
  cwd: string,
  member?: string,
): Promise<NotReady | null> {
  const who = member !== undefined ? `member ${member}: ` : '';
  if (repo.setup_command === undefined) {
    const reason = `${who}repo ${repo.path} has no setup_command; set it in repos.yaml ("" when nothing needs setting up)`;
    return { kind: 'stop', stop: 'config', reason, node: null };
  }
  if (repo.setup_command === '') return null;
  const jail = r.workers.jail(rec, repo, 'setup', 'install');
  if (!jail.ok)
    return { kind: 'stop', stop: 'config', reason: `${who}setup_command: ${jail.reason}`, node: null };
  const out = await r.workers.runCommand({
    rec,
    repo,
    node: SETUP_NODE,
    taskPath: 'setup',
    kind: 'setup',
    argv: ['/bin/sh', '-c', repo.setup_command],
    cwd,
    timeCapS: null,
    ...(member !== undefined ? { member } : {}),
    sandbox: jail.sandbox,
  });
  if (!(await r.fence.stillRunning(rec.id))) return { kind: 'halt' };
  if (!passed(out.status)) {
    const reason = `${who}setup_command failed (${out.status}); see session ${out.id}`;
    return { kind: 'stop', stop: stopKindOf[out.status] ?? 'failed', reason, node: null, session: out.id };
  }
  // What setup wrote is not the item's change (setup-output.ts): kept out of its diff and commits.
  const kept = await keepSetupOutputOut(repo.path, cwd);
  if (kept.created.length + kept.changed.length > 0) {
    await r.events.transact(async (uow) => {
      await uow.emit({
        work_item_id: rec.id,
        type: 'setup_output_kept_out',
        by: 'jig',
        payload: { ...(member !== undefined ? { member } : {}), ...kept },
      });
    });
  }
  return null;
}

/**
 * Before a step: what setup wrote and a task or a person changed since becomes the item's change,
 * in the root's worktree and each member's (`setup_output_released` names it).
 */
export async function releaseSetupOutput(r: EngineResources, rec: StartedItem): Promise<void> {
  const trees = [
    { member: undefined as string | undefined, cwd: rec.worktree_path },
    ...(rec.workspace?.members ?? []).map((m) => ({ member: m.name, cwd: m.worktree_path })),
  ];
  for (const { member, cwd } of trees) {
    if (cwd === null) continue;
    const paths = await releaseChangedSetupOutput(cwd);
    if (paths.length === 0) continue;
    await r.events.transact(async (uow) => {
      await uow.emit({
        work_item_id: rec.id,
        type: 'setup_output_released',
        by: 'jig',
        payload: { ...(member !== undefined ? { member } : {}), paths },
      });
    });
  }
}
