import { stamp } from '../clock.js';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StopKind } from '../../contract/item-status.js';
import type { ForgeMergeRequest } from '../../contract/merge-requests.js';
import type { ExternalWait } from '../../contract/walk.js';
import { saveMergeRequest } from '../../store/merge-requests.js';
import { sessionsOf, updateSession, type SessionStatus } from '../../store/sessions.js';
import { getItem, updateItem, type ItemRecord } from '../../store/work-items.js';
import type { UnitOfWork } from '../events/event-log.js';
import type { Observation } from '../forge/wait-poll.js';
import { recordStop } from './stop-record.js';
import { itemOf, type EngineResources } from './resources.js';
import type { Slots } from './slots.js';
import type { WalkRequests } from './walk-requests.js';

type Outcome = 'passed' | 'failed' | 'closed' | 'refused' | 'timed_out' | 'paused' | 'cancelled';

/** The session status a wait ends with, by how it ended. */
const SESSION: Record<Outcome, SessionStatus> = {
  passed: 'done',
  failed: 'failed',
  closed: 'failed',
  refused: 'infra_error',
  timed_out: 'capped_out',
  paused: 'paused',
  cancelled: 'cancelled',
};

/**
 * Records the forge's answer for the item's merge request, and what changed that a person acts on:
 * merged (`mr_merged`), closed without merging (`mr_closed`).
 */
export async function recordMergeRequest(
  uow: UnitOfWork,
  id: string,
  repo: string,
  mr: ForgeMergeRequest,
  now: string,
  node: string | null,
): Promise<void> {
  const before = await saveMergeRequest(uow.db, id, repo, mr, now);
  if (before?.state === mr.state) return;
  const base = { work_item_id: id, by: 'jig' as const, node };
  const at = { repo, number: mr.number, url: mr.url };
  if (mr.state === 'merged')
    await uow.emit({ ...base, type: 'mr_merged', payload: { ...at, merge_sha: mr.merge_sha } });
  if (mr.state === 'closed') await uow.emit({ ...base, type: 'mr_closed', payload: at });
}

/** How a wait ends: its session, the item's state, the events; one transaction each. */
export class WaitEnds {
  constructor(
    private readonly r: EngineResources,
    private readonly slots: Pick<Slots, 'claim'>,
    private readonly walks: WalkRequests,
  ) {}

  private at(): { ms: number; iso: string } {
    return { ms: this.r.clock.now(), iso: stamp(this.r.clock) };
  }

  /** A line in the wait's log, which `jig view logs` shows like any task's. */
  log(w: Pick<ExternalWait, 'session'>, line: string): void {
    try {
      appendFileSync(join(this.r.paths.logsDir, `${w.session}.log`), `${stamp(this.r.clock)} ${line}\n`);
    } catch (err) {
      this.r.log.warn({ err, session: w.session }, 'cannot write a wait log line');
    }
  }

  private async close(
    uow: UnitOfWork,
    rec: ItemRecord,
    w: Pick<ExternalWait, 'session' | 'task'> & { target: string },
    outcome: Outcome,
    detail: string,
    extra: Record<string, unknown> = {},
  ): Promise<void> {
    const findings = Array.isArray(extra.findings) ? extra.findings.length : 0;
    await updateSession(uow.db, w.session, {
      status: SESSION[outcome],
      exited_at: stamp(this.r.clock),
      result: { status: outcome === 'passed' ? 'done' : 'failed', summary: detail, ...extra },
      note: outcome === 'passed' ? null : detail,
    });
    const base = { work_item_id: rec.id, by: 'jig' as const, node: rec.current_node };
    await uow.emit({
      ...base,
      type: 'worker_session_exited',
      payload: { session: w.session, task: w.task, status: SESSION[outcome], exit_code: null, note: detail },
    });
    await uow.emit({
      ...base,
      type: 'external_wait_ended',
      payload: { task: w.task, target: w.target, outcome, detail, session: w.session, findings },
    });
    this.log(w, `${outcome}: ${detail}`);
  }

