import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { ESCALATION_NODE } from '../../contract/verdicts.js';
import type { Store } from '../../store/database.js';
import {
  deleteSession,
  finishSession,
  getSession,
  insertSession,
  NO_AGENT,
  updateSession,
  type SessionRecord,
} from '../../store/sessions.js';
import { AgentWatch, agentStatus, startedFields, type Usage } from './agent-session.js';
import { Closing } from './closing.js';
import { Crossings } from './crossings.js';
import { background } from '../background.js';
import type { Clock, TimerHandle } from '../clock.js';
import type { EventLog } from '../events/event-log.js';
import type { HomePaths } from '../home/paths.js';
import { descendants, isSameProcess } from '../process/proc-info.js';
import { readResult } from './session-result.js';
import { sessionChanges } from '../recordings/session-changes.js';
import { redact, resolveStatus, type Ending, type PersonEnding } from './session-status.js';
import { inScope, type AgentHooks, type OverCap } from './item-spend.js';
import { Launcher } from './launcher.js';
import { jailEnding, reapContainer, refusalEvents, settleLogins } from '../sandbox/jail-end.js';
import { prepareSandbox, sandboxOutputs, sandboxSummary } from '../sandbox/prepare.js';
import type { SessionRequest } from './session-request.js';
import { endGroup, exitWritten, readExitCode, waitGone, type Known, type Launched } from './supervisor.js';

export type { SessionRequest } from './session-request.js';

/** What the runner works with: the store, the event log, the home's folders, the log and the clock. */
export interface SessionRunnerDeps {
  store: Store;
  events: EventLog;
  paths: HomePaths;
  log: Logger;
  clock: Clock;
  /** This process's name among those sharing the store: each session records who ran it. */
  identity: { name: string };
}

/** How often a running agent's log is read for usage (pacing the read of a file, not the clock). */
const POLL_MS = 1000;

/**
 * Starts task processes, watches them to the end (or adopts them after a restart) and turns how
 * they ended into a session status. The session row and its events are the record.
 */
export class SessionRunner {
  private readonly worker: string;
  private readonly endings = new Map<string, Ending>();
  private readonly crossings = new Crossings(() => this.clock.now());
  /** Sessions this process started or adopted and has not recorded yet (the fence ends them). */
  private readonly live = new Map<string, SessionRecord>();
  /** Launches under way (row written, pid not yet): what `end` waits for. */
  private readonly launching = new Map<string, Promise<SessionRecord | null>>();
  /** The item of each launch under way. */
  private readonly launchingItems = new Map<string, string>();
  private readonly timers = new Map<string, TimerHandle>();
  private readonly watches = new Map<string, { watch: AgentWatch; stop: AbortController }>();
  /** Processes each session's task started, as last seen: ended with it even after they are orphaned. */
  private readonly seen = new Map<string, Map<number, Known>>();
  private readonly closing = new Closing();

  private remember(s: SessionRecord): Known[] {
    if (s.pid === null) return [];
    const map = this.seen.get(s.id) ?? new Map<number, Known>();
    for (const k of descendants(s.pid)) map.set(k.pid, k);
    this.seen.set(s.id, map);
    return [...map.values()];
  }

  private readonly store: Store;
  private readonly events: EventLog;
  private readonly paths: HomePaths;
  private readonly log: Logger;
  private readonly clock: Clock;
  private readonly launcher: Launcher;

