import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { containerCreateArgs, containerEnv, removeArgs } from './container-args.js';
import { processStartTime } from '../process/proc-info.js';
import { oomKills } from './limits.js';
import { planFiles, type SandboxPlan } from './plan.js';

const run = promisify(execFile);

/** A port inside the sandbox relayed to a unix socket outside. */
export interface Relay {
  port: number;
  socket: string;
}

type Container = NonNullable<SandboxPlan['container']>;

const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Answers the runtime's answer to `args`, or throws with what it printed. */
async function runtime(plan: SandboxPlan, env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  try {
    return (await run(plan.program, args, { env, timeout: 120_000, maxBuffer: 1 << 20 })).stdout.trim();
  } catch (err) {
    const said = typeof err === 'object' && err !== null && 'stderr' in err ? String(err.stderr).trim() : '';
    throw new Error(`${plan.kind} ${args[0]}: ${said || (err instanceof Error ? err.message : String(err))}`);
  }
}

/** The container's process id once it runs (its network namespace then exists); 0 while it does not. */
async function containerPid(plan: SandboxPlan, env: NodeJS.ProcessEnv, name: string): Promise<number> {
  const out = await runtime(plan, env, ['inspect', '--format', '{{.State.Pid}}', name]).catch(() => '0');
  return Number(out) || 0;
}

/**
 * Starts the relay in the container's network namespace, from outside: the program runs on the
 * host (no Node needed in the image), only its sockets live inside. Entering another process's
 * network namespace takes root, or rootless podman's own user namespace (`podman unshare`).
 */
async function startRelay(
  plan: SandboxPlan,
  env: NodeJS.ProcessEnv,
  pid: number,
  relays: Relay[],
): Promise<ChildProcess> {
  const f = planFiles(plan.dir);
  const enter = [
    'nsenter',
    `--net=/proc/${pid}/ns/net`,
    '--',
    process.execPath,
    f.relay,
    JSON.stringify(relays),
  ];
  const [file, ...args] = process.getuid?.() === 0 ? enter : [plan.program, 'unshare', ...enter];
  const relay = spawn(file ?? 'nsenter', args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    relay.stdout.on('data', (b: Buffer) => {
      out += b.toString('utf8');
      if (out.includes('ready')) resolve();
    });
    relay.once('error', reject);
    relay.once('exit', (code) => reject(new Error(`the relay into the container ended (exit ${code})`)));
  });
  return relay;
}

/**
 * Runs a plan's task in a container (podman, or docker's compatible CLI) and answers its exit code:
 * create, start attached (the task's output is the session's log), relay the proxy and Jig's API
 * into its network namespace when the network is proxied, then read how it ended (an out-of-memory
 * kill is written to `oom.json` for the server) and remove it. `container.json` names it for the
 * server, which removes it if this program is killed before it could.
 */
export async function runContainer(
  plan: SandboxPlan,
  c: Container,
  env: Record<string, string>,
  relays: Relay[] | null,
): Promise<number> {
  const f = planFiles(plan.dir);
  const { file, byName } = containerEnv(env);
  writeFileSync(f.envFile, file, { mode: 0o600 });
  const runtimeEnv: NodeJS.ProcessEnv = { ...c.runtimeEnv };
  for (const k of byName) runtimeEnv[k] = env[k];
  const record = (pid: number | null): void =>
    writeFileSync(
      f.container,
      JSON.stringify({
        kind: plan.kind,
        program: plan.program,
        name: c.name,
        runtimeEnv: c.runtimeEnv,
        pid,
        start: pid === null ? null : processStartTime(pid),
      }),
      { mode: 0o600 },
    );
  record(null);
  let stopping = false;
  let started = false;
  let stopped: Promise<unknown> = Promise.resolve();
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const)
    process.on(sig, () => {
      if (stopping) return;
      stopping = true;
      // Not started yet: the creation under way is not raced; the container is removed after it.
      if (started)
        stopped = runtime(plan, runtimeEnv, ['stop', '--time', '5', c.name]).catch(() => undefined);
    });
  const id = await runtime(plan, runtimeEnv, containerCreateArgs(plan, c, byName));
  // Stopped while it was being made (a pause as it launched): it never starts.
  if (stopping) {
    await runtime(plan, runtimeEnv, removeArgs(plan.kind, c.name)).catch(() => undefined);
    return 143;
  }
  // Nothing to relay: the task may start at once.
  if (relays === null) writeFileSync(`${f.inside}/ready`, '');
  // Signals are not proxied by the attached client: this program alone stops the container, so no
  // two commands of the runtime act on it at once (podman 4 has lost track of a container that way).
  started = true;
  const child = spawn(plan.program, ['start', '--attach', '--sig-proxy=false', c.name], {
    env: runtimeEnv,
    stdio: 'inherit',
  });
  let gone = false;
  const exited = new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(null));
    child.once('exit', (code) => resolve(code));
  }).finally(() => (gone = true));
  let relay: ChildProcess | null = null;
  try {
    let pid = 0;
    // Bounded: a container that never runs ends the launch rather than hanging it.
    for (let i = 0; i < 1200 && pid === 0 && !gone; i++) {
      pid = await containerPid(plan, runtimeEnv, c.name);
      if (pid === 0) await delay(50);
    }
    if (pid !== 0) record(pid);
    if (relays !== null) {
      if (pid === 0) throw new Error(`the ${plan.kind} container did not start`);
      relay = await startRelay(plan, runtimeEnv, pid, relays);
      writeFileSync(`${f.inside}/ready`, '');
    }
    // The wrapper says when the task has ended and holds the container until it is told to go.
    let kills = 0;
    while (pid !== 0 && !gone) {
      if (existsSync(`${f.out}/.task-exit`)) {
        kills = oomKills(pid, id);
        writeFileSync(`${f.inside}/ack`, '');
        break;
      }
      await delay(50);
    }
    const attached = await exited;
    const state = await runtime(plan, runtimeEnv, [
      'inspect',
      '--format',
      '{{.State.ExitCode}} {{.State.OOMKilled}}',
      c.name,
    ]).catch(() => '');
    const [said, oom] = state.split(' ');
    const code = said !== undefined && /^\d+$/.test(said) ? Number(said) : (attached ?? 125);
    // Out of memory is how it ended only when it failed: a task whose child the kernel killed
    // and which went on to succeed ended as it says.
    if ((oom === 'true' || kills > 0) && code !== 0)
      writeFileSync(f.oom, JSON.stringify({ memory: c.resources.memory ?? null }), { mode: 0o600 });
    return code;
  } finally {
    relay?.kill('SIGKILL');
    await stopped;
    await runtime(plan, runtimeEnv, removeArgs(plan.kind, c.name)).catch(() => undefined);
  }
}
