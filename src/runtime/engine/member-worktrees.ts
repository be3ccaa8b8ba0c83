import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ItemMember, ItemWorkspace } from '../../contract/item-workspace.js';
import { getItem, updateItem, type ItemRecord } from '../../store/work-items.js';
import { itemOf, type EngineResources } from './resources.js';
import { preparedPayload, runSetup, type NotReady } from './setup-command.js';
import { prepareWorktree } from './worktree.js';

/** Where a member's worktree goes: beside the root's, named by the item and the member. */
export const memberWorktreePath = (worktreesDir: string, id: string, member: string): string =>
  join(worktreesDir, `${id}@${member}`);

/** Replaces one member of the stored workspace, read inside the transaction so no update is lost. */
export function withMember(ws: ItemWorkspace, m: ItemMember): ItemWorkspace {
  return { ...ws, members: ws.members.map((x) => (x.name === m.name ? m : x)) };
}

/**
 * Cuts a worktree for each selected member of a workspace item (after the root's), each on the
 * item's branch in its own repository from that repository's base branch (its checked-out branch
 * unless the member was cut before), pins its base commit, copies its `local_files` and runs its
 * `setup_command` in a new one. Idempotent like the root's: a member cut before a restart is kept.
 */
export async function prepareMembers(r: EngineResources, id: string): Promise<NotReady | null> {
  const rec: ItemRecord = await itemOf(r, id);
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
        payload: preparedPayload(prep, rec.branch, m.name),
      });
    });
    if (!prep.created) continue;
    const setup = await runSetup(r, await itemOf(r, id), repo, prep.path, m.name);
    if (setup) return setup;
  }
  return null;
}
