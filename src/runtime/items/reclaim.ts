import { sessionsOf } from '../../store/sessions.js';
import { updateItem, type ItemRecord } from '../../store/work-items.js';
import { removeJails } from '../sandbox/jail-end.js';
import type { EventLog } from '../events/event-log.js';
import { deleteBranch, removeWorktree } from './worktree-cleanup.js';

/**
 * Reclaims the disk an ended item's worktree takes (and its sandbox folders, given `runDir`): after an archive, an abandon (which also
 * deletes the branch; cancel and complete keep it) or the storage clean-up (`cleanup: true`).
 * Recorded once done (`worktree_reclaimed`); a server stopped halfway through an archive or abandon
 * finishes it at its next start.
 */
export async function reclaimWorktree(
  events: Pick<EventLog, 'transact'>,
  rec: ItemRecord,
  cleanup = false,
  runDir?: string,
): Promise<ItemRecord> {
  const abandoned = rec.status === 'abandoned';
  // A workspace item's members are reclaimed the same way, each in its own repository.
  const members = [];
  for (const m of rec.workspace?.members ?? []) {
    members.push({
      member: m.name,
      worktree_removed: await removeWorktree(m.repo_path, m.worktree_path),
      ...(abandoned ? { branch_deleted: await deleteBranch(m.repo_path, rec.branch) } : {}),
    });
  }
  // In this order: the worktree goes before its branch can be deleted.
  const payload = {
    worktree_removed: await removeWorktree(rec.repo, rec.worktree_path),
    ...(abandoned ? { branch_deleted: await deleteBranch(rec.repo, rec.branch) } : {}),
    ...(rec.workspace ? { members } : {}),
    ...(cleanup ? { cleanup: true } : {}),
  };
  await events.transact(async (uow) => {
    // The item's sandbox folders (its private HOME, its sessions' plans) go with the worktree.
    if (runDir !== undefined)
      removeJails(
        runDir,
        rec.id,
        (await sessionsOf(uow.db, rec.id)).map((s) => s.id),
      );
    await updateItem(uow.db, rec.id, { worktree_path: null });
    await uow.emit({ work_item_id: rec.id, type: 'worktree_reclaimed', by: 'jig', payload });
  });
  return { ...rec, worktree_path: null };
}
