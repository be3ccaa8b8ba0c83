import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from 'pino';
import { packageRoot } from '../package-root.js';
import { parseLaunchReply, type LaunchReply, type LaunchRequest } from './launch-protocol.js';
import { findLaunched, launchHere, waitGone, type LaunchSpec, type Launched } from './supervisor.js';

/** The helper's program, as built (npm run build): plain node, no bundle, no flags. */
export const LAUNCHER_PROGRAM = join(packageRoot, 'dist', 'runtime', 'workers', 'launcher-main.js');

/** A helper with nothing to run goes after this long, and comes back with the next launch. */
const IDLE_MS = 30_000;

/** After this many helpers ended on their own, tasks are started by the server itself. */
const DEATHS_BEFORE_FALLBACK = 2;

interface Pending {
  spec: LaunchSpec;
  resolve(l: Launched): void;
  reject(e: Error): void;
}

/**
 * Starts tasks through a small helper process (launcher-main.ts, ADR 0030) rather than by forking
 * the server: the fork of a process the server's size blocked its event loop for about 11 ms a
 * task. The helper is started with the first launch, leaves after a while with nothing to run, and
 * outlives a server that stops or dies while tasks run, to write their exit codes. Without it (the
 * program missing, or helpers that keep dying) tasks are started in-process, as before.
 */
export class Launcher {
  private child: ChildProcess | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly jobs = new Map<
    number,
    { pid: number; start: string | null; done: (code: number | null) => void }
  >();
  private deaths = 0;
  private inProcess = false;
  private closed = false;
  private idle: NodeJS.Timeout | null = null;

  constructor(
    private readonly log: Logger,
    private readonly program: string = LAUNCHER_PROGRAM,
  ) {}

  /** The helper's pid while one runs (tests look at it). */
  get helperPid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Starts the task; answers once it has a pid (or the start failed). */
  launch(spec: LaunchSpec): Promise<Launched> {
    const child = this.helper();
    if (child === null || child.stdin === null) return Promise.resolve(launchHere(spec));
    if (this.idle !== null) clearTimeout(this.idle);
    this.idle = null;
    const id = this.nextId++;
    const req: LaunchRequest = {
      id,
      argv: spec.argv,
      cwd: spec.cwd,
      env: spec.env,
      log: spec.logPath,
      exit: spec.exitPath,
    };
    return new Promise<Launched>((resolve, reject) => {
      this.pending.set(id, { spec, resolve, reject });
      this.hold(child);
      child.stdin?.write(`${JSON.stringify(req)}\n`);
    });
  }

  /** Lets the helper go (it leaves once its tasks have ended); later launches start in-process. */
  close(): void {
    this.closed = true;
    this.retire();
  }

  private helper(): ChildProcess | null {
    if (this.child !== null) return this.child;
    if (this.inProcess || this.closed) return null;
    if (!existsSync(this.program)) {
      this.fallBack(`the task launcher is missing (${this.program}): run npm run build`);
      return null;
    }
    // Its own session: a terminal's Ctrl-C to the server does not end it while tasks still run.
    // No NODE_OPTIONS and no flags of the server's: it is plain node.
    const child = spawn(process.execPath, [this.program], {
      detached: true,
      stdio: ['pipe', 'pipe', 'inherit'],
      env: {},
    });
    this.child = child;
    child.unref();
    if (child.stdin instanceof Socket) child.stdin.unref();
    child.stdin?.on('error', () => undefined);
    if (child.stdout !== null)
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (this.child !== child) return;
        const r = parseLaunchReply(line);
        if (r === null)
          this.log.warn({ line: line.slice(0, 200) }, 'the task launcher said something unreadable');
        else this.heard(r);
      });
    child.once('error', (err) => this.died(child, err));
    child.once('exit', (code, signal) => this.died(child, new Error(`exited ${code ?? signal ?? ''}`)));
    return child;
  }

  /**
   * The process waits for a launch's answer as it waited for a fork; a task that runs, like one it
   * started itself, does not keep it alive (a stopping server leaves its tasks running).
   */
  private hold(child: ChildProcess): void {
    const out = child.stdout;
    if (!(out instanceof Socket)) return;
    if (this.pending.size > 0) out.ref();
    else out.unref();
  }

  private heard(r: LaunchReply): void {
    if ('exit' in r) {
      const job = this.jobs.get(r.id);
      this.jobs.delete(r.id);
      job?.done(r.exit);
      this.armIdle();
      return;
    }
    const p = this.pending.get(r.id);
    if (!p) return;
    this.pending.delete(r.id);
    if (this.child !== null) this.hold(this.child);
    if ('error' in r) {
      p.reject(new Error(r.error));
      this.armIdle();
      return;
    }
    let done: (code: number | null) => void = () => undefined;
    const exited = new Promise<number | null>((resolve) => (done = resolve));
    this.jobs.set(r.id, { pid: r.pid, start: r.start, done });
    p.resolve({ pid: r.pid, startTime: r.start, exited });
  }

  /**
   * A helper that ended on its own (killed, out of memory): its tasks run on, watched by pid from
   * here; a launch it had not answered is looked for, and failed when it never started.
   */
  private died(child: ChildProcess, err: Error): void {
    if (this.child !== child) return;
    this.child = null;
    const everStarted = child.pid !== undefined;
    this.deaths++;
    this.log.warn({ err, pending: this.pending.size, running: this.jobs.size }, 'the task launcher ended');
    if (!everStarted || this.deaths >= DEATHS_BEFORE_FALLBACK)
      this.fallBack('the task launcher could not be kept running');
    for (const job of this.jobs.values()) void waitGone(job.pid, job.start).then(() => job.done(null));
    this.jobs.clear();
    for (const p of this.pending.values()) {
      // A helper that never ran started nothing: the launch is made here instead.
      if (!everStarted) {
        try {
          p.resolve(launchHere(p.spec));
        } catch (e) {
          p.reject(e instanceof Error ? e : new Error(String(e)));
        }
        continue;
      }
      const found = findLaunched(p.spec.exitPath, p.spec.env.JIG_SESSION_ID);
      if (found === null) p.reject(new Error('the task launcher ended before it started the task'));
      else p.resolve({ ...found, exited: waitGone(found.pid, found.startTime).then(() => null) });
    }
    this.pending.clear();
  }

  private fallBack(why: string): void {
    if (this.inProcess) return;
    this.inProcess = true;
    this.log.warn(`${why}; tasks are started by the server itself`);
  }

  private armIdle(): void {
    if (this.closed || this.pending.size > 0 || this.jobs.size > 0 || this.idle !== null) return;
    this.idle = setTimeout(() => {
      this.idle = null;
      if (this.pending.size === 0 && this.jobs.size === 0) this.retire();
    }, IDLE_MS);
    this.idle.unref();
  }

  /** Closes the helper's input: it leaves once the tasks it started have ended. */
  private retire(): void {
    if (this.idle !== null) clearTimeout(this.idle);
    this.idle = null;
    const child = this.child;
    this.child = null;
    if (child === null) return;
    child.stdin?.end();
    child.stdout?.destroy();
  }
}
