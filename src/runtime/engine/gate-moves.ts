import { stamp } from '../clock.js';
import { JigError } from '../../contract/errors.js';
import { own } from '../../core/json/own.js';
import type { EventActor } from '../../contract/events.js';
import { pendingGateNote } from './move-guards.js';
import type { Walk } from '../../contract/walk.js';
import type { ModelGateNode, ResolvedChain } from '../../core/chain/model.js';
import { atNode } from '../../core/chain/walk-state.js';
import { updateItem, type ItemRecord } from '../../store/work-items.js';
import type { UnitOfWork } from '../events/event-log.js';
import { policyOf, type EngineResources } from './resources.js';

/** An item at a gate, as the gate's moves read it: its chain, its walk, the gate and its index. */
export interface AtGate {
  rec: ItemRecord;
  chain: ResolvedChain;
  walk: Walk;
  idx: number;
  gate: ModelGateNode;
}

/** The gate `gate` of the item's chain, or a 404 naming the gate that waits. */
export function atGate(rec: ItemRecord, gate: string): AtGate {
  const chain = rec.chain_definition;
  const walk = rec.walk;
  const idx = chain?.nodes.findIndex((n) => n.id === gate) ?? -1;
  const node = chain?.nodes[idx];
  if (!chain || !walk || node?.kind !== 'gate') {
    throw new JigError('gate_unknown', { gate, pending: pendingGateNote(rec) });
  }
  return { rec, chain, walk, idx, gate: node };
}

/** How an approval or rejection came: a person's, or the gate's reviewer (its session). */
export interface GateVia {
  by: EventActor;
  auto_review?: string;
  /** The gate request a person's decision answers (the seq of its `gate_requested`). */
  request?: number;
}

/** What the decision's event says of how it came. */
function viaPayload(via: GateVia): { auto_review?: string; request?: number } {
  return {
    ...(via.auto_review !== undefined ? { auto_review: via.auto_review } : {}),
    ...(via.request !== undefined ? { request: via.request } : {}),
  };
}

/** Whether an approval needs the gate's document first. */
export const needsDocument = (g: ModelGateNode): g is ModelGateNode & { artifact: string } =>
  !!g.artifact && !!(g.artifact_required || g.chain_finalized);

/** The walk moves past an approved gate; its auto-review count is spent with it. */
export async function passGate(r: EngineResources, uow: UnitOfWork, at: AtGate, via: GateVia): Promise<void> {
  const { rec, chain, walk, idx, gate } = at;
  const reviews = { ...walk.reviews };
  delete reviews[gate.id];
  const next: Walk = { ...atNode(walk, idx + 1), approved: [...walk.approved, gate.id], reviews };
  const after = chain.nodes[idx + 1]?.id ?? null;
  await updateItem(uow.db, rec.id, {
    walk: next,
    current_node: after,
    gate_request: null,
    updated_at: stamp(r.clock),
  });
  await uow.emit({
    work_item_id: rec.id,
    type: 'gate_approved',
    by: via.by,
    node: gate.id,
    payload: { gate: gate.id, ...viaPayload(via) },
  });
}

/**
 * Sends the walk back to `target` with the note as its steer, unless the gate's reject loop is
 * used up: then the item stays at the gate, saying so, and the gate asks again (a new request, so
 * a second decision on the one just answered is refused like any other). Answers whether the walk
 * moved.
 */
export async function rejectGate(
  r: EngineResources,
  uow: UnitOfWork,
  at: AtGate,
  target: number,
  note: string,
  via: GateVia,
): Promise<boolean> {
  const { rec, chain, walk, gate } = at;
  const count = (own(walk.rejects, gate.id) ?? 0) + 1;
  const cap = policyOf(r, rec)?.default?.attempts ?? 3;
  const reviews = { ...walk.reviews };
  delete reviews[gate.id];
  const extra = viaPayload(via);
  const rejects = { ...walk.rejects, [gate.id]: count };
  if (count > cap) {
    const reason = `${gate.id} exhausted after ${cap} rejection(s): approve it, skip it, or cancel the item`;
    await uow.emit({
      work_item_id: rec.id,
      type: 'gate_rejected',
      by: via.by,
      node: gate.id,
      payload: { gate: gate.id, note, exhausted: true, ...extra },
    });
    // Only a stopped item waits on a request; the reviewer's rejection stops it right after.
    const again =
      rec.status === 'stopped'
        ? await uow.emit({
            work_item_id: rec.id,
            type: 'gate_requested',
            by: 'jig',
            node: gate.id,
            payload: { gate: gate.id, message: reason },
          })
        : null;
    await updateItem(uow.db, rec.id, {
      walk: { ...walk, rejects },
      stop_reason: reason,
      ...(again ? { gate_request: again.seq } : {}),
      updated_at: stamp(r.clock),
    });
    return false;
  }
  const back = chain.nodes[target]?.id;
  if (back === undefined)
    throw new Error(`gate ${gate.id} sends the walk to node #${target}, which the chain lacks`);
  await updateItem(uow.db, rec.id, {
    walk: { ...atNode(walk, target), rejects, reviews },
    steer: note,
    current_node: back,
    gate_request: null,
    updated_at: stamp(r.clock),
  });
  await uow.emit({
    work_item_id: rec.id,
    type: 'gate_rejected',
    by: via.by,
    node: gate.id,
    payload: { gate: gate.id, note, reject_to: back, count, ...extra },
  });
  return true;
}
