import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/*
 * Runs `jig` command lines in the CLI host (cli-host.mjs), one long-lived process per test file,
 * instead of a process per command. The host runs one command at a time; `runInHost` answers null
 * when it is busy or the command needs a process of its own, and the caller starts one.
 */

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface Pending {
  id: number;
  code: number | null | undefined;
  done: (r: CliResult) => void;
}

class Host {
  readonly proc: ChildProcess;
  readonly ready: Promise<boolean>;
  private out = '';
  private err = '';
  private pending: Pending | null = null;
  private next = 1;
  busy = false;

  constructor(
    script: string,
    private readonly bin: string,
  ) {
    this.proc = fork(script, [], {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // The host runs the built CLI, as bin/jig.js would: none of Vitest's loaders or options.
      execArgv: [],
      env: process.env,
    });
    this.proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
      this.out += d;
      this.settle();
    });
    this.proc.stderr!.setEncoding('utf8').on('data', (d: string) => {
      this.err += d;
      this.settle();
    });
    this.ready = new Promise((res) => {
      this.proc.on('message', (m: { ready?: boolean; id?: number; code?: number }) => {
        if (m.ready) res(true);
        else if (this.pending && m.id === this.pending.id) {
          this.pending.code = m.code ?? 0;
          this.settle();
        }
      });
      // A host that ended ends the run under way as a process would: with its code and output.
      this.proc.on('exit', (code, signal) => {
        res(false);
        const p = this.pending;
        this.pending = null;
        if (p) p.done({ code: code ?? (signal ? null : 1), stdout: this.out, stderr: this.err });
        if (host === this) host = null;
      });
    });
    this.unref();
  }

  private unref(): void {
    this.proc.unref();
    this.proc.channel?.unref();
    // The pipes are sockets, which a Readable's type does not say.
    for (const pipe of [this.proc.stdout, this.proc.stderr])
      if (pipe && 'unref' in pipe && typeof pipe.unref === 'function') pipe.unref();
  }

  private ref(): void {
    this.proc.ref();
    this.proc.channel?.ref();
  }

  /** Ends the run once its code came and both pipes carried its end marker. */
  private settle(): void {
    const p = this.pending;
    if (!p || p.code === undefined) return;
    const marker = `\u0000jig-cli-host-end:${p.id}\u0000`;
    const o = this.out.indexOf(marker);
    const e = this.err.indexOf(marker);
    if (o < 0 || e < 0) return;
    const result = { code: p.code, stdout: this.out.slice(0, o), stderr: this.err.slice(0, e) };
    this.out = this.out.slice(o + marker.length);
    this.err = this.err.slice(e + marker.length);
    this.pending = null;
    this.busy = false;
    this.unref();
    p.done(result);
  }

  run(
    args: string[],
    env: NodeJS.ProcessEnv,
    input: string | undefined,
    cwd: string | undefined,
  ): Promise<CliResult> {
    this.ref();
    // Whatever came between two runs (a write after a run ended) is not the next run's.
    this.out = '';
    this.err = '';
    const id = this.next++;
    return new Promise((done) => {
      this.pending = { id, code: undefined, done };
      this.proc.send({ id, args, env, bin: this.bin, input: input ?? null, cwd: cwd ?? process.cwd() });
    });
  }
}

/** The file's host, started with its first command (a test file runs one CLI: bin/jig.js). */
let host: Host | null = null;

/** The host running now, for the CPU log (test/cpu-log.ts). */
export const hostPids = (): number[] => (host?.proc.pid ? [host.proc.pid] : []);

/**
 * Commands that stay in a process of their own: a server (`serve`, `admin mcp`) or a watch runs
 * until it is stopped, and the host runs one command at a time.
 */
function needsProcess(args: string[]): boolean {
  if (args[0] === 'serve') return true;
  if (args[0] === 'admin' && args[1] === 'mcp') return true;
  return args.includes('watch') || args.includes('--follow') || args.includes('-f');
}

/** Runs `args` in the host, or answers null when the caller must start a process. */
export async function runInHost(
  bin: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  input?: string,
  cwd?: string,
): Promise<CliResult | null> {
  if (process.env.JIG_TEST_CLI === 'process' || needsProcess(args)) return null;
  host ??= new Host(join(import.meta.dirname, 'cli-host.mjs'), bin);
  const mine = host;
  if (mine.busy) return null;
  // Claimed before the wait for its start: a second command sent meanwhile gets a process.
  mine.busy = true;
  if (!(await mine.ready)) return null;
  return mine.run(args, env, input, cwd);
}
