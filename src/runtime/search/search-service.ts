import { z } from 'zod';
import type { EventRecord } from '../../contract/events.js';
import { JigError } from '../../contract/errors.js';
import type { IndexState } from '../../contract/health.js';
import type { ReindexState, SearchAnswer, SearchKind } from '../../contract/search.js';
import { ftsQuery } from '../../core/search/fts-query.js';
import type { Store } from '../../store/database.js';
import { readEvents } from '../../store/events.js';
import { deleteEntries, entryCount, searchEntries } from '../../store/search.js';
import { listThreads } from '../../store/threads.js';
import { stamp, type Clock } from '../clock.js';
import type { EventLog } from '../events/event-log.js';
import type { HomePaths } from '../home/paths.js';
import type { PollerLog } from '../intake/schedule-poller.js';
import { DeferredIndex } from './deferred-index.js';
import {
  indexEvent,
  indexEvents,
  indexItem,
  indexItemFiles,
  indexTemplates,
  indexThread,
} from './entries.js';

export interface SearchDeps {
  store: Store;
  events: EventLog;
  paths: HomePaths;
  clock: Clock;
  log: PollerLog;
}

const META_SCAN = 'search:last_scan';
/** What the last full or partial rescan stored in jig_meta. */
const LastScan = z.object({ at: z.string(), repos: z.number().int() });

/**
 * Events after which an item's files (documents, attachments) are read again. Not its filing: an
 * item is filed without a worktree, and the files are read from there.
 */
const FILES_CHANGED = new Set(['node_completed', 'attachments_changed', 'gate_requested']);

/**
 * Search (docs/search.md): FTS5 over items, their events' text, review threads, documents,
 * attachments, tracker issues, chains and library components. Text Jig holds is indexed from the
 * events that change it: after their commit in batches on SQLite (deferred-index.ts), in the
 * writer's transaction on PostgreSQL; files after the events that change them; a rescan rebuilds
 * everything in the background, item by item, with its progress.
 */
/** How long health's index figures are answered again before the index is counted anew. */
const HEALTH_KEPT_MS = 1_000;

export class SearchService {
  private job: ReindexState = {
    state: 'idle',
    repo: null,
    started_at: null,
    finished_at: null,
    items_done: 0,
    items_total: 0,
    error: null,
  };
  private running: Promise<void> | null = null;
  private files: Promise<unknown> = Promise.resolve();
  private unsubscribe: (() => void) | null = null;
  private stopping = false;

  private readonly deferred: DeferredIndex | null;
  private counted: { at: number; state: IndexState } | null = null;

  constructor(private readonly d: SearchDeps) {
    if (d.store.kind === 'postgres') {
      d.events.setIndexer(indexEvents);
      this.deferred = null;
    } else {
      this.deferred = new DeferredIndex({ store: d.store, events: d.events, log: d.log });
    }
  }

  start(): void {
    this.deferred?.start();
    this.unsubscribe = this.d.events.subscribe((events: readonly EventRecord[]) => {
      const ids = new Set(events.filter((e) => FILES_CHANGED.has(e.type)).map((e) => e.work_item_id));
      for (const id of ids) this.queueFiles(id);
    });
  }

  async stop(): Promise<void> {
    // A rescan in progress stops after the item it is at; the next start finds the index as it was left.
    this.stopping = true;
    this.unsubscribe?.();
    await this.deferred?.stop();
    await this.files;
    await this.running;
  }

  private queueFiles(id: string): void {
    this.files = this.files
      .then(() => indexItemFiles(this.d.store.db, id, this.d.paths.attachmentsDir))
      .catch((err: unknown) =>
        this.d.log.warn({ err, work_item_id: id }, 'indexing the item’s files failed'),
      );
  }

  async search(q: string, limit: number, kind?: SearchKind): Promise<SearchAnswer> {
    const match = ftsQuery(q);
    if (match === null)
      throw new JigError(
        'validation_failed',
        { reason: 'query.q: no word to look for' },
        { issues: [{ field: 'query.q', message: 'no word to look for' }] },
      );
    // What was committed before the search is found by it.
    await this.deferred?.flush();
    return { results: await searchEntries(this.d.store.db, match, limit, kind) };
  }

