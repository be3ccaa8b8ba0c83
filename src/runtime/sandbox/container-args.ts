import type { SandboxPlan } from './plan.js';
import { planFiles } from './plan.js';

type Container = NonNullable<SandboxPlan['container']>;

/**
 * The container's first process, around the task: it waits for `ready` (the relay listens, written
 * from outside), runs the task as its child and passes it a stop, then writes the task's exit code
 * and waits for `ack` before ending. While it waits the container's cgroup still exists, so the
 * sandbox program can read from outside whether the kernel killed something out of memory (podman
 * 4 on cgroup v1 does not record it, and the cgroup goes with the container). Builtins only, but
 * `sleep`: the image needs a POSIX sh.
 */
export const WRAPPER = [
  'ready=$1; done=$2; ack=$3; shift 3',
  // Bounded: a sandbox program gone before the relay listened leaves no container waiting forever.
  'i=0; while [ ! -e "$ready" ]; do [ $i -lt 2400 ] || exit 125; sleep 0.05; i=$((i+1)); done',
  '"$@" & pid=$!',
  "trap 'kill -TERM $pid 2>/dev/null' TERM INT HUP",
  'while :; do wait $pid; code=$?; kill -0 $pid 2>/dev/null || break; done',
  'echo $code > "$done"',
  'i=0; while [ ! -e "$ack" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done',
  'exit $code',
].join('\n');

/**
 * `podman create` (or `docker create`) arguments for a plan: the image's system read-only, the
 * plan's mounts at their own paths, no capabilities and no new privileges, the server's uid, the
 * limits, no network but loopback unless it is open, and the image never pulled (no registry is
 * assumed reachable; a missing image is an error at once, not a download).
 *
 * The task runs under WRAPPER; it starts once the sandbox program writes `in/ready` (after the
 * relay into the container's network namespace listens), so its first request never races it.
 */
export function containerCreateArgs(plan: SandboxPlan, c: Container, byName: readonly string[]): string[] {
  const f = planFiles(plan.dir);
  const podman = plan.kind === 'podman';
  const a = ['create', '--name', c.name, '--pull', 'never', '--hostname', 'jig-sandbox'];
  a.push('--network', plan.network.mode === 'open' ? 'host' : 'none');
  a.push('--cap-drop', 'all', '--security-opt', 'no-new-privileges');
  a.push('--user', `${c.user.uid}:${c.user.gid}`);
  // Rootless podman: the server's uid inside is its own uid outside, so the worktree's files match.
  if (podman && c.user.uid !== 0) a.push('--userns', 'keep-id');
  // Podman's --read-only mounts its own /tmp, /var/tmp and /run; docker's needs them named.
  a.push('--read-only');
  if (!podman) for (const t of ['/tmp', '/var/tmp', '/run']) a.push('--tmpfs', t);
  const r = c.resources;
  if (r.memory !== undefined) a.push('--memory', r.memory, '--memory-swap', r.memory);
  if (r.pids !== undefined) a.push('--pids-limit', String(r.pids));
  if (r.cpu !== undefined) a.push('--cpus', String(r.cpu));
  a.push('--env-file', f.envFile);
  for (const k of byName) a.push('--env', k);
  for (const m of plan.mounts) a.push('--volume', `${m.path}:${m.path}:${m.writable ? 'rw' : 'ro'}`);
  a.push('--workdir', plan.cwd, c.image, 'sh', '-c', WRAPPER, 'jig-sandbox');
  a.push(`${f.inside}/ready`, `${f.out}/.task-exit`, `${f.inside}/ack`);
  a.push(...plan.argv);
  return a;
}

/**
 * A container's variables as an env file (`NAME=value` lines, no quoting, so no newlines): values
 * that hold a newline go by name instead (`--env NAME`, the value in the runtime's environment).
 */
export function containerEnv(env: Record<string, string>): { file: string; byName: string[] } {
  const lines: string[] = [];
  const byName: string[] = [];
  for (const [k, v] of Object.entries(env)) {
    if (/[\r\n]/.test(v)) byName.push(k);
    else lines.push(`${k}=${v}`);
  }
  return { file: lines.length > 0 ? `${lines.join('\n')}\n` : '', byName };
}

/**
 * Removing a container that may still run: at once, with no stop grace (podman's `rm --force`
 * otherwise waits 10 s for a first process that ignores SIGTERM; docker's kills at once).
 */
export const removeArgs = (kind: SandboxPlan['kind'], name: string): string[] =>
  kind === 'podman' ? ['rm', '--force', '--time', '0', name] : ['rm', '--force', name];
