import { ServerClosing } from '../workers/closing.js';
import { SETUP_NODE } from '../../contract/verdicts.js';
import type { ReattachSummary } from '../../contract/health.js';
import { itemIdsIn, parkedItemIds } from '../../store/item-scans.js';
import {
  deleteSession,
  releasedSessions,
  runningSessions,
  updateSession,
  type SessionRecord,
} from '../../store/sessions.js';
import { getItem } from '../../store/work-items.js';
import { background } from '../background.js';
import { endGroup, findLaunched, readExitCode } from '../workers/supervisor.js';
import { existsSync } from 'node:fs';
import { isSameProcess } from '../process/proc-info.js';
import type { Parking } from './parking.js';
import type { Slots } from './slots.js';
import type { Walker } from './walker.js';
import type { EngineResources } from './resources.js';
import { passed, stopKindOf } from '../../core/chain/walk-rules.js';

/**
 * After a restart: adopts every session that is still running (same pid, same start time),
 * resolves the ones that ended meanwhile from their files, continues every running item from its
 * row and re-arms the parked items' timers (the waiting items' polls are the leader's).
 */
/** The systems recovery hands work to. */
export interface Recovering {
  parking: Pick<Parking, 'arm'>;
  slots: Pick<Slots, 'promote'>;
  walker: Pick<Walker, 'kick' | 'stop'>;
}

export async function recover(r: EngineResources, sys: Recovering): Promise<ReattachSummary> {
  const { parking, slots, walker } = sys;
  const summary: ReattachSummary = {
    scanned: 0,
    adopted: 0,
    resolved_from_file: 0,
    unknown: 0,
    resumed_work_items: 0,
  };
  // This process's own (and those of the one that ran in this home before: claims.ts succeed);
  // another worker's sessions run on its machine, which adopts them itself.
  const me = r.claims.name;
  const shared = r.claims.isShared;
  const live = (await runningSessions(r.store.db)).filter(
    (s) => !shared || s.worker === me || s.worker === null,
  );
  summary.scanned = live.length;
  const waits: Promise<unknown>[] = [];
  const itemsWithSessions = new Set<string>();
  for (const row of live) {
    const s = await locate(r, row);
    if (s === null) {
      summary.scanned--;
      continue;
    }
    itemsWithSessions.add(s.work_item_id);
    const alive = s.pid !== null && isSameProcess(s.pid, s.pid_start);
    await r.events.record(
      s.work_item_id,
      alive ? 'session_reattached' : 'session_resolved_after_restart',
      { session: s.id, pid: s.pid },
      { node: s.node },
    );
    if (alive) {
      summary.adopted++;
      waits.push(
        r.queues.serial(s.work_item_id, async () => afterAdopted(r, walker, await r.workers.adopt(s))),
      );
    } else {
      const done = await r.workers.resolve(s);
      if (done.status === 'unknown') summary.unknown++;
      else summary.resolved_from_file++;
      waits.push(r.queues.serial(s.work_item_id, () => afterAdopted(r, walker, done)));
    }
  }
  if (shared) await fenceReleased(r);
  for (const id of await itemIdsIn(r.store.db, 'running')) {
    summary.resumed_work_items++;
    if (!itemsWithSessions.has(id)) walker.kick(id);
  }
  for (const id of await parkedItemIds(r.store.db)) {
    const until = (await getItem(r.store.db, id))?.walk?.parked_until;
    if (until) parking.arm(id, until);
  }
  // Waiting items hold no session process: the leader polls each from its stored next time once it
  // leads (Engine.lead), wherever the wait started.
  // The slots freed by sessions that ended while the server was away go on once all are settled
  // (each wait logs its own failure; one failing does not keep the others' slots).
  background(r.log, 'settling adopted sessions', async () => {
    for (const out of await Promise.allSettled(waits)) {
      if (out.status === 'rejected' && !(out.reason instanceof ServerClosing))
        r.log.error({ err: out.reason }, 'an adopted session could not be settled');
    }
    slots.promote();
  });
  return summary;
}

/**
 * The fence, at start: a session of this worker that another process took over while this one was
 * silent (or dead) may still run here; it is ended, so its node does not run in two places.
 */
async function fenceReleased(r: EngineResources): Promise<void> {
  const dayAgo = new Date(r.clock.now() - 24 * 60 * 60_000).toISOString();
  for (const s of await releasedSessions(r.store.db, r.claims.name, dayAgo)) {
    if (s.pid === null || !isSameProcess(s.pid, s.pid_start)) continue;
    r.log.warn(
      { session: s.id, pid: s.pid, item: s.work_item_id },
      'ending a session another worker took over',
    );
    await endGroup(s.pid, 10_000);
    await r.events.record(
      s.work_item_id,
      'session_fenced',
      { session: s.id, pid: s.pid, worker: r.claims.name },
      { node: s.node },
    );
  }
}

/**
 * A session whose row has no pid yet was launched just before a crash (the row is written first):
 * its process is found (supervisor.ts `findLaunched`), and the pid recorded, so it is adopted like any other.
 */
async function locate(r: EngineResources, s: SessionRecord): Promise<SessionRecord | null> {
  if (s.pid !== null) return s;
  const found = findLaunched(s.exit_path, s.id);
  if (!found) {
    // Neither running nor ended with a trace: the crash came before the process started. The row
    // goes, and the walk launches the task as if it never had.
    if (readExitCode(s.exit_path) === null && !existsSync(s.result_path)) {
      await deleteSession(r.store.db, s.id);
      return null;
    }
    return s;
  }
  await updateSession(r.store.db, s.id, { pid: found.pid, pid_start: found.startTime });
  return { ...s, pid: found.pid, pid_start: found.startTime };
}

/** A session that ended while the server was away (or was adopted) decides how its step went. */
async function afterAdopted(
  r: EngineResources,
  walker: Recovering['walker'],
  s: SessionRecord,
): Promise<void> {
  const rec = await getItem(r.store.db, s.work_item_id);
  if (!rec || rec.status !== 'running') return;
  if ((await runningSessions(r.store.db, rec.id)).length > 0) return;
  if (s.node === SETUP_NODE && !passed(s.status)) {
    const reason = `setup_command ended ${s.status}; see session ${s.id}`;
    return walker.stop(rec, stopKindOf[s.status] ?? 'failed', reason, null, s.id);
  }
  // The walk takes the step's ended sessions from the database instead of launching them again.
  walker.kick(rec.id);
}