  constructor(
    d: SessionRunnerDeps,
    private readonly agents: AgentHooks,
  ) {
    this.store = d.store;
    this.events = d.events;
    this.paths = d.paths;
    this.log = d.log;
    this.clock = d.clock;
    this.worker = d.identity.name;
    this.launcher = new Launcher(d.log);
  }

  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }

  async start(req: SessionRequest): Promise<{ session: SessionRecord; launched: Launched }> {
    const id = `s${randomBytes(6).toString('hex')}`;
    // A sandboxed task writes its result where the jail lets it (its session's `out/` folder).
    const jailed = req.sandbox ? sandboxOutputs(this.paths.runDir, id) : null;
    const resultPath = jailed?.resultPath ?? join(this.paths.resultsDir, `${id}.json`);
    const exitPath = join(this.paths.resultsDir, `${id}.exit`);
    const logPath = join(this.paths.logsDir, `${id}.log`);
    for (const p of [resultPath, exitPath]) rmSync(p, { force: true });
    const env: Record<string, string> = {
      ...req.env,
      JIG_SESSION_ID: id,
      JIG_RESULT_PATH: resultPath,
      JIG_TASK_PATH: req.taskPath,
    };
    if (req.brief !== undefined) {
      const briefPath = jailed?.briefPath ?? join(this.paths.resultsDir, `${id}.brief.md`);
      // 'wx': never through something already at the path (the results folder is writable by tasks).
      writeFileSync(briefPath, req.brief, { mode: 0o600, flag: 'wx' });
      env.JIG_FIX_BRIEF = briefPath;
    }
    const draft: SessionRecord = {
      id,
      work_item_id: req.itemId,
      node: req.node,
      task_path: req.taskPath,
      kind: req.kind,
      status: 'running',
      argv: req.argv,
      cwd: req.cwd,
      pid: null,
      pid_start: null,
      log_path: logPath,
      result_path: resultPath,
      exit_path: exitPath,
      exit_code: null,
      result: null,
      time_cap_s: req.timeCapS,
      started_at: this.now(),
      exited_at: null,
      ...NO_AGENT,
      member: req.member ?? null,
      worker: this.worker,
      ...(req.agent
        ? { harness: req.agent.harness, provider: req.agent.provider.id, model: req.agent.model }
        : {}),
    };
    // The row is written before the process starts: a crash between leaves a row a restart finds the
    // process from (recovery.ts), never a process nothing knows of beside the node's next launch.
    if (req.agent)
      await sessionChanges.before(this.log, this.paths.runDir, id, req.cwd, req.env.JIG_ARTIFACT_PATH);
    let started: (s: SessionRecord | null) => void = () => undefined;
    this.launching.set(id, new Promise((resolve) => (started = resolve)));
    this.launchingItems.set(id, req.itemId);
    try {
      const out = await this.launch(draft, req, env);
      started(out.session);
      return out;
    } catch (err) {
      started(null);
      throw err;
    } finally {
      this.launching.delete(id);
      this.launchingItems.delete(id);
    }
  }

  private async launch(
    draft: SessionRecord,
    req: SessionRequest,
    env: Record<string, string>,
  ): Promise<{ session: SessionRecord; launched: Launched }> {
    const id = draft.id;
    await insertSession(this.store.db, draft);
    let launched: Launched;
    try {
      const { runDir } = this.paths;
      const jail = req.sandbox;
      const argv = jail
        ? await prepareSandbox({ runDir, sessionId: id, ...req, env, sandbox: jail })
        : req.argv;
      launched = await this.launcher.launch({
        argv,
        cwd: req.cwd,
        env,
        logPath: draft.log_path,
        exitPath: draft.exit_path,
      });
    } catch (err) {
      await deleteSession(this.store.db, id);
      throw err;
    }
    const session: SessionRecord = { ...draft, pid: launched.pid, pid_start: launched.startTime };
    await this.events.transact(async (uow) => {
      await updateSession(uow.db, id, { pid: launched.pid, pid_start: launched.startTime });
      await uow.emit({
        work_item_id: req.itemId,
        type: 'worker_session_started',
        by: 'jig',
        node: req.node,
        payload: {
          session: id,
          task: req.taskPath,
          ...(req.member !== undefined ? { member: req.member } : {}),
          kind: req.kind,
          pid: launched.pid,
          argv: redact(req.argv),
          ...(req.agent ? startedFields(req.agent) : {}),
          ...(req.sandbox ? { sandbox: sandboxSummary(req.sandbox, env) } : {}),
          worker: this.worker,
        },
      });
    });
    this.live.set(id, session);
    this.armCap(session);
    this.watch(session);
    return { session, launched };
  }

  /** Reads an agent's stream as it grows, so usage shows and caps stop it while it runs. */
  private watch(s: SessionRecord): void {
    const watch = this.watches.has(s.id) ? null : this.agentWatch(s);
    if (!watch) return;
    let busy = false;
    let last = '';
    const tick = async (): Promise<void> => {
      if (busy || this.endings.has(s.id)) return;
      busy = true;
      try {
        this.remember(s);
        const { readout, usage } = watch.poll();
        if (JSON.stringify(usage) === last) return;
        last = JSON.stringify(usage);
        await updateSession(this.store.db, s.id, usage);
        // The CLI has told its final event: it spends no more, and the figures in that event are
        // held to the caps where the session is recorded, which says they came at its end. Judged
        // here too, the note would depend on whether a poll fell between that event and the exit.
        if (readout.done) return;
        const over = await this.agents.onUsage({ ...s, ...usage }, false);
        if (over && !this.endings.has(s.id)) this.overCap(s, over);
      } catch (err) {
        this.log.warn({ err, session: s.id }, 'reading live usage failed');
      } finally {
        busy = false;
      }
    };
    const stop = new AbortController();
    const poll = async (): Promise<void> => {
      // Unref'd: a watch never keeps the process alive; a tick catches its own failures.
      for (;;) {
        await delay(POLL_MS, undefined, { signal: stop.signal, ref: false });
        await tick();
      }
    };
    poll().catch(() => undefined); // ended by the abort when the session is recorded or the runner closes
    this.watches.set(s.id, { watch, stop });
  }

  /**
   * A cap was crossed: the session that crossed it ends now, and with it every other session of
   * the item this process runs inside the same scope (parallel tasks of a capped node or item),
   * each recorded as over its budget with the same reason.
   */
  private overCap(s: SessionRecord, over: OverCap, ended = false): void {
    const others = [...this.live.values()].filter((o) => o.id !== s.id);
    const stopping = [...(ended ? [] : [s]), ...others].filter(
      (o) => o.work_item_id === s.work_item_id && inScope(o, over) && !this.endings.has(o.id),
    );
    const reason = this.crossings.reasonFor(s, over);
    for (const o of stopping) {
      this.endings.set(o.id, { budget: reason });
      const pid = o.pid;
      if (pid === null) continue;
      this.log.info({ session: o.id, reason }, 'cap crossed: ending the session');
      // No grace: spend must stop now. A CLI given time to exit may send one more model
      // request (Claude with an MCP server child took long enough to).
      background(this.log, 'ending a session over its cap', () =>
        endGroup(pid, 0, this.remember(o), o.pid_start),
      );
    }
  }

  /** A time cap is enforced while the task runs, not only before it starts. */
  private armCap(s: SessionRecord): void {
    const cap = s.time_cap_s;
    const pid = s.pid;
    if (cap === null || pid === null) return;
    const left = Date.parse(s.started_at) + cap * 1000 - this.clock.now();
    const fire = (): void => {
      this.timers.delete(s.id);
      this.endings.set(s.id, 'capped');
      const record = () =>
        this.events.record(
          s.work_item_id,
          'time_cap_reached',
          { session: s.id, task: s.task_path, cap_s: cap },
          { node: s.node },
        );
      background(this.log, 'recording a time cap', record, { session: s.id });
      background(this.log, 'ending a session at its time cap', () =>
        endGroup(pid, 5_000, this.remember(s), s.pid_start),
      );
    };
    if (left <= 0) fire();
    else this.timers.set(s.id, this.clock.setTimer(fire, left));
  }

  /**
   * Ends a session on a person's request: it stops as `paused` (a pause) or `cancelled` (a cancel or
   * an abandon), not as a failure; the list of sessions then says which move ended it.
   */
  async end(row: SessionRecord, why: PersonEnding = 'paused'): Promise<void> {
    // A row read while its launch was under way has no pid yet: the launch is waited for.
    const s = row.pid === null ? ((await this.launching.get(row.id)) ?? row) : row;
    if (s.pid === null || !isSameProcess(s.pid, s.pid_start)) return;
    this.endings.set(s.id, why);
    await endGroup(s.pid, 10_000, this.remember(s), s.pid_start);
  }

  /**
   * Ends this process's live sessions of an item whatever the store says of them: the fence, when
   * the item's claim moved on to another process or the item stopped running elsewhere. With
   * `walkOnly` (the item only stopped), an escalation turn is spared: it runs on a stopped item by
   * design, and Jig's own turn on a stuck item starts within the second the fence looks.
   */
  async endLocal(itemId: string, why: PersonEnding = 'paused', walkOnly = false): Promise<void> {
    // Launches under way too: each is ended once its process has a pid.
    const starting = await Promise.all(
      [...this.launchingItems]
        .filter(([, item]) => item === itemId)
        .map(([id]) => this.launching.get(id) ?? Promise.resolve(null)),
    );
    const started = starting.filter((x): x is SessionRecord => x !== null && x !== undefined);
    const mine = [...this.live.values(), ...started].filter(
      (s) => s.work_item_id === itemId && !(walkOnly && s.node === ESCALATION_NODE),
    );
    await Promise.all([...new Map(mine.map((s) => [s.id, s])).values()].map((s) => this.end(s, why)));
  }

  /** Waits for a session this server started, or one it adopted after a restart, and records its end. */
  async finish(s: SessionRecord, launched?: Launched): Promise<SessionRecord> {
    if (launched) return this.record(s, await this.closing.race(launched.exited));
    if (s.pid !== null) {
      this.live.set(s.id, s);
      this.armCap(s);
      this.watch(s);
      await this.closing.race(waitGone(s.pid, s.pid_start));
      // The exit code is written just after the task is reaped, which is when its pid goes.
      await exitWritten(s.exit_path);
    }
    return this.record(s);
  }

  /**
   * Resolves a session whose process is gone, from its files (the exit code as the launcher
   * reported it, when it did); clears the server's own marks.
   */
  async record(s: SessionRecord, exited: number | null = null): Promise<SessionRecord> {
    const timer = this.timers.get(s.id);
    if (timer) this.clock.clearTimer(timer);
    this.timers.delete(s.id);
    const ending = this.endings.get(s.id);
    this.endings.delete(s.id);
    this.live.delete(s.id);
    // Whatever the task left running in its group goes too.
    const pid = s.pid;
    const left = [...(this.seen.get(s.id)?.values() ?? [])];
    const run = this.paths.runDir;
    if (pid !== null)
      background(this.log, 'ending what a task left running', () =>
        endGroup(pid, 10_000, left, s.pid_start).then(() => reapContainer(run, s.id)),
      );
    this.seen.delete(s.id);
    const lost = settleLogins(run, s.id);
    if (lost) this.log.warn({ err: lost, session: s.id }, 'writing back a renewed login failed');
    const exitCode = exited ?? readExitCode(s.exit_path);
    const agent = this.finishWatch(s);
    // Read once: what the status and the agent rules below decide on is the same file.
    const file = ending === undefined ? readResult(s.result_path) : null;
    // A jail that decided the ending (out of memory, never started) is the truth over the task's word.
    const jail = ending === undefined ? jailEnding(run, s.id) : null;
    const first = jail ?? resolveStatus(file, exitCode, ending);
    const result = first.result;
    let { status, note } = first;
    let usage: Partial<Usage> = {};
    let readout: Record<string, unknown> | null = null;
    if (agent) {
      usage = agent.usage;
      readout = {
        done: agent.readout.done,
        is_error: agent.readout.is_error,
        error_message: agent.readout.error_message,
        rate_limit: agent.readout.rate_limit,
        permission_denials: agent.readout.permission_denials,
        final_text: agent.readout.final_text,
      };
      // The result file wins when there is one; without it, the stream says how the agent ended.
      if (ending === undefined && file === null && jail === null) {
        const judged = agentStatus(null, agent.readout, exitCode);
        status = judged.status;
        note = judged.note ?? undefined;
      }
    }
    const exitedAt = this.now();
    // Spend told only at the end is held to the caps too (the session, and its scope's others, end).
    if (agent && ending === undefined && status !== 'rate_limited' && status !== 'config_error') {
      const over = await this.agents.onUsage(
        { ...s, ...usage, status, exit_code: exitCode, exited_at: exitedAt },
        true,
      );
      if (over) {
        // A sibling's live watch may have crossed it meanwhile: one crossing, one reason for all.
        note = `${this.crossings.reasonFor(s, over)} (reported at the session's end; it ended ${status})`;
        status = 'budget_exceeded';
        this.overCap(s, over, true);
      }
    }
    const done: SessionRecord = {
      ...s,
      ...usage,
      status,
      exit_code: exitCode,
      result,
      readout,
      note: note ?? null,
      exited_at: exitedAt,
    };
    const written = await this.events.transact(async (uow) => {
      // Not over a release: another process took the item over while this one was silent.
      const ok = await finishSession(uow.db, s.id, {
        ...usage,
        status,
        exit_code: exitCode,
        result,
        readout,
        note: note ?? null,
        exited_at: done.exited_at,
      });
      if (!ok) return false;
      await uow.emit({
        work_item_id: s.work_item_id,
        type: 'worker_session_exited',
        by: 'jig',
        node: s.node,
        payload: { session: s.id, task: s.task_path, status, exit_code: exitCode, ...(note ? { note } : {}) },
      });
      for (const e of refusalEvents(this.paths.runDir, s)) await uow.emit(e);
      return true;
    });
    if (!written) {
      this.log.warn({ session: s.id }, 'session ended after its item was taken over: not recorded');
      return (await getSession(this.store.db, s.id)) ?? done;
    }
    if (status === 'unknown')
      this.log.warn({ session: s.id }, 'session ended with no exit code and no result');
    if (agent) await sessionChanges.after(this.log, this.paths.runDir, s.id);
    // The totals as stored now (the check above ran before the row was written).
    if (agent) await this.agents.onUsage(done, true);
    return done;
  }

  /** The agent's last readout (the whole log for a session adopted or resolved after a restart). */
  private finishWatch(s: SessionRecord): ReturnType<AgentWatch['finish']> | null {
    const w = this.watches.get(s.id);
    if (w) {
      w.stop.abort();
      this.watches.delete(s.id);
      return w.watch.finish();
    }
    return this.agentWatch(s)?.finish() ?? null;
  }

  private agentWatch(s: SessionRecord): AgentWatch | null {
    const provider = s.provider === null ? undefined : this.agents.provider(s.provider);
    if (!provider) return null;
    const now = (): number => this.clock.now();
    return new AgentWatch(provider, this.agents.pricing(s.harness), s.model, s.log_path, now);
  }

  close(): void {
    this.closing.close();
    for (const t of this.timers.values()) this.clock.clearTimer(t);
    this.timers.clear();
    for (const w of this.watches.values()) w.stop.abort();
    this.watches.clear();
    this.launcher.close();
  }
}
