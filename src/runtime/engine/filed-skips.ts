import { stamp } from '../clock.js';
import { rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { FiledSkip } from '../../core/chain/filed-skip.js';
import { atNode } from '../../core/chain/walk-state.js';
import { getItem, updateItem, type ItemRecord } from '../../store/work-items.js';
import { attachmentText } from '../items/attachments.js';
import { createInside } from '../fs/create-inside.js';
import { artifactPath } from '../workers/agent-inputs.js';
import type { EngineResources } from './resources.js';

/**
 * Passes a node the item was filed to skip, as a person's skip passes it (`node_skipped`, by
 * jig). An attached document that stands for what the node would have written is put where the
 * node's agent would have left it (`.jig/docs/<kind>.md`) and recorded as the item's document of
 * that kind, so the gates and agents after it read the person's text. Answers why it could not.
 */
export async function passFiledSkip(
  r: EngineResources,
  rec: ItemRecord,
  node: string,
  skip: FiledSkip,
): Promise<string | null> {
  const documents: Record<string, string> = {};
  for (const kind of skip.documents) {
    if (kind !== 'spec' && kind !== 'plan') continue;
    const text = await attachmentText(r.store.db, r.paths.attachmentsDir, rec.id, kind);
    if (text === null)
      return `the attached ${kind} of the item cannot be read from the attachments folder or the store`;
    if (!rec.worktree_path) return `the item has no worktree to put its attached ${kind} in`;
    const made = artifactPath(rec.worktree_path, kind);
    if (!made.ok) return made.reason;
    const rel = relative(rec.worktree_path, made.path);
    // Whatever stands there (a file, or a link the repository committed) gives way; the new file
    // is created without following a link.
    try {
      rmSync(made.path, { force: true });
    } catch (err) {
      return `cannot replace ${rel} with the attached ${kind}: ${(err as Error).message}`;
    }
    const put = createInside(rec.worktree_path, join('.jig', 'docs', `${kind}.md`), Buffer.from(text), 0o644);
    if (!put.ok) return `cannot write the attached ${kind} to ${rel}: ${put.detail}`;
    documents[kind] = rel;
  }
  await r.events.transact(async (uow) => {
    const cur = await getItem(uow.db, rec.id);
    if (!cur?.walk) throw new Error(`work item ${rec.id} lost its walk before node ${node}`);
    const walk = atNode(cur.walk, cur.walk.node + 1);
    await updateItem(uow.db, rec.id, {
      walk:
        Object.keys(documents).length > 0
          ? { ...walk, artifacts: { ...walk.artifacts, ...documents } }
          : walk,
      updated_at: stamp(r.clock),
    });
    await uow.emit({
      work_item_id: rec.id,
      type: 'node_skipped',
      by: 'jig',
      node,
      payload: { node, note: skip.note },
    });
  });
  return null;
}
