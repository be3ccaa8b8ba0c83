import { isKnownEvent, type EventRecord } from '../../contract/events.js';
import { readEvents } from '../../store/events.js';
import { FORGE_TRACKERS, IssueTracker, type ItemIssue } from '../../contract/item-issues.js';
import type { Store } from '../../store/database.js';
import { endedWithOpenIssues, issuesOf, setClosing } from '../../store/item-issues.js';
import { listMergeRequests } from '../../store/merge-requests.js';
import { getItem, type ItemRecord } from '../../store/work-items.js';
import { commitsPast } from '../engine/members.js';
import type { EventLog } from '../events/event-log.js';
import { closeBeads } from './beads.js';
import type { PollerLog } from './schedule-poller.js';
import { ForgeError } from '../forge/types.js';
import { issueHandle, type HandleDeps } from './tracker-handles.js';
import type { TrackerQueue } from './tracker-queue.js';
import { TrackerError } from './trackers/http.js';

export interface IssueCloserDeps extends HandleDeps {
  store: Store;
  events: EventLog;
  log: PollerLog;
  /** Shared with IssueFeedback: comments on an item's issues go before their close. */
  queue: TrackerQueue;
}

/** A failure that may pass (a timeout, a forge or tracker out of reach): tried again at the next start. */
const transient = (err: unknown): boolean =>
  (err instanceof ForgeError || err instanceof TrackerError) &&
  (err.kind === 'timeout' || err.kind === 'unreachable');

/**
 * Whether the item's branch (or a member's) has commits past the base it was cut from; when git
 * cannot say, it did not, so an issue is never closed on a guess.
 */
async function changedSomething(rec: ItemRecord): Promise<boolean> {
  const heads = [
    { repo: rec.repo, base: rec.base_ref },
    ...(rec.workspace?.members ?? []).map((m) => ({ repo: m.repo_path, base: m.base_ref })),
  ];
  for (const h of heads) {
    if (!h.base) continue;
    if (((await commitsPast(h.repo, h.base, `refs/heads/${rec.branch}`)) ?? 0) > 0) return true;
  }
  return false;
}

/** Whether the person who completed the item by hand asked for its issues closed (`close_beads`). */
async function closeAsked(db: Store['db'], id: string): Promise<boolean> {
  const [last] = await readEvents(db, {
    workItemId: id,
    type: 'work_item_manually_completed',
    before: Number.MAX_SAFE_INTEGER,
    limit: 1,
  });
  return last !== undefined && isKnownEvent(last) && last.type === 'work_item_manually_completed'
    ? last.payload.close_beads === true
    : false;
}

const ENDED = new Set([
  'work_item_completed',
  'work_item_manually_completed',
  'work_item_cancelled',
  'work_item_abandoned',
]);

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * Closes the issues an item implements when it ends (docs/intake.md): a completed item that changed
 * something closes them — beads with `bd close`, Linear and Jira issues through their APIs, forge
 * issues through the forge unless the item's merge request is to close them as it merges —;
 * otherwise, or when the tracker refuses, they stay open with why. What became of each is stored,
 * so an end cut off by a restart is finished at the next start (`sweep`).
 */