  /** Chains and library components again (at start and after a reload). */
  async indexTemplates(): Promise<void> {
    await indexTemplates(this.d.store.db, this.d.paths.configDir);
    this.counted = null;
  }

  get state(): ReindexState {
    return { ...this.job };
  }

  /**
   * Health's `index`. Counting the entries reads the whole index, and health is asked often (load
   * balancers, the board's footer): the figures are kept a second, and counted again at once after
   * a rescan or a templates' reindex.
   */
  async health(): Promise<IndexState> {
    const now = this.d.clock.now();
    if (this.counted !== null && now - this.counted.at < HEALTH_KEPT_MS) return this.counted.state;
    const state = await this.countIndex();
    this.counted = { at: now, state };
    return state;
  }

  private async countIndex(): Promise<IndexState> {
    await this.deferred?.flush();
    const row = await this.d.store.db
      .selectFrom('jig_meta')
      .select('value')
      .where('key', '=', META_SCAN)
      .executeTakeFirst();
    let last: z.infer<typeof LastScan> | null = null;
    try {
      const parsed = LastScan.safeParse(row ? JSON.parse(row.value) : null);
      last = parsed.success ? parsed.data : null;
    } catch {
      last = null;
    }
    return {
      last_scan_at: last?.at ?? null,
      repos_scanned: last?.repos ?? 0,
      documents: await entryCount(this.d.store.db),
      embeddings: 'off',
    };
  }

  /** Starts a rescan in the background (one at a time: asking while one runs answers its state). */
  reindex(repo: string | null): ReindexState {
    if (this.job.state === 'running') return this.state;
    this.job = {
      state: 'running',
      repo,
      started_at: stamp(this.d.clock),
      finished_at: null,
      items_done: 0,
      items_total: 0,
      error: null,
    };
    this.running = this.rescan(repo).then(
      (at) => {
        this.job = { ...this.job, state: 'done', finished_at: at };
      },
      (err: unknown) => {
        this.d.log.error({ err }, 'search rescan failed');
        this.job = {
          ...this.job,
          state: 'failed',
          finished_at: stamp(this.d.clock),
          error: err instanceof Error ? err.message : String(err),
        };
      },
    );
    return this.state;
  }

  /** Waits for a rescan in progress (tests, stop). */
  async settled(): Promise<void> {
    await this.running;
  }

  /** Rebuilds the entries; answers when it finished, as health's `last_scan_at` has it. */
  private async rescan(repo: string | null): Promise<string> {
    const db = this.d.store.db;
    await this.deferred?.flush();
    let q = db.selectFrom('work_items').select(['id', 'repo']);
    if (repo !== null) q = q.where('repo', '=', repo);
    const items = await q.orderBy('created_at').execute();
    this.job.items_total = items.length;
    for (const it of items) {
      if (this.stopping) throw new Error('the server is stopping');
      await db.transaction().execute(async (tx) => {
        for (const kind of ['item', 'event', 'thread'] as const) await deleteEntries(tx, kind, it.id);
        await indexItem(tx, it.id);
        for (let after = 0; ;) {
          const page = await readEvents(tx, { workItemId: it.id, after, limit: 1000 });
          for (const e of page) await indexEvent(tx, e, it.repo);
          if (page.length < 1000) break;
          after = page[page.length - 1]!.seq;
        }
        for (const t of await listThreads(tx, it.id)) await indexThread(tx, t.id, it.repo);
      });
      await indexItemFiles(db, it.id, this.d.paths.attachmentsDir);
      this.job.items_done++;
    }
    if (repo === null) await this.indexTemplates();
    const repos = new Set(items.map((i) => i.repo)).size;
    const at = stamp(this.d.clock);
    const value = JSON.stringify({ at, repos });
    await db
      .insertInto('jig_meta')
      .values({ key: META_SCAN, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
    this.counted = null;
    return at;
  }
}
