import { randomBytes } from 'node:crypto';
import { JigError } from '../../contract/errors.js';
import type { EventActor } from '../../contract/events.js';
import type { EventPayload } from '../../contract/event-kinds.js';
import type { ReviewThread, ThreadBody } from '../../contract/threads.js';
import { mapRange, parseHunks } from '../../core/review/line-map.js';
import { safeRelativePath } from '../../core/review/paths.js';
import type { Store } from '../../store/database.js';
import {
  commentsOf,
  getThread,
  insertComment,
  insertThread,
  listThreads,
  updateThread,
  type ThreadRow,
} from '../../store/threads.js';
import type { ItemRecord } from '../../store/work-items.js';
import type { EventLog } from '../events/event-log.js';
import { git } from '../git/git.js';
import { OWNER } from './review-service.js';
import { snapshotIfPresent } from './snapshot.js';

export const newReviewId = (prefix: string): string => `${prefix}${randomBytes(5).toString('hex')}`;

/** Refuses a worker acting on its own item where a person must (open, resolve, review). */
export function refuseWorker(rec: ItemRecord, worker: string | undefined, what: string): void {
  if (worker === rec.id) throw new JigError('worker_refused', { what, id: rec.id });
}

/**
 * Review threads on an item's changes: opened by a person (anchored to the worktree's state then),
 * answered by a person or by the item's agent with a claim, resolved and reopened. Lines follow the
 * file as it changes, where git can say.
 */
export class ThreadsService {
  constructor(
    private readonly d: {
      store: Store;
      events: EventLog;
      now: () => string;
      record: (id: string) => Promise<ItemRecord>;
    },
  ) {}

  private async latest(rec: ItemRecord): Promise<string | null> {
    return snapshotIfPresent(rec.worktree_path);
  }

  private async emit(rec: ItemRecord, by: EventActor, payload: EventPayload<'thread_updated'>) {
    await this.d.events.transact(async (uow) => {
      await uow.emit({ work_item_id: rec.id, type: 'thread_updated', by, node: null, payload });
    });
  }

  async list(id: string, openOnly: boolean): Promise<{ threads: ReviewThread[] }> {
    const rec = await this.d.record(id);
    const rows = (await listThreads(this.d.store.db, id)).filter((t) => !openOnly || t.state === 'open');
    const comments = await commentsOf(
      this.d.store.db,
      rows.map((t) => t.id),
    );
    const now = rows.some((t) => t.start_line !== null) ? await this.latest(rec) : null;
    const out: ReviewThread[] = [];
    for (const t of rows) {
      const where = await this.linesNow(rec, t, now);
      out.push({
        id: t.id,
        file_path: t.file_path,
        start_line: t.start_line,
        end_line: t.end_line,
        side: t.side,
        label: t.label,
        suggestion: t.suggestion,
        state: t.state,
        anchor_sha: t.anchor_sha,
        lines_now: where,
        outdated: t.start_line !== null && where === null,
        claim: t.claim,
        comments: comments
          .filter((c) => c.thread_id === t.id)
          .map((c) => ({ id: c.id, by: c.by, body: c.body, claim: c.claim, created_at: c.created_at })),
        created_at: t.created_at,
        updated_at: t.updated_at,
      });
    }
    return { threads: out };
  }

  /**
   * Where a new-side thread's lines are now. Old-side lines (the base's) never move; a thread with
   * no anchor or no worktree keeps its lines as made.
   */
  private async linesNow(rec: ItemRecord, t: ThreadRow, now: string | null) {
    if (t.start_line === null || t.file_path === null) return null;
    const end = t.end_line ?? t.start_line;
    if (t.side === 'old' || !t.anchor_sha || !now || now === t.anchor_sha)
      return { start: t.start_line, end };
    const cwd = rec.worktree_path ?? rec.repo;
    const r = await git(cwd, ['diff', '-U0', '--no-color', t.anchor_sha, now, '--', t.file_path], 30_000, {
      GIT_LITERAL_PATHSPECS: '1',
    });
    if (r.code !== 0) return { start: t.start_line, end };
    return mapRange(parseHunks(r.stdout), t.start_line, end);
  }

