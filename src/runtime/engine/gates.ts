import { join } from 'node:path';
import { JigError } from '../../contract/errors.js';
import type { EventActor } from '../../contract/events.js';
import type { ItemRecord } from '../../store/work-items.js';
import { documentReadable, readDocument } from '../fs/worktree-document.js';
import { needsDocument, passGate, rejectGate, type AtGate } from './gate-moves.js';
import { gateOpen, pendingGateNote, unchanged } from './move-guards.js';
import type { EngineResources } from './resources.js';
import { rejectTarget } from './walk-helpers.js';
import { digestOf } from '../review/documents.js';

/** The gate `gate` of the item's chain, or a 404 naming the gate that waits. */
function atGate(rec: ItemRecord, gate: string): AtGate {
  const chain = rec.chain_definition;
  const walk = rec.walk;
  const idx = chain?.nodes.findIndex((n) => n.id === gate) ?? -1;
  const node = chain?.nodes[idx];
  if (!chain || !walk || node?.kind !== 'gate') {
    throw new JigError('gate_unknown', { gate, pending: pendingGateNote(rec) });
  }
  return { rec, chain, walk, idx, gate: node };
}

function refuseClosed(rec: ItemRecord, gate: string): void {
  if (!gateOpen(rec, gate)) {
    throw new JigError(
      'gate_not_waiting',
      { gate, state: rec.status, pending: pendingGateNote(rec) },
      { status: rec.status, gate },
    );
  }
}

/** A person's decisions at a gate, and the document a gate decides on. */
export class Gates {
  constructor(private readonly r: EngineResources) {}

  approve(id: string, gate: string, by: EventActor, digest?: string): Promise<ItemRecord> {
    return this.r.serial(id, async () => {
      const rec = await this.r.item(id);
      const at = atGate(rec, gate);
      // Idempotent: approving a gate already approved answers the item as it is.
      if (at.walk.approved.includes(gate) && at.walk.node > at.idx) return rec;
      refuseClosed(rec, gate);
      if (needsDocument(at.gate) && !this.artifactPath(rec, at.gate.artifact)) {
        throw new JigError('artifact_required', { gate, kind: at.gate.artifact });
      }
      if (digest !== undefined) this.checkDigest(rec, gate, at.gate.artifact, digest);
      const refused = await this.r.approvalRefusal?.(id);
      if (refused) throw refused;
      await this.r.events.transact(async (uow) => {
        await unchanged(uow, rec);
        await passGate(this.r, uow, at, { by });
        await this.r.claim(uow, rec, by);
      });
      const after = await this.r.item(id);
      if (after.status === 'running') this.r.kick(id);
      return after;
    });
  }

  reject(id: string, gate: string, note: string, by: EventActor, node?: string): Promise<ItemRecord> {
    return this.r.serial(id, async () => {
      const rec = await this.r.item(id);
      const at = atGate(rec, gate);
      refuseClosed(rec, gate);
      const target = rejectTarget(at.chain, at.idx, node);
      if (target === null) {
        throw new JigError('validation_failed', {
          reason: `body.node: ${node ?? 'reject_to'} is not an exec node before ${gate}`,
        });
      }
      const back = await this.r.events.transact(async (uow) => {
        await unchanged(uow, rec);
        const moved = await rejectGate(this.r, uow, at, target, note, { by });
        if (moved) await this.r.claim(uow, rec, by);
        return moved;
      });
      const after = await this.r.item(id);
      if (back && after.status === 'running') this.r.kick(id);
      return after;
    });
  }

  /** The document a gate decides on: a path a task reported (`artifact_ref`) for that kind. */
  artifactPath(rec: ItemRecord, kind: string): string | null {
    const rel = rec.walk?.artifacts?.[kind];
    if (!rel || !rec.worktree_path) return null;
    return documentReadable(rec.worktree_path, rel) ? join(rec.worktree_path, rel) : null;
  }

  /** The approval pins a revision: the document must still be the one the person read. */
  private checkDigest(rec: ItemRecord, gate: string, kind: string | undefined, digest: string): void {
    if (!kind) {
      throw new JigError('validation_failed', {
        reason: `body.digest: gate ${gate} shows no document to pin`,
      });
    }
    const rel = rec.walk?.artifacts?.[kind];
    const doc = rel && rec.worktree_path ? readDocument(rec.worktree_path, rel) : null;
    const now = doc?.ok ? digestOf(doc.bytes) : 'unreadable';
    if (now !== digest) throw new JigError('document_changed', { kind, gate, digest: now });
  }

  async artifact(
    id: string,
  ): Promise<{ gate: string; kind: string; path: string; text: string; digest: string }> {
    const rec = await this.r.item(id);
    const gate = rec.current_node;
    if (!rec.chain_definition || !gate || !gateOpen(rec, gate)) {
      throw new JigError('not_found', { what: 'a pending gate' });
    }
    const g = rec.chain_definition.nodes.find((n) => n.id === gate);
    const kind = g?.kind === 'gate' ? g.artifact : undefined;
    const rel = kind ? rec.walk?.artifacts?.[kind] : undefined;
    const root = rec.worktree_path;
    const doc = rel && root ? readDocument(root, rel) : null;
    if (!kind || !rel || !root || !doc?.ok) {
      const why = doc && !doc.ok && doc.reason !== 'missing' ? ` (${rel} ${doc.detail})` : '';
      throw new JigError('not_found', { what: `the document of gate ${gate}${why}` });
    }
    return {
      gate,
      kind,
      path: join(root, rel),
      text: doc.bytes.toString('utf8'),
      digest: digestOf(doc.bytes),
    };
  }
}
