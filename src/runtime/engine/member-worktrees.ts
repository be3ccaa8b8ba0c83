import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SETUP_NODE } from '../../contract/verdicts.js';
import type { ItemMember, ItemWorkspace } from '../../contract/item-workspace.js';
import { getItem, updateItem, type ItemRecord } from '../../store/work-items.js';
import type { EngineResources } from './resources.js';
import type { StopKind } from '../../contract/item-status.js';
import { passed, stopKindOf } from './walk-helpers.js';
import { prepareWorktree } from './worktree.js';

/** Why the walk cannot start (walk-start.ts's NotReady, which takes this as is). */
type NotReady =
  { kind: 'stop'; stop: StopKind; reason: string; node: null; session?: string } | { kind: 'halt' };

/** Where a member's worktree goes: beside the root's, named by the item and the member. */
export const memberWorktreePath = (worktreesDir: string, id: string, member: string): string =>
  join(worktreesDir, `${id}@${member}`);

/** Replaces one member of the stored workspace, read inside the transaction so no update is lost. */
function withMember(ws: ItemWorkspace, m: ItemMember): ItemWorkspace {
  return { ...ws, members: ws.members.map((x) => (x.name === m.name ? m : x)) };
}

/**
 * Cuts a worktree for each selected member of a workspace item (after the root's), each on the
 * item's branch in its own repository from that repository's base branch (its checked-out branch
 * unless the member was cut before), pins its base commit, copies its `local_files` and runs its
 * `setup_command` in a new one. Idempotent like the root's: a member cut before a restart is kept.
 */
export async function prepareMembers(r: EngineResources, id: string): Promise<NotReady | null> {
  const rec: ItemRecord = await r.item(id);
  for (const m of rec.workspace?.members ?? []) {
    if (m.worktree_path && existsSync(m.worktree_path)) continue;
    const repo = r.repos.find(m.repo_path);
    if (!repo) {
      const reason = `member ${m.name}: repo ${m.repo_path} is no longer connected`;
      return { kind: 'stop', stop: 'config', reason, node: null };
    }
    const at = memberWorktreePath(r.paths.worktreesDir, id, m.name);
    const prep = await prepareWorktree(
      repo,
      { id, branch: rec.branch, base_branch: m.base_branch },
      r.paths.worktreesDir,
      at,
    );
    if (!prep.ok)
      return { kind: 'stop', stop: prep.kind, reason: `member ${m.name}: ${prep.reason}`, node: null };
    const cut: ItemMember = {
      ...m,
      worktree_path: prep.path,
      base_ref: prep.baseRef,
      base_branch: prep.baseBranch,
    };
    await r.events.transact(async (uow) => {
      const cur = await getItem(uow.db, id);
      if (!cur?.workspace) throw new Error(`work item ${id} lost its workspace`);
      await updateItem(uow.db, id, { workspace: withMember(cur.workspace, cut) });
      await uow.emit({
        work_item_id: id,
        type: 'worktree_prepared',
        by: 'jig',
        payload: {
          member: m.name,
          path: prep.path,
          branch: rec.branch,
          base_branch: prep.baseBranch,
          base_ref: prep.baseRef,
          local_files: prep.copied,
          local_files_skipped: prep.skipped,
        },
      });
    });
    if (!prep.created) continue;
    if (repo.setup_command === undefined) {
      const reason = `member ${m.name}: repo ${repo.path} has no setup_command; set it in repos.yaml ("" when nothing needs setting up)`;
      return { kind: 'stop', stop: 'config', reason, node: null };
    }
    if (repo.setup_command === '') continue;
    const out = await r.workers.runCommand({
      rec: await r.item(id),
      repo,
      node: SETUP_NODE,
      taskPath: 'setup',
      kind: 'setup',
      argv: ['/bin/sh', '-c', repo.setup_command],
      cwd: prep.path,
      timeCapS: null,
      member: m.name,
    });
    if (!(await r.stillRunning(id))) return { kind: 'halt' };
    if (!passed(out.status)) {
      const reason = `member ${m.name}: setup_command failed (${out.status}); see session ${out.id}`;
      return { kind: 'stop', stop: stopKindOf[out.status] ?? 'failed', reason, node: null, session: out.id };
    }
  }
  return null;
}
