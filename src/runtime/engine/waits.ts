import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RepoEntry } from '../../contract/config/repos.js';
import type { ExternalWait } from '../../contract/walk.js';
import { durationMinutes } from '../../core/policy/gate-timeout.js';
import { itemIdsIn } from '../../store/item-scans.js';
import { getMergeRequest } from '../../store/merge-requests.js';
import { insertSession, NO_AGENT, sessionsOf, type SessionRecord } from '../../store/sessions.js';
import { getItem, updateItem, type ItemRecord } from '../../store/work-items.js';
import type { TimerHandle } from '../clock.js';
import { repoClient, repoForge } from '../forge/for-repo.js';
import { ForgeError } from '../forge/types.js';
import { pollWait, type Observation } from '../forge/wait-poll.js';
import { policyOf, type EngineResources } from './resources.js';
import type { Launched, WaitLaunch } from './step-runner.js';
import type { Slots } from './slots.js';
import { WaitEnds } from './wait-ends.js';
import type { WalkRequests } from './walk-requests.js';

const seconds = (d: string | undefined, fallback: number): number => {
  const m = d === undefined ? null : durationMinutes(d);
  return m === null ? fallback : Math.round(m * 60);
};

/** How often the leader looks for waits started by other processes. */
const SWEEP_MS = 30_000;

/** Polls in a row the forge may fail to answer before the wait gives up as an `infra` stop. */
const MAX_ERRORS = 10;

/**
 * External waits (`mr.ci`, `mr.automated_review`, `mr.external_approval`, `mr.merge`,
 * `mr.post_merge_ci`). The item goes `waiting` and holds no slot; a session with no process stands
 * for the wait, so the step takes its outcome like any task's when the walk comes back. The next
 * poll time is in the walk, so a restart polls on where it was. The wait's timeout is the task's
 * `total_time_cap_minutes`, enforced by the wall clocks (wall-clock.ts) like every other cap.
 */
export class Waits {
  private readonly timers = new Map<string, TimerHandle>();
  readonly ends: WaitEnds;
  /** Only the leader polls (store/leader.ts); a wait started elsewhere is found by its sweep. */
  private leading = false;
  private sweep: TimerHandle | null = null;
  private unsubscribe: (() => void) | null = null;
  private term = 0;

  constructor(
    private readonly r: EngineResources,
    private readonly slots: Pick<Slots, 'claim' | 'promote'>,
    walks: WalkRequests,
  ) {
    this.ends = new WaitEnds(r, slots, walks);
  }

  /**
   * Starts the wait of one task (from the walk, in the item's queue): the item waits from here and
   * the walk halts. A forge that cannot be reached or an item without a merge request refuses.
   */
  async start(repoOf: RepoEntry, req: WaitLaunch): Promise<Launched | { waiting: true }> {
    const { rec, node, task, target, member } = req;
    const repo = member?.repo ?? repoOf;
    // The server's path of the repo: the leader polling this wait may be another process.
    const shared = this.r.repos.shared(repo.path);
    const forge = await repoForge(repo);
    if (!forge.ok) return { refuse: { stop: forge.stop, reason: `${task.path}: ${forge.reason}` } };
    const mr = await getMergeRequest(this.r.store.db, rec.id, shared);
    if (!mr) {
      const reason = `${task.path}: the item has no merge request in ${repo.path}; a task with target mr.open_draft opens it`;
      return { refuse: { stop: 'config', reason } };
    }
    const polling = task.kind === 'forge' ? task.wait?.polling : undefined;
    const interval = seconds(polling?.initial_interval, 30);
    const max = Math.max(interval, seconds(polling?.max_interval, 300));
    const id = `s${randomBytes(6).toString('hex')}`;
    const now = this.r.clock.now();
    const at = new Date(now).toISOString();
    const next = new Date(now + interval * 1000).toISOString();
    const session: SessionRecord = {
      id,
      work_item_id: rec.id,
      node,
      task_path: task.path,
      kind: 'forge',
      status: 'waiting',
      argv: [target, mr.url],
      cwd: member?.cwd ?? rec.worktree_path ?? repo.path,
      pid: null,
      pid_start: null,
      log_path: join(this.r.paths.logsDir, `${id}.log`),
      result_path: '',
      exit_path: '',
      exit_code: null,
      result: null,
      time_cap_s: null,
      started_at: at,
      exited_at: null,
      ...NO_AGENT,
      member: member?.name ?? null,
      // Who reached the wait; the leader polls it, wherever that is.
      worker: this.r.identity.name,
    };
    appendFileSync(
      session.log_path,
      `${at} ${target} on ${mr.url}: first check in ${interval}s, then doubling up to ${max}s\n`,
      { mode: 0o600 },
    );
    const wait: ExternalWait = {
      session: id,
      task: task.path,
      target,
      repo: shared,
      ...(member ? { member: member.name } : {}),
      started_at: at,
      next_at: next,
      interval_s: interval,
      max_interval_s: max,
      last: null,
      errors: 0,
    };
    const started = await this.r.events.transact(async (uow) => {
      const cur = await getItem(uow.db, rec.id);
      // A move (pause, a wall clock) got there first: it keeps its own state.
      if (cur?.status !== 'running' || !cur.walk) return false;
      await insertSession(uow.db, session);
      await updateItem(uow.db, rec.id, {
        status: 'waiting',
        walk: { ...cur.walk, wait },
        updated_at: at,
      });
      await uow.emit({
        work_item_id: rec.id,
        type: 'external_wait_started',
        by: 'jig',
        node,
        payload: {
          task: task.path,
          target,
          repo: shared,
          ...(member ? { member: member.name } : {}),
          number: mr.number,
          url: mr.url,
          session: id,
          next_at: next,
          interval_s: interval,
          max_interval_s: max,
        },
      });
      return true;
    });
    if (started) {
      if (this.leading) this.arm(rec.id, next);
      this.slots.promote();
    }
    return { waiting: true };
  }

