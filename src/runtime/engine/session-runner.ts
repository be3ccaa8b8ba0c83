import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { ResultFile } from '../../contract/result-file.js';
import type { Store } from '../../store/database.js';
import {
  updateSession,
  insertSession,
  type SessionRecord,
  type SessionStatus,
} from '../../store/sessions.js';
import type { EventLog } from '../events/event-log.js';
import type { HomePaths } from '../home/paths.js';
import { isSameProcess } from '../process/proc-info.js';
import { endGroup, launch, readExitCode, waitGone, type Launched } from './supervisor.js';

export interface SessionRequest {
  itemId: string;
  node: string;
  taskPath: string;
  kind: string;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  timeCapS: number | null;
  /** Jig's instruction for a repair or judge: written beside the result file, named by $JIG_FIX_BRIEF. */
  brief?: string;
}

/** Why the server itself ended a session, which decides its status over the exit code. */
type Ending = 'capped' | 'paused';

/**
 * Starts task processes, watches them to the end (or adopts them after a restart) and turns how
 * they ended into a session status. The session row and its events are the record.
 */
export class SessionRunner {
  private readonly endings = new Map<string, Ending>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly store: Store,
    private readonly events: EventLog,
    private readonly paths: HomePaths,
    private readonly log: Logger,
  ) {}

  async start(req: SessionRequest): Promise<{ session: SessionRecord; launched: Launched }> {
    const id = `s${randomBytes(6).toString('hex')}`;
    const resultPath = join(this.paths.resultsDir, `${id}.json`);
    const exitPath = join(this.paths.resultsDir, `${id}.exit`);
    const logPath = join(this.paths.logsDir, `${id}.log`);
    for (const p of [resultPath, exitPath]) rmSync(p, { force: true });
    const env: Record<string, string> = { ...req.env, JIG_SESSION_ID: id, JIG_RESULT_PATH: resultPath };
    if (req.brief !== undefined) {
      const briefPath = join(this.paths.resultsDir, `${id}.brief.md`);
      writeFileSync(briefPath, req.brief, { mode: 0o600 });
      env.JIG_FIX_BRIEF = briefPath;
    }
    const launched = launch({ argv: req.argv, cwd: req.cwd, env, logPath, exitPath });
    const session: SessionRecord = {
      id,
      work_item_id: req.itemId,
      node: req.node,
      task_path: req.taskPath,
      kind: req.kind,
      status: 'running',
      argv: req.argv,
      cwd: req.cwd,
      pid: launched.pid,
      pid_start: launched.startTime,
      log_path: logPath,
      result_path: resultPath,
      exit_path: exitPath,
      exit_code: null,
      result: null,
      time_cap_s: req.timeCapS,
      started_at: new Date().toISOString(),
      exited_at: null,
    };
    await this.events.transact(async (uow) => {
      await insertSession(uow.db, session);
      await uow.emit({
        work_item_id: req.itemId,
        type: 'worker_session_started',
        by: 'jig',
        node: req.node,
        payload: { session: id, task: req.taskPath, kind: req.kind, pid: launched.pid, argv: req.argv },
      });
    });
    this.armCap(session);
    return { session, launched };
  }

  /** A time cap is enforced while the task runs, not only before it starts. */
  private armCap(s: SessionRecord): void {
    if (s.time_cap_s === null || s.pid === null) return;
    const left = Date.parse(s.started_at) + s.time_cap_s * 1000 - Date.now();
    const fire = (): void => {
      this.endings.set(s.id, 'capped');
      void this.events.transact(async (uow) => {
        await uow.emit({
          work_item_id: s.work_item_id,
          type: 'time_cap_reached',
          by: 'jig',
          node: s.node,
          payload: { session: s.id, task: s.task_path, cap_s: s.time_cap_s },
        });
      });
      void endGroup(s.pid!, 5_000);
    };
    if (left <= 0) fire();
    else this.timers.set(s.id, setTimeout(fire, left));
  }

  /** Ends a session on a person's request (pause, cancel): it stops as `paused`, not as a failure. */
  async end(s: SessionRecord): Promise<void> {
    if (s.pid === null || !isSameProcess(s.pid, s.pid_start)) return;
    this.endings.set(s.id, 'paused');
    await endGroup(s.pid, 10_000);
  }

  /** Waits for a session this server started, or one it adopted after a restart, and records its end. */
  async finish(s: SessionRecord, launched?: Launched): Promise<SessionRecord> {
    if (launched) await launched.exited;
    else if (s.pid !== null) {
      this.armCap(s);
      await waitGone(s.pid, s.pid_start);
    }
    return this.record(s);
  }

  /** Resolves a session whose process is gone, from its files; clears the server's own marks. */
  async record(s: SessionRecord): Promise<SessionRecord> {
    const timer = this.timers.get(s.id);
    if (timer) clearTimeout(timer);
    this.timers.delete(s.id);
    const ending = this.endings.get(s.id);
    this.endings.delete(s.id);
    // Whatever the task left running in its group goes too.
    if (s.pid !== null) void endGroup(s.pid, 10_000);
    const exitCode = readExitCode(s.exit_path);
    const { status, result, note } = resolveStatus(s, exitCode, ending);
    const done: SessionRecord = {
      ...s,
      status,
      exit_code: exitCode,
      result,
      exited_at: new Date().toISOString(),
    };
    await this.events.transact(async (uow) => {
      await updateSession(uow.db, s.id, { status, exit_code: exitCode, result, exited_at: done.exited_at });
      await uow.emit({
        work_item_id: s.work_item_id,
        type: 'worker_session_exited',
        by: 'jig',
        node: s.node,
        payload: { session: s.id, task: s.task_path, status, exit_code: exitCode, ...(note ? { note } : {}) },
      });
    });
    if (status === 'unknown')
      this.log.warn({ session: s.id }, 'session ended with no exit code and no result');
    return done;
  }

  close(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}

/**
 * Status rules (reference §2.4): a result file with a valid status wins; an invalid one is `failed`;
 * with no result file, exit 0 is `done` and anything else `failed`. A cap or a pause the server
 * imposed decides over the exit code. No exit code and no result: `unknown`.
 */
function resolveStatus(
  s: SessionRecord,
  exitCode: number | null,
  ending: Ending | undefined,
): { status: SessionStatus; result: Record<string, unknown> | null; note?: string } {
  if (ending === 'capped') return { status: 'capped_out', result: null, note: 'time cap reached' };
  if (ending === 'paused') return { status: 'paused', result: null };
  if (existsSync(s.result_path)) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(s.result_path, 'utf8'));
    } catch (err) {
      return { status: 'failed', result: null, note: `result file is not JSON: ${(err as Error).message}` };
    }
    const parsed = ResultFile.safeParse(raw);
    if (!parsed.success)
      return {
        status: 'failed',
        result: raw as Record<string, unknown>,
        note: 'result file has no valid status',
      };
    return { status: parsed.data.status, result: parsed.data };
  }
  if (exitCode === null) return { status: 'unknown', result: null, note: 'no exit code and no result file' };
  return exitCode === 0
    ? { status: 'done', result: null }
    : { status: 'failed', result: null, note: `exit code ${exitCode}` };
}