  /** Opens a thread, or (with `thread_id`) answers one. The spec's 422 rules come first. */
  async post(id: string, b: ThreadBody, worker: string | undefined): Promise<ReviewThread> {
    const rec = await this.d.record(id);
    const by: EventActor = worker === rec.id ? 'agent' : 'human';
    const now = this.d.now();
    if (b.thread_id !== undefined) {
      const extra = (['file_path', 'start_line', 'end_line', 'side', 'label', 'suggestion'] as const).filter(
        (k) => b[k] !== undefined,
      );
      if (extra.length > 0)
        throw new JigError('validation_failed', {
          reason: `body.${extra[0]}: a reply takes only body and claim (it answers thread ${b.thread_id})`,
        });
      const t = await getThread(this.d.store.db, b.thread_id);
      if (!t || t.item_id !== id) throw new JigError('thread_not_found', { thread: b.thread_id, id });
      await insertComment(this.d.store.db, {
        id: newReviewId('c'),
        thread_id: t.id,
        by: by === 'agent' ? 'agent' : 'human',
        person: by === 'agent' ? null : OWNER,
        body: b.body,
        claim: b.claim ?? null,
        created_at: now,
      });
      await updateThread(this.d.store.db, t.id, {
        updated_at: now,
        ...(b.claim !== undefined ? { claim: b.claim } : {}),
      });
      await this.emit(rec, by, { thread: t.id, action: 'replied', ...(b.claim ? { claim: b.claim } : {}) });
      return this.one(id, t.id);
    }
    refuseWorker(rec, worker, 'open a review thread');
    if (b.claim !== undefined)
      throw new JigError('validation_failed', {
        reason: 'body.claim: a claim answers a thread; pass thread_id',
      });
    const anchored = this.anchorOf(b);
    const t: ThreadRow = {
      id: newReviewId('t'),
      item_id: id,
      ...anchored,
      label: b.label ?? null,
      suggestion: b.suggestion ?? null,
      state: 'open',
      anchor_sha: await this.latest(rec),
      claim: null,
      created_at: now,
      updated_at: now,
    };
    await insertThread(this.d.store.db, t);
    await insertComment(this.d.store.db, {
      id: newReviewId('c'),
      thread_id: t.id,
      by: 'human',
      person: OWNER,
      body: b.body,
      claim: null,
      created_at: now,
    });
    await this.emit(rec, by, { thread: t.id, action: 'opened', label: t.label, file_path: t.file_path });
    return this.one(id, t.id);
  }

  /** The spec's rules: a relative path without `..`; lines need a file; a suggestion is new-side. */
  private anchorOf(b: ThreadBody): Pick<ThreadRow, 'file_path' | 'start_line' | 'end_line' | 'side'> {
    const refuse = (reason: string): never => {
      throw new JigError('validation_failed', { reason });
    };
    if (b.file_path === undefined) {
      for (const k of ['start_line', 'end_line', 'side', 'suggestion'] as const)
        if (b[k] !== undefined) refuse(`body.${k}: place the comment in a file with file_path`);
      return { file_path: null, start_line: null, end_line: null, side: null };
    }
    const file = safeRelativePath(b.file_path, 'body.file_path');
    if (b.end_line !== undefined && b.start_line === undefined)
      refuse('body.end_line: a range needs start_line too');
    if (b.start_line !== undefined && b.end_line !== undefined && b.end_line < b.start_line)
      refuse(`body.end_line: ${b.end_line} is before start_line ${b.start_line}`);
    if (b.suggestion !== undefined && b.side === 'old')
      refuse('body.suggestion: a suggestion replaces new-side lines; it cannot go on the old side');
    if (b.suggestion !== undefined && b.start_line === undefined)
      refuse('body.suggestion: a suggestion replaces lines; pass start_line (and end_line)');
    return {
      file_path: file,
      start_line: b.start_line ?? null,
      end_line: b.start_line === undefined ? null : (b.end_line ?? b.start_line),
      side: b.start_line === undefined ? null : (b.side ?? 'new'),
    };
  }

  async setState(id: string, thread: string, state: 'open' | 'resolved', worker: string | undefined) {
    const rec = await this.d.record(id);
    refuseWorker(rec, worker, state === 'open' ? 'reopen a review thread' : 'resolve a review thread');
    const t = await getThread(this.d.store.db, thread);
    if (!t || t.item_id !== id) throw new JigError('thread_not_found', { thread, id });
    if (t.state !== state) {
      await updateThread(this.d.store.db, thread, { state, updated_at: this.d.now() });
      await this.emit(rec, 'human', { thread, action: state === 'open' ? 'reopened' : 'resolved' });
    }
    return this.one(id, thread);
  }

  private async one(id: string, thread: string): Promise<ReviewThread> {
    const found = (await this.list(id, false)).threads.find((t) => t.id === thread);
    if (!found) throw new JigError('thread_not_found', { thread, id });
    return found;
  }

  /** Open threads, for a review's brief and the must-fix rule. */
  async open(id: string): Promise<ReviewThread[]> {
    return (await this.list(id, true)).threads;
  }

  /**
   * Why an approval is refused now: the must-fix threads still open, named (null when none is).
   * The engine asks it before a gate passes; a review's approval asks it too.
   */
  async mustFixRefusal(id: string): Promise<JigError | null> {
    const open = (await this.open(id)).filter((t) => t.label === 'must-fix');
    if (open.length === 0) return null;
    return new JigError('must_fix_open', { count: open.length, threads: open.map((t) => t.id).join(', ') });
  }
}