  /** Polls the item's wait at `at` (at once when it is due); one timer per item. */
  arm(id: string, at: string): void {
    // A poll that was under way when the lead moved on does not arm again: the new leader polls.
    if (!this.leading) return;
    const old = this.timers.get(id);
    if (old) this.r.clock.clearTimer(old);
    const delay = Math.min(Math.max(0, Date.parse(at) - this.r.clock.now()), 2 ** 31 - 1);
    const t = this.r.clock.setTimer(() => {
      this.timers.delete(id);
      if (this.r.life.closed || !this.leading) return;
      this.r.queues
        .serial(id, () => this.poll(id))
        .catch((err: unknown) => this.r.log.error({ err, item: id }, 'polling a wait failed'));
    }, delay);
    this.timers.set(id, t);
  }

  /**
   * On taking the lead: every waiting item is polled from its stored next time, and from then on
   * each SWEEP_MS the waits other processes started (a worker's walk reaching a wait) are found.
   */
  async lead(): Promise<void> {
    this.leading = true;
    const term = ++this.term;
    // A wait another process reached is polled from its start (its event reaches every process);
    // the sweep below is the backstop for one missed.
    this.unsubscribe ??= this.r.events.subscribe((evs) => {
      for (const e of evs)
        if (e.type === 'external_wait_started' && e.work_item_id && !this.timers.has(e.work_item_id))
          this.pollFrom(e.work_item_id).catch((err: unknown) =>
            this.r.log.error({ err, item: e.work_item_id }, 'arming a wait failed'),
          );
    });
    await this.recover();
    // Each lead is a term: a sweep of an earlier term that ends late arms nothing.
    const current = (): boolean => this.leading && this.term === term && !this.r.life.closed;
    const again = (): void => {
      this.sweep = this.r.clock.setTimer(() => {
        this.sweep = null;
        if (!current()) return;
        this.recover()
          .catch((err: unknown) => this.r.log.error({ err }, 'looking for waits to poll failed'))
          .finally(() => {
            if (current()) again();
          });
      }, SWEEP_MS);
    };
    if (current()) again();
  }