  /** The poll had an answer: the walk goes on with it (passed or failed), or the item stops (closed). */
  async finish(
    rec: ItemRecord,
    w: ExternalWait,
    seen: Exclude<Observation, { state: 'pending' }>,
  ): Promise<void> {
    if (seen.state === 'closed') {
      const reason = `${seen.detail}; reopen it (jig item reopen-mr ${rec.id}) and the item goes on, or cancel the item`;
      return this.stop(rec, w, 'mr_closed', reason, seen.mr);
    }
    const go = await this.r.events.transact(async (uow) => {
      const cur = await getItem(uow.db, rec.id);
      if (cur?.status !== 'waiting' || cur.walk?.wait?.session !== w.session) return false;
      await recordMergeRequest(uow, rec.id, w.repo, seen.mr, stamp(this.r.clock), rec.current_node);
      if (seen.state === 'passed' && seen.notice) {
        await uow.emit({
          work_item_id: rec.id,
          type: seen.notice,
          by: 'jig',
          node: rec.current_node,
          payload: { task: w.task, repo: w.repo },
        });
      }
      const extra = {
        merge_request: seen.mr,
        ...(seen.state === 'failed' ? { findings: seen.findings } : {}),
      };
      await this.close(uow, cur, w, seen.state, seen.detail, extra);
      await updateItem(uow.db, rec.id, { walk: { ...cur.walk, wait: null } });
      // The walk takes the session's outcome from the database, as after a restart.
      await this.slots.claim(uow, await this.reread(uow, rec.id), 'jig');
      return true;
    });
    if (go && (await itemOf(this.r, rec.id)).status === 'running') this.walks.walk(rec.id);
  }

  private async reread(uow: UnitOfWork, id: string): Promise<ItemRecord> {
    const cur = await getItem(uow.db, id);
    if (!cur) throw new Error(`work item ${id} vanished while its wait ended`);
    return cur;
  }

  /** The wait cannot go on: the item stops for a person, saying why. */
  async stop(
    rec: ItemRecord,
    w: ExternalWait,
    kind: StopKind,
    reason: string,
    mr?: ForgeMergeRequest,
  ): Promise<void> {
    await this.r.events.transact(async (uow) => {
      const cur = await getItem(uow.db, rec.id);
      if (cur?.status !== 'waiting' || !cur.walk || cur.walk.wait?.session !== w.session) return;
      if (mr) await recordMergeRequest(uow, rec.id, w.repo, mr, stamp(this.r.clock), rec.current_node);
      const outcome: Outcome = kind === 'mr_closed' ? 'closed' : 'refused';
      await this.close(uow, cur, w, outcome, reason);
      const walk = { ...cur.walk, wait: null };
      await recordStop(uow, cur, { kind, reason, walk, session: w.session }, this.at());
    });
  }

  /**
   * The item left `waiting` by a move (a pause, a cancel, a wall clock): its wait session ends
   * without an answer, `capped_out` when a clock stopped it, `cancelled` when the item ended (a
   * cancel or an abandon: nothing waits anew), else `paused` (resuming waits anew).
   */
  async abandon(id: string): Promise<void> {
    await this.r.events.transact(async (uow) => {
      const rec = await getItem(uow.db, id);
      if (!rec || rec.status === 'waiting') return;
      const open = (await sessionsOf(uow.db, id)).filter((s) => s.status === 'waiting');
      for (const s of open) {
        const w = { session: s.id, task: s.task_path, target: s.argv[0] ?? 'forge' };
        const capped = rec.status === 'stopped' && (rec.stop_kind === 'wait' || rec.stop_kind === 'cap');
        const detail = capped ? (rec.stop_reason ?? 'a time cap was reached') : `the item is ${rec.status}`;
        const ended = rec.status === 'cancelled' || rec.status === 'abandoned';
        await this.close(uow, rec, w, capped ? 'timed_out' : ended ? 'cancelled' : 'paused', detail);
      }
      if (rec.walk?.wait) await updateItem(uow.db, id, { walk: { ...rec.walk, wait: null } });
    });
  }

  /** A waiting item whose walk lost its wait (it cannot be polled): it stops, saying so. */
  async lost(id: string): Promise<void> {
    await this.r.events.transact(async (uow) => {
      const rec = await getItem(uow.db, id);
      if (rec?.status !== 'waiting') return;
      const reason = 'the item was waiting on the forge but its wait record is gone; retry it to wait again';
      await recordStop(uow, rec, { kind: 'infra', reason, walk: rec.walk }, this.at());
    });
  }
}
