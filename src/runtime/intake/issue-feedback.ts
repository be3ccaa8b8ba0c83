import { isKnownEvent, type EventRecord, type KnownEventRecord } from '../../contract/events.js';
import type { ItemIssue } from '../../contract/item-issues.js';
import type { Store } from '../../store/database.js';
import { issuesOf } from '../../store/item-issues.js';
import { listMergeRequests } from '../../store/merge-requests.js';
import { getItem } from '../../store/work-items.js';
import type { EventLog } from '../events/event-log.js';
import type { PollerLog } from './schedule-poller.js';
import { issueHandle, type HandleDeps } from './tracker-handles.js';
import type { TrackerQueue } from './tracker-queue.js';

export interface IssueFeedbackDeps extends HandleDeps {
  store: Store;
  events: EventLog;
  log: PollerLog;
  /** Shared with IssueCloser: a comment due goes before the close. */
  queue: TrackerQueue;
}

/** What a comment is about, and its sentence after "Jig work item X (title)". */
type About = { about: string; text: string };

/** The events a person watching the issue wants to hear of: the item needs them, or it ended. */
function aboutOf(e: KnownEventRecord): About | null {
  switch (e.type) {
    case 'gate_requested':
      return {
        about: 'gate',
        text: `waits for a person at gate ${e.payload.gate ?? '(unnamed)'}${e.payload.message ? `: ${e.payload.message}` : '.'}`,
      };
    case 'work_item_needs_human':
      return {
        about: 'stopped',
        text: `stopped (${e.payload.kind ?? 'stop'}) and needs a person${e.payload.reason ? `: ${e.payload.reason}` : '.'}`,
      };
    case 'work_item_completed':
      return { about: 'completed', text: 'completed.' };
    case 'work_item_manually_completed':
      return { about: 'completed', text: 'was marked complete by a person.' };
    case 'work_item_cancelled':
      return { about: 'cancelled', text: 'was cancelled.' };
    case 'work_item_abandoned':
      return { about: 'abandoned', text: 'was abandoned.' };
    default:
      return null;
  }
}

/**
 * Comments on the forge, Linear and Jira issues an item implements when it needs a person (a gate, a
 * stop) or ends (docs/intake.md), so whoever filed the issue hears of it where they are. A comment
 * that cannot be posted is an event, never a stop: the item's work does not hang on the tracker.
 */
export class IssueFeedback {
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly d: IssueFeedbackDeps) {}

  start(): void {
    if (this.unsubscribe) return;
    this.unsubscribe = this.d.events.subscribe((events: readonly EventRecord[]) => {
      for (const e of events) {
        if (!isKnownEvent(e) || !e.work_item_id) continue;
        const about = aboutOf(e);
        if (about) void this.tell(e.work_item_id, about);
      }
    });
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.d.queue.drain();
  }

  /** One comment on each of the item's tracker issues, after any in progress. */
  tell(id: string, about: About): Promise<void> {
    return this.d.queue.run(`commenting on the issues of ${id}`, () => this.run(id, about));
  }

  private async run(id: string, about: About): Promise<void> {
    const db = this.d.store.db;
    const issues = (await issuesOf(db, id)).filter((i) => i.tracker !== 'beads');
    if (issues.length === 0) return;
    const rec = await getItem(db, id);
    if (!rec) return;
    const mrs = about.about === 'completed' ? await listMergeRequests(db, id) : [];
    const body = [
      `Jig work item ${rec.id} (${rec.title}) ${about.text}`,
      ...mrs.map((m) => `Merge request: ${m.url} (${m.state})`),
      `See it with \`jig view show ${rec.id}\` or on the board.`,
    ].join('\n\n');
    for (const issue of issues) await this.post(rec.id, rec.repo, issue, about.about, body);
  }

  private async post(id: string, repo: string, issue: ItemIssue, about: string, body: string): Promise<void> {
    let reason: string | null = null;
    try {
      const handle = await issueHandle(issue, repo, this.d);
      if (typeof handle === 'string') reason = handle;
      else await handle.comment(body);
    } catch (err) {
      reason = err instanceof Error ? err.message : String(err);
    }
    const at = { tracker: issue.tracker, issue: issue.id, about };
    await this.d.events.transact(async (uow) => {
      await uow.emit(
        reason === null
          ? { work_item_id: id, type: 'issue_commented', by: 'jig', payload: at }
          : { work_item_id: id, type: 'issue_comment_failed', by: 'jig', payload: { ...at, reason } },
      );
    });
  }
}
