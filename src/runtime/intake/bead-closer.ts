import type { EventRecord } from '../../contract/events.js';
import type { Store } from '../../store/database.js';
import { endedWithOpenIssues, issuesOf, setClosing } from '../../store/item-issues.js';
import { getItem, type ItemRecord } from '../../store/work-items.js';
import type { EventLog } from '../events/event-log.js';
import { git } from '../git/git.js';
import { closeBeads } from './beads.js';
import type { PollerLog } from './schedule-poller.js';

export interface BeadCloserDeps {
  store: Store;
  events: EventLog;
  log: PollerLog;
  env?: NodeJS.ProcessEnv;
}

/** Whether the item's branch (or a member's) has commits past the base it was cut from. */
async function changedSomething(rec: ItemRecord): Promise<boolean> {
  const heads = [
    { repo: rec.repo, base: rec.base_ref },
    ...(rec.workspace?.members ?? []).map((m) => ({ repo: m.repo_path, base: m.base_ref })),
  ];
  for (const h of heads) {
    if (!h.base) continue;
    const r = await git(h.repo, ['rev-list', '--count', `${h.base}..refs/heads/${rec.branch}`]);
    if (r.code === 0 && Number(r.stdout.trim()) > 0) return true;
  }
  return false;
}

const ENDED = new Set([
  'work_item_completed',
  'work_item_manually_completed',
  'work_item_cancelled',
  'work_item_abandoned',
]);

/**
 * Closes the beads an item implements when it ends (docs/intake.md): a completed item that changed
 * something closes them with `bd close` (`beads_closed`); otherwise, or when `bd` cannot, they stay
 * open (`beads_left_open`, with why). What became of each is stored, so an end cut off by a restart
 * is finished at the next start (`sweep`).
 */
export class BeadCloser {
  private queue: Promise<unknown> = Promise.resolve();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly d: BeadCloserDeps) {}

  start(): void {
    this.unsubscribe = this.d.events.subscribe((events: readonly EventRecord[]) => {
      for (const e of events) if (ENDED.has(e.type) && e.work_item_id) void this.settle(e.work_item_id);
    });
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.queue;
  }

  /** Items that ended while no server ran their close: settled now. */
  async sweep(): Promise<number> {
    const ids = await endedWithOpenIssues(this.d.store.db);
    for (const id of ids) await this.settle(id);
    return ids.length;
  }

  /** One item's beads, after any in progress (one `bd` at a time, in the order items ended). */
  settle(id: string): Promise<void> {
    const run = this.queue.then(() => this.run(id));
    this.queue = run.catch((err: unknown) =>
      this.d.log.error({ err, work_item_id: id }, 'closing beads failed'),
    );
    return this.queue.then(() => undefined);
  }

  private async run(id: string): Promise<void> {
    const db = this.d.store.db;
    const rec = await getItem(db, id);
    if (!rec) return;
    const open = (await issuesOf(db, id)).filter((i) => i.tracker === 'beads' && i.closing === 'open');
    if (open.length === 0) return;
    const beads = open.map((i) => i.id);
    let why: string | null;
    if (rec.status !== 'completed') why = `the item was ${rec.status}`;
    else if (!(await changedSomething(rec))) why = 'nothing changed on its branch';
    else why = await closeBeads(rec.repo, beads, `Done in Jig work item ${rec.id}: ${rec.title}`, this.d.env);
    await this.d.events.transact(async (uow) => {
      await setClosing(uow.db, id, 'beads', beads, why === null ? 'closed' : 'left_open');
      await uow.emit(
        why === null
          ? { work_item_id: id, type: 'beads_closed', by: 'jig', payload: { beads } }
          : { work_item_id: id, type: 'beads_left_open', by: 'jig', payload: { beads, reason: why } },
      );
    });
  }
}
