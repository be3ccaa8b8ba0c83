import { JigError } from '../../contract/errors.js';
import type { FixTarget, Review, ReviewOutcome, ReviewThread } from '../../contract/threads.js';
import type { Store } from '../../store/database.js';
import { insertReview, listReviews } from '../../store/threads.js';
import type { ItemRecord } from '../../store/work-items.js';
import type { ResolvedChain } from '../../core/chain/model.js';
import type { Engine } from '../engine/engine.js';
import { gateOpen, pendingGateNote } from '../engine/move-guards.js';
import { rejectTarget } from '../../core/chain/walk-rules.js';
import type { EventLog } from '../events/event-log.js';
import { OWNER } from './review-service.js';
import { snapshotIfPresent } from './snapshot.js';
import { newReviewId, refuseWorker, type ThreadsService } from './threads-service.js';

const NOTE_MAX = 20_000;

/** The brief a request for changes hands the rerun node's agent: the summary and every open thread. */
export function fixBrief(summary: string | undefined, round: number, open: ReviewThread[]): string {
  const parts = [`Review, fix round ${round}: changes requested.`];
  if (summary) parts.push(summary);
  if (open.length > 0) {
    parts.push(
      'Open review threads. Fix each one, then answer it: `jig item reply THREAD --body "what you did" --claim fixed` ' +
        '(or `answered` for a question, `should_fix` when it needs a person).',
    );
    for (const t of open) {
      const where = t.file_path
        ? ` ${t.file_path}${t.lines_now ? `:${t.lines_now.start}-${t.lines_now.end}` : t.start_line ? ` (lines ${t.start_line}-${t.end_line} when commented; changed since)` : ''}`
        : '';
      const label = t.label ? ` (${t.label})` : '';
      const said = t.comments
        .map((c) => `  ${c.by === 'agent' ? 'agent' : 'reviewer'}: ${c.body}`)
        .join('\n');
      const suggestion = t.suggestion
        ? `\n  suggested replacement:\n${t.suggestion.replace(/^/gm, '    ')}`
        : '';
      parts.push(`- [${t.id}]${where}${label}\n${said}${suggestion}`);
    }
  }
  const text = parts.join('\n\n');
  return text.length > NOTE_MAX ? `${text.slice(0, NOTE_MAX - 40)}\n… (cut: read the threads in Jig)` : text;
}

/** Reviews of an item: approve (refused while a must-fix is open), request changes, comment. */
export class ReviewsService {
  constructor(
    private readonly d: {
      store: Store;
      events: EventLog;
      now: () => string;
      record: (id: string) => Promise<ItemRecord>;
      engine: Engine;
      threads: ThreadsService;
      /** The item's chain: frozen once started, else the one it would run (null when unknown). */
      chainOf: (rec: ItemRecord) => ResolvedChain | null;
    },
  ) {}

  private pendingGate(rec: ItemRecord): string | null {
    const g = rec.current_node;
    return rec.status === 'stopped' && rec.stop_kind === 'gate' && g && gateOpen(rec, g) ? g : null;
  }

  async fixTarget(id: string, node?: string): Promise<FixTarget> {
    const rec = await this.d.record(id);
    const round =
      (await listReviews(this.d.store.db, id)).filter((r) => r.outcome === 'request_changes').length + 1;
    const openThreads = (await this.d.threads.open(id)).length;
    const gate = this.pendingGate(rec);
    const chain = rec.chain_definition;
    if (gate && chain) {
      const idx = chain.nodes.findIndex((n) => n.id === gate);
      const target = rejectTarget(chain, idx, node);
      if (target === null)
        return {
          node: null,
          gate,
          round,
          open_threads: openThreads,
          reason:
            node === undefined
              ? `there is nothing before gate ${gate} to send the item back to; cancel the item or approve it`
              : `${node} is not an exec node before ${gate}`,
        };
      return { node: chain.nodes[target]?.id ?? null, gate, round, open_threads: openThreads, reason: null };
    }
    if (rec.status === 'stopped' && rec.current_node)
      return { node: node ?? rec.current_node, gate: null, round, open_threads: openThreads, reason: null };
    return {
      node: null,
      gate: null,
      round,
      open_threads: openThreads,
      reason: `the item is ${rec.status}: changes can be requested when it waits at a gate or is stopped`,
    };
  }

