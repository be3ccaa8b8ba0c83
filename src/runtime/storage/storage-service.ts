import type { CleanupAnswer, StorageAnswer, StorageItem } from '../../contract/storage.js';
import type { Store } from '../../store/database.js';
import { itemsWithWorktrees, postgresDatabaseSize, sessionLogs } from '../../store/storage.js';
import { getItem, type ItemRecord } from '../../store/work-items.js';
import type { Clock } from '../clock.js';
import type { EventLog } from '../events/event-log.js';
import type { HomePaths } from '../home/paths.js';
import { reclaimWorktree } from '../items/reclaim.js';
import { diskUse } from './disk-use.js';
import type { PollerLog } from '../intake/schedule-poller.js';

const DAY_MS = 86_400_000;
/** Statuses whose worktree nothing will use again (abandoned ones are reclaimed when abandoned). */
const ENDED = new Set(['completed', 'cancelled']);

/** An item's worktrees: its own and its workspace members'. */
async function worktreeBytes(rec: Pick<ItemRecord, 'worktree_path' | 'workspace'>): Promise<number> {
  let n = await diskUse(rec.worktree_path);
  for (const m of rec.workspace?.members ?? []) n += await diskUse(m.worktree_path);
  return n;
}

/**
 * Storage (docs/storage.md): what the home takes on disk, per part and per item, and a clean-up
 * that reclaims the worktrees of ended, unarchived items — the same reclaim an archive runs, the
 * branch kept — with a dry run that lists what would go and how much it takes.
 */
export class StorageService {
  /** Clean-ups run one at a time, so two never reclaim the same worktree. */
  private line: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly d: { paths: HomePaths; store: Store; events: EventLog; clock: Clock; log: PollerLog },
  ) {}

  async report(): Promise<StorageAnswer> {
    const p = this.d.paths;
    const db = this.d.store.db;
    const logsBy = new Map<string, number>();
    for (const s of await sessionLogs(db))
      logsBy.set(s.work_item_id, (logsBy.get(s.work_item_id) ?? 0) + (await diskUse(s.log_path)));
    const items: StorageItem[] = [];
    let reclaimable = { items: 0, bytes: 0 };
    const holding = new Set<string>();
    for (const row of await itemsWithWorktrees(db)) {
      const rec = await getItem(db, row.id);
      if (!rec) continue;
      const bytes = await worktreeBytes(rec);
      holding.add(rec.id);
      items.push({
        id: rec.id,
        title: rec.title,
        status: rec.status,
        archived: rec.archived_at !== null,
        worktree_path: rec.worktree_path,
        worktree_bytes: bytes,
        log_bytes: logsBy.get(rec.id) ?? 0,
      });
      if (ENDED.has(rec.status) && rec.archived_at === null)
        reclaimable = { items: reclaimable.items + 1, bytes: reclaimable.bytes + bytes };
    }
    // Items whose logs take room though their worktree is gone.
    for (const [id, log_bytes] of logsBy) {
      if (holding.has(id) || log_bytes === 0) continue;
      const rec = await getItem(db, id);
      if (rec)
        items.push({
          id,
          title: rec.title,
          status: rec.status,
          archived: rec.archived_at !== null,
          worktree_path: null,
          worktree_bytes: 0,
          log_bytes,
        });
    }
    items.sort(
      (a, b) => b.worktree_bytes + b.log_bytes - (a.worktree_bytes + a.log_bytes) || a.id.localeCompare(b.id),
    );
    const database_bytes =
      this.d.store.kind === 'postgres'
        ? await postgresDatabaseSize(this.d.store.db)
        : (await diskUse(p.dbPath)) + (await diskUse(`${p.dbPath}-wal`)) + (await diskUse(`${p.dbPath}-shm`));
    const parts = {
      database_bytes,
      worktrees_bytes: await diskUse(p.worktreesDir),
      logs_bytes: await diskUse(p.logsDir),
      results_bytes: await diskUse(p.resultsDir),
      attachments_bytes: await diskUse(p.attachmentsDir),
    };
    return {
      home: p.home,
      total_bytes: Object.values(parts).reduce((a, b) => a + b, 0),
      ...parts,
      items: items.slice(0, 100),
      reclaimable,
    };
  }

  /** The ended, unarchived items with a worktree that ended at least `olderThanDays` ago. */
  private async candidates(olderThanDays: number): Promise<ItemRecord[]> {
    const cutoff = this.d.clock.now() - olderThanDays * DAY_MS;
    const out: ItemRecord[] = [];
    for (const row of await itemsWithWorktrees(this.d.store.db)) {
      if (!ENDED.has(row.status) || row.archived_at !== null) continue;
      if (olderThanDays > 0 && (row.ended_at === null || Date.parse(row.ended_at) > cutoff)) continue;
      const rec = await getItem(this.d.store.db, row.id);
      if (rec) out.push(rec);
    }
    return out;
  }

  cleanup(dryRun: boolean, olderThanDays: number): Promise<CleanupAnswer> {
    const run = this.line.then(() => this.runCleanup(dryRun, olderThanDays));
    this.line = run.catch(() => undefined);
    return run;
  }

  private async runCleanup(dryRun: boolean, olderThanDays: number): Promise<CleanupAnswer> {
    const items: CleanupAnswer['items'] = [];
    for (const rec of await this.candidates(olderThanDays)) {
      const bytes = await worktreeBytes(rec);
      if (!dryRun) {
        // Read again right before: an archive since the listing reclaims it itself.
        const now = await getItem(this.d.store.db, rec.id);
        if (!now || now.worktree_path === null || now.archived_at !== null || !ENDED.has(now.status))
          continue;
        try {
          await reclaimWorktree(this.d.events, now, true, this.d.paths.runDir);
        } catch (err) {
          // One worktree git cannot remove does not stop the others; it stays listed as reclaimable.
          this.d.log.warn({ err, work_item_id: rec.id }, 'clean-up: reclaiming the worktree failed');
          continue;
        }
      }
      items.push({
        id: rec.id,
        title: rec.title,
        status: rec.status,
        ended_at: rec.ended_at,
        worktree_path: rec.worktree_path,
        bytes,
      });
    }
    return { dry_run: dryRun, items, bytes: items.reduce((a, b) => a + b.bytes, 0) };
  }
}