export class IssueCloser {
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly d: IssueCloserDeps) {}

  start(): void {
    if (this.unsubscribe) return;
    this.unsubscribe = this.d.events.subscribe((events: readonly EventRecord[]) => {
      for (const e of events) if (ENDED.has(e.type) && e.work_item_id) void this.settle(e.work_item_id);
    });
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.d.queue.drain();
  }

  /** Items that ended while no server ran their close: settled now. */
  async sweep(): Promise<number> {
    const ids = await endedWithOpenIssues(this.d.store.db);
    // A sweep outliving stop() (the lead moved on) settles no more: the next leader's sweep does.
    for (const id of ids) if (this.unsubscribe) await this.settle(id);
    return ids.length;
  }

  /** One item's issues, after any in progress (one tracker call at a time, in the order items ended). */
  settle(id: string): Promise<void> {
    return this.d.queue.run(`closing the issues of ${id}`, () => this.run(id));
  }

  private async run(id: string): Promise<void> {
    const db = this.d.store.db;
    const rec = await getItem(db, id);
    if (!rec) return;
    const open = (await issuesOf(db, id)).filter((i) => i.closing === 'open');
    if (open.length === 0) return;
    let why: string | null = null;
    if (rec.status !== 'completed') why = `the item was ${rec.status}`;
    else if (!(await changedSomething(rec)) && !(await closeAsked(db, id)))
      why = 'nothing changed on its branch';
    for (const tracker of IssueTracker.options) {
      const issues = open.filter((i) => i.tracker === tracker);
      if (issues.length === 0) continue;
      if (tracker === 'beads') await this.beads(rec, issues, why);
      else await this.others(rec, tracker, issues, why);
    }
  }

  private async beads(rec: ItemRecord, open: ItemIssue[], ended: string | null): Promise<void> {
    const beads = open.map((i) => i.id);
    const why =
      ended ??
      (await closeBeads(rec.repo, beads, `Done in Jig work item ${rec.id}: ${rec.title}`, this.d.env));
    await this.d.events.transact(async (uow) => {
      await setClosing(uow.db, rec.id, 'beads', beads, why === null ? 'closed' : 'left_open');
      await uow.emit(
        why === null
          ? { work_item_id: rec.id, type: 'beads_closed', by: 'jig', payload: { beads } }
          : { work_item_id: rec.id, type: 'beads_left_open', by: 'jig', payload: { beads, reason: why } },
      );
    });
  }

  /** Why a forge issue is not Jig's to close: the item's merge request closes it as it merges. */
  private async mergeRequestCloses(rec: ItemRecord): Promise<{ merged: boolean; url: string } | null> {
    const mr = (await listMergeRequests(this.d.store.db, rec.id)).find((m) => m.repo === rec.repo);
    return mr ? { merged: mr.state === 'merged', url: mr.url } : null;
  }

  private async others(rec: ItemRecord, tracker: IssueTracker, open: ItemIssue[], ended: string | null) {
    const closed: string[] = [];
    const left: { id: string; why: string }[] =
      ended === null ? [] : open.map((i) => ({ id: i.id, why: ended }));
    if (ended === null) {
      const mr = FORGE_TRACKERS.includes(tracker) ? await this.mergeRequestCloses(rec) : null;
      for (const issue of open) {
        if (mr && !mr.merged) {
          left.push({
            id: issue.id,
            why: `its merge request ${mr.url} is not merged; merging it closes the issue`,
          });
          continue;
        }
        try {
          const handle = await issueHandle(issue, rec.repo, this.d);
          if (typeof handle === 'string') {
            left.push({ id: issue.id, why: handle });
            continue;
          }
          await handle.close();
          closed.push(issue.id);
        } catch (err) {
          if (!transient(err)) left.push({ id: issue.id, why: message(err) });
          // Still `open`: the sweep at the next start tries again.
          else
            this.d.log.warn(
              { work_item_id: rec.id, issue: issue.id, reason: message(err) },
              `closing ${tracker} ${issue.id} failed for now: ${message(err)}`,
            );
        }
      }
    }
    await this.d.events.transact(async (uow) => {
      if (closed.length > 0) {
        await setClosing(uow.db, rec.id, tracker, closed, 'closed');
        await uow.emit({
          work_item_id: rec.id,
          type: 'issues_closed',
          by: 'jig',
          payload: { tracker, issues: closed },
        });
      }
      // One event per reason, so each says why of every issue it names.
      for (const why of new Set(left.map((l) => l.why))) {
        const issues = left.filter((l) => l.why === why).map((l) => l.id);
        await setClosing(uow.db, rec.id, tracker, issues, 'left_open');
        await uow.emit({
          work_item_id: rec.id,
          type: 'issues_left_open',
          by: 'jig',
          payload: { tracker, issues, reason: why },
        });
      }
    });
  }
}