  async submit(
    id: string,
    b: {
      outcome: ReviewOutcome;
      summary?: string | undefined;
      node?: string | undefined;
      digest?: string | undefined;
      request?: number | undefined;
    },
    gate: string | undefined,
    worker: string | undefined,
    /** Who decides: a person, or an agent for one (the MCP tools); recorded on every event. */
    by: 'human' | 'agent' = 'human',
  ): Promise<{ review: Review; rec: ItemRecord }> {
    let rec = await this.d.record(id);
    refuseWorker(rec, worker, 'submit a review');
    const pending = this.pendingGate(rec);
    if (gate !== undefined && this.d.chainOf(rec)?.nodes.find((n) => n.id === gate)?.kind !== 'gate')
      throw new JigError('gate_unknown', { gate, pending: pendingGateNote(rec) });
    if (gate !== undefined && gate !== pending && b.request === undefined)
      throw new JigError(
        'gate_not_waiting',
        { gate, state: rec.status, answered: '', pending: pendingGateNote(rec) },
        { status: rec.status, gate, request: null },
      );
    const atGate = gate ?? pending;
    if (b.node !== undefined && b.outcome !== 'request_changes')
      throw new JigError('validation_failed', { reason: 'body.node: only request_changes reruns a node' });
    if (b.request !== undefined && b.outcome === 'comment')
      throw new JigError('validation_failed', {
        reason: 'body.request: a comment decides no gate; approve or request_changes answer a request',
      });
    if (b.digest !== undefined && b.outcome !== 'approve')
      throw new JigError('validation_failed', {
        reason: "body.digest: only approve checks the gate's document",
      });
    const sha = await snapshotIfPresent(rec.worktree_path);
    const open = await this.d.threads.open(id);
    let node: string | null = null;
    let round: number | null = null;
    if (b.outcome === 'approve') {
      const refused = await this.d.threads.mustFixRefusal(id);
      if (refused) throw refused;
      // A request named is answered by the engine, which refuses one no longer open.
      const decided = atGate ?? (b.request !== undefined ? (rec.current_node ?? '') : null);
      if (decided !== null)
        rec = await this.d.engine.approve(id, decided, by, { digest: b.digest, request: b.request });
    } else if (b.outcome === 'request_changes') {
      // A request named must be the one open: a rerun of another node is not what was decided on.
      if (b.request !== undefined && (pending === null || rec.gate_request !== b.request))
        throw new JigError(
          'gate_not_waiting',
          {
            gate: gate ?? pending ?? rec.current_node ?? 'none',
            state: rec.status,
            answered: `; request ${b.request} is no longer open`,
            pending: pendingGateNote(rec),
          },
          { status: rec.status, gate: gate ?? pending, request: pending ? rec.gate_request : null },
        );
      const target = await this.fixTarget(id, b.node);
      if (target.node === null)
        throw target.gate
          ? new JigError('validation_failed', { reason: `body.node: ${target.reason ?? ''}` })
          : new JigError('no_fix_target', { reason: target.reason ?? 'nothing would rerun' });
      if (!b.summary && open.length === 0)
        throw new JigError('validation_failed', {
          reason: 'body.summary: say what to change, or open a thread first (a fix needs something to fix)',
        });
      node = target.node;
      round = target.round;
      const brief = fixBrief(b.summary, target.round, open);
      rec = target.gate
        ? await this.d.engine.reject(id, target.gate, brief, by, { node: b.node, request: b.request })
        : await this.d.engine.retry(id, by, { steer: brief });
    }
    const review: Review = {
      id: newReviewId('r'),
      outcome: b.outcome,
      summary: b.summary ?? null,
      gate: atGate,
      node,
      round,
      sha,
      created_at: this.d.now(),
    };
    await insertReview(this.d.store.db, { ...review, item_id: id, person: OWNER });
    await this.d.events.transact(async (uow) => {
      await uow.emit({
        work_item_id: id,
        type: 'review_submitted',
        by,
        node,
        payload: {
          review: review.id,
          outcome: b.outcome,
          gate: atGate,
          node,
          round,
          open_threads: open.length,
        },
      });
    });
    return { review, rec: await this.d.record(id) };
  }
}
