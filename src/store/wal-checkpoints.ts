import type BetterSqlite3 from 'better-sqlite3';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/*
 * Checkpoints of the write-ahead log off the event loop, once the store is busy (issue 43).
 *
 * In WAL mode SQLite copies the log back into the database file every 1 000 pages, in the commit
 * that crosses the mark, and that copy ends with an fsync even at `synchronous = NORMAL`. Under a
 * stream of writes it is half of what commits cost (8 items a commit: 226 ms for 500 commits with
 * it, 119 ms without), and it lands on one unlucky request as a 5-10 ms stall. A second connection
 * on a worker thread can do the same copy at the same time as the writer goes on (a PASSIVE
 * checkpoint takes no lock the writer needs), so a busy server hands it there.
 *
 * Only a busy server (200 rows a second for three seconds): a thread costs some 70 ms of CPU and
 * 10-20 MiB to start, which an idle server, a CLI command and each of the hundreds of servers the
 * test suite starts should not pay.
 * Until then SQLite's own automatic checkpoint runs as before, and it comes back if the thread
 * fails.
 */

/** Rows written in one look (a second) that count as busy: some 50 filings a second. */
const BUSY_ROWS = 200;
/**
 * Busy looks in a row that hand the checkpoints over: a start writes several hundred rows in its
 * first second (the seeded chains and library into the search index) and is quiet after.
 */
const BUSY_LOOKS = 3;
const LOOK_MS = 1000;
/** How often the thread looks for commits to copy. */
const CHECKPOINT_MS = 100;
/** SQLite's own default, restored when the thread stops working. */
const AUTO_PAGES = 1000;

/*
 * The thread's code, as text so the bundled server needs no file of its own beside it. It loads
 * the same better-sqlite3 the server uses (its path is handed over), and checkpoints only after
 * another connection committed (data_version moved).
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
let db = null;
let timer = null;
const stop = () => {
  clearInterval(timer);
  if (db) db.close();
  db = null;
  parentPort.close();
};
const fail = (err) => {
  parentPort.postMessage({ failed: String((err && err.message) || (err && err.code) || err) });
  stop();
};
try {
  const Database = require(workerData.module);
  db = new Database(workerData.path, { fileMustExist: true });
  const version = db.prepare('PRAGMA data_version').pluck();
  const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  let seen = null;
  const look = () => {
    try {
      const now = version.get();
      if (now === seen) return;
      seen = now;
      checkpoint.all();
      parentPort.postMessage({ checkpointed: true });
    } catch (err) {
      fail(err);
    }
  };
  // The store is busy, so there is a backlog: the first copy is made at once.
  look();
  timer = setInterval(look, workerData.every);
  parentPort.on('message', stop);
} catch (err) {
  fail(err);
}
`;

export interface CheckpointHooks {
  /** The thread failed (it could not load, or a checkpoint threw): SQLite's own checkpoints are back. */
  onError?(err: unknown): void;
  /** Each checkpoint the thread made (tests). */
  onCheckpoint?(): void;
}

export class WalCheckpoints {
  private timer: NodeJS.Timeout | null = null;
  private worker: Worker | null = null;
  private rows: number;
  private busyLooks = 0;
  private readonly totalChanges: BetterSqlite3.Statement;

  constructor(
    private readonly raw: BetterSqlite3.Database,
    private readonly path: string,
    private readonly hooks: CheckpointHooks = {},
    private readonly busyRows = BUSY_ROWS,
    private readonly looksNeeded = BUSY_LOOKS,
  ) {
    this.totalChanges = raw.prepare('SELECT total_changes()').pluck();
    this.rows = this.changes();
  }

  private changes(): number {
    return Number(this.totalChanges.get());
  }

  /** Looks once a second whether the store has become busy. */
  watch(lookMs = LOOK_MS): void {
    this.timer = setInterval(() => this.look(), lookMs);
    this.timer.unref();
  }

  /** One look: the rows written since the last, and the hand-over when they were many for long enough. */
  look(): void {
    if (this.worker) return;
    const now = this.changes();
    this.busyLooks = now - this.rows >= this.busyRows ? this.busyLooks + 1 : 0;
    this.rows = now;
    if (this.busyLooks >= this.looksNeeded) this.handOver();
  }

  /** Whether a thread does the checkpoints now. */
  get offloaded(): boolean {
    return this.worker !== null;
  }

  private handOver(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const worker = new Worker(THREAD, {
      eval: true,
      // The thread needs none of the server's loaders or flags.
      execArgv: [],
      workerData: {
        module: createRequire(import.meta.url).resolve('better-sqlite3'),
        path: this.path,
        every: CHECKPOINT_MS,
      },
    });
    worker.unref();
    const failed = (err: Error): void => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.raw.pragma(`wal_autocheckpoint = ${AUTO_PAGES}`);
      this.hooks.onError?.(err);
    };
    worker.on('message', (m: { checkpointed?: true; failed?: string }) => {
      if (m.failed !== undefined) failed(new Error(`the checkpoint thread stopped: ${m.failed}`));
      else this.hooks.onCheckpoint?.();
    });
    worker.on('error', failed);
    this.worker = worker;
    this.raw.pragma('wal_autocheckpoint = 0');
  }

  /** Stops the thread (its connection closed) before the store's own connection closes. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const exited = once(worker, 'exit');
    // Waited for: the close must not end before the thread has closed its connection.
    worker.ref();
    worker.postMessage('stop');
    // A thread that failed on its way out has ended all the same.
    await exited.catch(() => undefined);
  }
}
