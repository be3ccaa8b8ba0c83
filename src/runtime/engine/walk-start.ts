import { existsSync } from 'node:fs';
import type { RepoEntry } from '../../contract/config/repos.js';
import type { ResolvedChain } from '../../core/chain/model.js';
import type { Walk } from '../../contract/walk.js';
import { updateItem, type ItemRecord } from '../../store/work-items.js';
import { itemOf, type EngineResources } from './resources.js';
import type { Slots } from './slots.js';
import { preparedPayload, runSetup, type NotReady } from './setup-command.js';
import { prepareWorktree } from './worktree.js';
import { prepareMembers } from './member-worktrees.js';

/** An item ready to walk: its frozen chain, its walk, its repo and its worktree. */
export interface Ready {
  kind: 'ready';
  rec: ItemRecord & { walk: Walk; chain_definition: ResolvedChain; worktree_path: string };
  chain: ResolvedChain;
  repo: RepoEntry;
}

export type { NotReady };

function ready(rec: ItemRecord, repo: RepoEntry): Ready | null {
  const { walk, chain_definition: chain, worktree_path: path } = rec;
  if (walk === null || chain === null || path === null) return null;
  return { kind: 'ready', rec: { ...rec, walk, chain_definition: chain, worktree_path: path }, chain, repo };
}

const NO_WALK: NotReady = { kind: 'stop', stop: 'infra', reason: 'the item has no walk', node: null };

/**
 * Everything before the first node: the chain frozen (if a start did not freeze it), the repo still
 * connected, the worktree cut (or found again after a restart) and, on a new worktree, the repo's
 * setup command run. Each is idempotent, so an interrupted start continues here.
 */
export async function startWalk(
  r: EngineResources,
  slots: Pick<Slots, 'freeze'>,
  id: string,
): Promise<Ready | NotReady> {
  let rec = await itemOf(r, id);
  if (rec.state_error !== null) {
    // Never refrozen over: what it had done would be lost and redone on a guess.
    const reason = `the item's saved state cannot be read: ${rec.state_error}`;
    return { kind: 'stop', stop: 'infra', reason, node: rec.current_node };
  }
  if (rec.walk === null || rec.chain_definition === null) {
    const frozen = slots.freeze(rec);
    if (!frozen)
      return { kind: 'stop', stop: 'config', reason: `chain ${rec.chain} does not resolve now`, node: null };
    await updateItem(r.store.db, id, frozen);
    rec = await itemOf(r, id);
  }
  const repo = r.repos.find(rec.repo);
  if (!repo) {
    return {
      kind: 'stop',
      stop: 'config',
      reason: `repo ${rec.repo} is no longer connected`,
      node: rec.current_node,
    };
  }
  if (rec.worktree_path && existsSync(rec.worktree_path)) {
    const members = await prepareMembers(r, id);
    if (members) return members;
    return ready(await itemOf(r, id), repo) ?? NO_WALK;
  }
  const prep = await prepareWorktree(repo, rec, r.paths.worktreesDir);
  if (!prep.ok) return { kind: 'stop', stop: prep.kind, reason: prep.reason, node: null };
  await r.events.transact(async (uow) => {
    await updateItem(uow.db, id, {
      worktree_path: prep.path,
      base_ref: prep.baseRef,
      base_branch: prep.baseBranch,
    });
    await uow.emit({
      work_item_id: id,
      type: 'worktree_prepared',
      by: 'jig',
      payload: preparedPayload(prep, rec.branch),
    });
  });
  rec = await itemOf(r, id);
  const go = ready(rec, repo) ?? NO_WALK;
  if (go.kind !== 'ready') return go;
  const setup = prep.created ? await runSetup(r, go.rec, repo, go.rec.worktree_path) : null;
  if (setup) return setup;
  // A workspace item's members are cut after the root's worktree and set up (member-worktrees.ts).
  const members = await prepareMembers(r, id);
  if (members) return members;
  return ready(await itemOf(r, id), repo) ?? NO_WALK;
}
