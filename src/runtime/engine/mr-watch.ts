import { watchedMergeRequests } from '../../store/merge-requests.js';
import { getItem } from '../../store/work-items.js';
import { stamp, type TimerHandle } from '../clock.js';
import { repoClient } from '../forge/for-repo.js';
import { recordStop } from './stop-record.js';
import { policyOf, type EngineResources } from './resources.js';
import type { SessionEnds } from './session-ends.js';
import type { Slots } from './slots.js';
import { recordMergeRequest } from './wait-ends.js';

/**
 * Notices merge requests closed on the forge without merging, every `forge_poll_s` (default 300):
 * a running or queued item stops (`mr_closed`) and a person reopens it (`POST …/reopen-mr`) or
 * cancels it; a stopped or paused item records the close, so its answer and the board say so.
 * Waiting items are not asked here: every poll of a wait reads the merge request first.
 */
export class MrWatch {
  private timer: TimerHandle | null = null;
  private stopped = false;
  private busy = false;
  private term = 0;

  constructor(
    private readonly r: EngineResources,
    private readonly slots: Pick<Slots, 'promote'>,
    private readonly sessions: Pick<SessionEnds, 'end'>,
  ) {}

  private everyMs(): number {
    return (this.r.config.policy?.forge_poll_s ?? 300) * 1000;
  }

  start(): void {
    this.stopped = false;
    // Each start is a term: a sweep of an earlier term that ends after a stop and a start arms nothing.
    const term = ++this.term;
    const tick = async (): Promise<void> => {
      await this.sweep();
      if (!this.stopped && this.term === term) this.timer = this.r.clock.setTimer(tick, this.everyMs());
    };
    this.timer = this.r.clock.setTimer(tick, this.everyMs());
  }

  async sweep(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      for (const w of await watchedMergeRequests(this.r.store.db)) await this.check(w);
    } catch (err) {
      this.r.log.error({ err }, 'merge request watch failed');
    } finally {
      this.busy = false;
    }
  }

  private async check(w: { item_id: string; repo: string; number: number }): Promise<void> {
    const repo = this.r.repos.find(w.repo);
    const rec = await getItem(this.r.store.db, w.item_id);
    if (!repo || !rec) return;
    const forge = await repoClient(repo, policyOf(this.r, rec)?.forge_cli_timeout_s ?? 120);
    if (!forge.ok) return;
    let mr;
    try {
      mr = await forge.client.get(w.number);
    } catch (err) {
      // A forge that does not answer now is asked again at the next sweep; a wait or task says more.
      this.r.log.warn({ err, item: w.item_id }, 'merge request watch: the forge did not answer');
      return;
    }
    if (mr.state === 'open') return;
    // Decided on the row in one transaction, as a pause is: the walk holds the item's queue while
    // its tasks run, and sees the stop when they end.
    const stopRunning = await this.r.events.transact(async (uow) => {
      const cur = await getItem(uow.db, w.item_id);
      if (!cur) return null;
      await recordMergeRequest(uow, cur.id, w.repo, mr, stamp(this.r.clock), cur.current_node);
      if (mr.state !== 'closed' || (cur.status !== 'running' && cur.status !== 'queued')) return null;
      const reason = `${mr.url} was closed without being merged; reopen it (jig item reopen-mr ${cur.id}) and the item goes on, or cancel the item`;
      const at = { ms: this.r.clock.now(), iso: stamp(this.r.clock) };
      await recordStop(uow, cur, { kind: 'mr_closed', reason, walk: cur.walk }, at);
      return cur.status;
    });
    if (stopRunning === 'running') await this.sessions.end(w.item_id);
    if (stopRunning) this.slots.promote();
  }

  close(): void {
    this.stopped = true;
    if (this.timer) this.r.clock.clearTimer(this.timer);
    this.timer = null;
  }
}
