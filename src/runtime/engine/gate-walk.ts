import { stamp } from '../clock.js';
import type { StopKind } from '../../contract/item-status.js';
import type { ModelGateNode, ResolvedChain } from '../../core/chain/model.js';
import { updateItem, type ItemRecord } from '../../store/work-items.js';
import { needsDocument, passGate, rejectGate, type AtGate } from './gate-moves.js';
import { autoReviewApplies, runAutoReview } from './gate-review.js';
import type { Gates } from './gates.js';
import { policyOf, itemOf, type EngineResources } from './resources.js';
import { rejectTarget } from '../../core/chain/walk-rules.js';

/** How the walk stops an item (walker.ts `stop`): a gate waits for a person through it. */
export interface WalkStops {
  stop(rec: ItemRecord, kind: StopKind, reason: string, node: string | null): Promise<void>;
}

/**
 * The walk reached a gate: its reviewer runs first when it has one, and the verdict moves the walk
 * (`moved`) or the item waits for a person (`done`).
 */
export async function reachGate(
  r: EngineResources,
  sys: { gates: Pick<Gates, 'artifactPath'>; walker: WalkStops },
  rec: ItemRecord,
  chain: ResolvedChain,
  node: ModelGateNode,
): Promise<'moved' | 'done'> {
  const { gates, walker } = sys;
  const message = node.message ?? `approve or reject ${node.id}`;
  const policy = policyOf(r, rec);
  const task = autoReviewApplies(rec, node, policy);
  const repo = r.repos.find(rec.repo);
  if (!task || !repo) {
    await walker.stop(rec, 'gate', message, node.id);
    return 'done';
  }
  await updateItem(r.store.db, rec.id, { current_node: node.id, updated_at: stamp(r.clock) });
  const out = await runAutoReview({
    rec: await itemOf(r, rec.id),
    repo,
    chain,
    policy,
    gate: node,
    task,
    events: r.events,
    db: r.store.db,
    workers: r.workers,
    clock: r.clock,
    stillRunning: () => r.fence.stillRunning(rec.id),
  });
  const fresh = await itemOf(r, rec.id);
  const waitFor = async (why: string): Promise<'done'> => {
    await walker.stop(fresh, 'gate', why, node.id);
    return 'done';
  };
  const at = (): AtGate | null => {
    const idx = chain.nodes.indexOf(node);
    return fresh.walk ? { rec: fresh, chain, walk: fresh.walk, idx, gate: node } : null;
  };
  switch (out.kind) {
    case 'halt':
      return 'done';
    case 'again':
      return 'moved';
    case 'stop':
      await walker.stop(fresh, out.stop, out.reason, node.id);
      return 'done';
    case 'person':
      return waitFor(`${message} (${out.note})`);
    case 'approve': {
      if (needsDocument(node) && !gates.artifactPath(fresh, node.artifact)) {
        return waitFor(`${message} (the auto review approved, but the ${node.artifact} document is missing)`);
      }
      const g = at();
      if (!g) return waitFor(message);
      await r.events.transact((uow) => passGate(r, uow, g, { by: 'jig', auto_review: out.session }));
      return 'moved';
    }
    case 'reject': {
      const g = at();
      const target = g ? rejectTarget(chain, g.idx) : null;
      if (!g || target === null) return waitFor(`${message} (the auto review rejected: ${out.note})`);
      const moved = await r.events.transact((uow) =>
        rejectGate(r, uow, g, target, out.note, { by: 'jig', auto_review: out.session }),
      );
      if (moved) return 'moved';
      const now = await itemOf(r, rec.id);
      await walker.stop(now, 'gate', now.stop_reason ?? message, node.id);
      return 'done';
    }
  }
}