  /** Leadership moved on: this process polls no wait. */
  follow(): void {
    this.leading = false;
    this.term++;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.sweep) this.r.clock.clearTimer(this.sweep);
    this.sweep = null;
    for (const t of this.timers.values()) this.r.clock.clearTimer(t);
    this.timers.clear();
  }

  /** Every waiting item not polled yet is, from its stored next time. */
  async recover(): Promise<number> {
    const ids = await itemIdsIn(this.r.store.db, 'waiting');
    for (const id of ids) {
      if (!this.leading) break;
      if (!this.timers.has(id)) await this.pollFrom(id);
    }
    return ids.length;
  }

  private async pollFrom(id: string): Promise<void> {
    const rec = await getItem(this.r.store.db, id);
    if (!this.leading || rec?.status !== 'waiting') return;
    const w = rec.walk?.wait;
    if (w) this.arm(id, w.next_at);
    else await this.ends.lost(id);
  }

  /** When the branch was last pushed: review comments before it were answered by that push. */
  private async pushedAt(id: string, member: string | null): Promise<string | null> {
    const pushes = (await sessionsOf(this.r.store.db, id)).filter(
      (s) =>
        s.kind === 'forge' &&
        s.member === member &&
        s.status === 'done' &&
        (s.argv.at(-1) === 'mr.open_draft' || s.argv.at(-1) === 'mr.sync'),
    );
    return pushes.at(-1)?.exited_at ?? null;
  }

  private async poll(id: string): Promise<void> {
    const rec = await getItem(this.r.store.db, id);
    const w = rec?.walk?.wait;
    if (!rec || rec.status !== 'waiting' || !w) return;
    if (Date.parse(w.next_at) > this.r.clock.now()) return this.arm(id, w.next_at);
    const repo = this.r.repos.find(w.repo);
    if (!repo) return this.ends.stop(rec, w, 'config', `repository ${w.repo} is no longer connected`);
    const forge = await repoClient(repo, policyOf(this.r, rec)?.forge_cli_timeout_s ?? 120);
    if (!forge.ok) return this.ends.stop(rec, w, forge.stop, `${w.task}: ${forge.reason}`);
    const mr = await getMergeRequest(this.r.store.db, id, w.repo);
    if (!mr) return this.ends.stop(rec, w, 'config', `${w.task}: the item's merge request record is gone`);
    let seen: Observation;
    try {
      seen = await pollWait({
        target: w.target,
        client: forge.client,
        repo,
        number: mr.number,
        pushedAt: await this.pushedAt(id, w.member ?? null),
      });
    } catch (err) {
      return this.failedPoll(rec, w, err, forge.source);
    }
    // The wait may have been paused or cancelled while the forge answered.
    const now = await getItem(this.r.store.db, id);
    if (now?.status !== 'waiting' || now.walk?.wait?.session !== w.session) return;
    if (seen.state === 'pending') return this.pending(now, w, seen.detail);
    await this.ends.finish(now, w, seen);
  }

  /** Not yet: the gap to the next poll doubles, up to the task's `max_interval`. */
  private async pending(rec: ItemRecord, w: ExternalWait, detail: string, errors = 0): Promise<void> {
    const interval = Math.min(w.interval_s * 2, w.max_interval_s);
    const next = new Date(this.r.clock.now() + interval * 1000).toISOString();
    const changed = w.last?.detail !== detail;
    const wait: ExternalWait = {
      ...w,
      next_at: next,
      interval_s: interval,
      last: { state: errors > 0 ? 'error' : 'pending', detail },
      errors,
    };
    await this.r.events.transact(async (uow) => {
      const cur = await getItem(uow.db, rec.id);
      if (cur?.status !== 'waiting' || !cur.walk || cur.walk.wait?.session !== w.session) return;
      await updateItem(uow.db, rec.id, { walk: { ...cur.walk, wait } });
      if (changed) {
        await uow.emit({
          work_item_id: rec.id,
          type: 'external_wait_observed',
          by: 'jig',
          node: rec.current_node,
          payload: { task: w.task, target: w.target, state: wait.last!.state, detail, next_at: next },
        });
      }
    });
    this.ends.log(w, `${wait.last!.state}: ${detail}; next check at ${next}`);
    this.arm(rec.id, next);
  }

  /** A refused token stops the item; a forge that did not answer is asked again, a bounded number of times. */
  private async failedPoll(rec: ItemRecord, w: ExternalWait, err: unknown, source: string): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof ForgeError && err.kind === 'auth')
      return this.ends.stop(rec, w, 'infra', `${w.task}: ${message} (the token came from ${source})`);
    if (err instanceof ForgeError && err.kind === 'not_found')
      return this.ends.stop(rec, w, 'infra', `${w.task}: ${message}`);
    const errors = w.errors + 1;
    if (errors >= MAX_ERRORS)
      return this.ends.stop(
        rec,
        w,
        'infra',
        `${w.task}: the forge did not answer ${errors} polls in a row: ${message}`,
      );
    if (!(err instanceof ForgeError)) this.r.log.warn({ err, item: rec.id }, 'a wait poll failed');
    return this.pending(rec, w, `the forge did not answer (${errors} in a row): ${message}`, errors);
  }

  /** The item's wait ends without an answer (a pause, a cancel): its session says so. */
  async end(id: string): Promise<void> {
    const t = this.timers.get(id);
    if (t) this.r.clock.clearTimer(t);
    this.timers.delete(id);
    await this.ends.abandon(id);
  }

  close(): void {
    this.follow();
  }
}
