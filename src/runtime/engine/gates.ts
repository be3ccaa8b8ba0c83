import { join } from 'node:path';
import { own } from '../../core/json/own.js';
import { JigError } from '../../contract/errors.js';
import type { EventActor } from '../../contract/events.js';
import type { ItemRecord } from '../../store/work-items.js';
import { documentProblem, documentReadable, readDocument } from '../fs/worktree-document.js';
import { atGate, needsDocument, passGate, rejectGate, type AtGate } from './gate-moves.js';
import { answeredBefore, waitsOn, type Decision } from './gate-requests.js';
import { gateOpen, rowOf } from './move-guards.js';
import { itemOf, type EngineResources } from './resources.js';
import type { Slots } from './slots.js';
import type { WalkRequests } from './walk-requests.js';
import { rejectTarget } from '../../core/chain/walk-rules.js';
import { digestOf } from '../review/documents.js';

/** What a person sends with a decision besides the gate. */
export interface DecisionOptions {
  /** The gate request the sender saw (`gate_request` of the item); absent: the one open on arrival. */
  request?: number | undefined;
  /** Approve only: the digest of the document the sender read. */
  digest?: string | undefined;
}

/**
 * A person's decisions at a gate, and the document a gate decides on. A decision answers one gate
 * request: the one it names, or the one open when it arrives. It is decided on the row inside its
 * transaction, never in the item's queue, so it answers at once whatever the walk is doing, and of
 * two decisions on one request exactly one applies (docs/chains.md, "Gates").
 */
export class Gates {
  constructor(
    private readonly r: EngineResources,
    private readonly slots: Pick<Slots, 'claim'>,
    private readonly walks: WalkRequests,
  ) {}

  async approve(id: string, gate: string, by: EventActor, opts: DecisionOptions = {}): Promise<ItemRecord> {
    const seen = await itemOf(this.r, id);
    const at = atGate(seen, gate);
    const request = opts.request ?? (gateOpen(seen, gate) ? seen.gate_request : undefined);
    const decision: Decision = { kind: 'approve' };
    if (waitsOn(seen, gate, request)) {
      // Read outside the transaction (files, other tables), for the request seen; the
      // transaction below writes only while that request is still the one open.
      this.refuseDocument(seen, at);
      if (opts.digest !== undefined) this.checkDigest(seen, gate, at.gate.artifact, opts.digest);
      const refused = await this.r.threads?.mustFixRefusal(id);
      if (refused) throw refused;
    }
    const applied = await this.r.events.transact(async (uow) => {
      const rec = await rowOf(uow, id);
      if (!waitsOn(rec, gate, request)) return answeredBefore(uow, rec, gate, request, decision);
      await passGate(this.r, uow, atGate(rec, gate), { by, ...requestOf(rec) });
      await this.slots.claim(uow, rec, by);
      return true;
    });
    const after = await itemOf(this.r, id);
    if (applied && after.status === 'running') this.walks.walk(id);
    return after;
  }

  async reject(
    id: string,
    gate: string,
    note: string,
    by: EventActor,
    opts: DecisionOptions & { node?: string | undefined } = {},
  ): Promise<ItemRecord> {
    const seen = await itemOf(this.r, id);
    atGate(seen, gate);
    const request = opts.request ?? (gateOpen(seen, gate) ? seen.gate_request : undefined);
    const decision: Decision = { kind: 'reject', note };
    const moved = await this.r.events.transact(async (uow) => {
      const rec = await rowOf(uow, id);
      if (!waitsOn(rec, gate, request)) return answeredBefore(uow, rec, gate, request, decision);
      const at = atGate(rec, gate);
      const target = rejectTarget(at.chain, at.idx, opts.node);
      if (target === null) {
        // A node the person named is a bad field; a gate with no node before it at all is a rule of
        // the chain, said in words with what can be done instead (the manual chain's first gate).
        if (opts.node !== undefined)
          throw new JigError('validation_failed', {
            reason: `body.node: ${opts.node} is not an exec node before ${gate}`,
          });
        throw new JigError('reject_nowhere', { gate }, { gate });
      }
      const back = await rejectGate(this.r, uow, at, target, note, { by, ...requestOf(rec) });
      if (back) await this.slots.claim(uow, rec, by);
      return back;
    });
    const after = await itemOf(this.r, id);
    if (moved && after.status === 'running') this.walks.walk(id);
    return after;
  }

  /**
   * A gate that needs its document, or shows one that cannot be read (too large, a link out, not a
   * file): a person cannot have read it, so it is not approved.
   */
  private refuseDocument(rec: ItemRecord, at: AtGate): void {
    const kind = at.gate.artifact;
    if (!kind) return;
    const rel = own(rec.walk?.artifacts, kind);
    const problem = rel && rec.worktree_path ? documentProblem(rec.worktree_path, rel) : null;
    if (problem !== null) {
      throw new JigError('artifact_required', { gate: at.gate.id, kind, why: `: ${rel} ${problem}` });
    }
    if (needsDocument(at.gate) && !this.artifactPath(rec, kind)) {
      throw new JigError('artifact_required', { gate: at.gate.id, kind, why: '' });
    }
  }

  /** The document a gate decides on: a path a task reported (`artifact_ref`) for that kind. */
  artifactPath(rec: ItemRecord, kind: string): string | null {
    const rel = own(rec.walk?.artifacts, kind);
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
    const rel = own(rec.walk?.artifacts, kind);
    const doc = rel && rec.worktree_path ? readDocument(rec.worktree_path, rel) : null;
    const now = doc?.ok ? digestOf(doc.bytes) : 'unreadable';
    if (now !== digest) throw new JigError('document_changed', { kind, gate, digest: now });
  }

  async artifact(
    id: string,
  ): Promise<{ gate: string; kind: string; path: string; text: string; digest: string }> {
    const rec = await itemOf(this.r, id);
    const gate = rec.current_node;
    if (!rec.chain_definition || !gate || !gateOpen(rec, gate)) {
      throw new JigError('not_found', { what: 'a pending gate' });
    }
    const g = rec.chain_definition.nodes.find((n) => n.id === gate);
    const kind = g?.kind === 'gate' ? g.artifact : undefined;
    const rel = kind ? own(rec.walk?.artifacts, kind) : undefined;
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

/** The request a decision on this row answers, for its event. */
function requestOf(rec: ItemRecord): { request?: number } {
  return rec.gate_request === null ? {} : { request: rec.gate_request };
}
