import { existsSync, readFileSync } from 'node:fs';
import type { JailKind, SandboxResources } from './request.js';

/** The cgroup controller each limit needs. */
const CONTROLLER = { cpu: 'cpu', memory: 'memory', pids: 'pids' } as const;

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/**
 * The controllers a container started by this process can be limited with. cgroup v2: the root's
 * controllers, and for a rootless podman what the user's systemd service was delegated. cgroup v1
 * (or hybrid, as on Debian 12 here): the v1 hierarchies, which rootless podman cannot use at all
 * (it then warns and ignores the limits, which Jig must not let pass silently).
 */
export function enforceable(kind: JailKind, uid: number, root = '/sys/fs/cgroup'): Set<string> {
  const rootless = kind === 'podman' && uid !== 0;
  const unified = read(`${root}/cgroup.controllers`);
  if (unified !== null) {
    const own = rootless
      ? read(`${root}/user.slice/user-${uid}.slice/user@${uid}.service/cgroup.controllers`)
      : unified;
    return new Set((own ?? '').split(/\s+/).filter(Boolean));
  }
  if (rootless) return new Set();
  const out = new Set<string>();
  if (existsSync(`${root}/memory`)) out.add('memory');
  if (existsSync(`${root}/pids`)) out.add('pids');
  if (existsSync(`${root}/cpu`) || existsSync(`${root}/cpu,cpuacct`)) out.add('cpu');
  return out;
}

/**
 * Why a container's `resources` cannot be held on this machine (the limits named, and what is
 * missing), or null when every one can: a limit nobody enforces is refused, not ignored.
 */
export function unenforceable(
  kind: JailKind,
  r: SandboxResources,
  uid = process.getuid?.() ?? 0,
  root = '/sys/fs/cgroup',
): string | null {
  const have = enforceable(kind, uid, root);
  const missing = (Object.keys(CONTROLLER) as (keyof typeof CONTROLLER)[]).filter(
    (k) => r[k] !== undefined && !have.has(CONTROLLER[k]),
  );
  if (missing.length === 0) return null;
  const why =
    kind === 'podman' && uid !== 0 && !existsSync(`${root}/cgroup.controllers`)
      ? 'rootless podman cannot set limits under cgroup v1'
      : `this machine's cgroups have no ${missing.map((k) => CONTROLLER[k]).join(', ')} controller for it`;
  return `sandbox.resources ${missing.join(', ')} cannot be enforced by ${kind} here (${why})`;
}

/** `oom_kill N` of a memory cgroup's counters (v1 memory.oom_control, v2 memory.events). */
function oomKillCount(file: string): number {
  const m = /^oom_kill (\d+)$/m.exec(read(file) ?? '');
  return m ? Number(m[1]) : 0;
}

/**
 * How many processes the kernel killed out of memory in the cgroup of `pid` (a container's first
 * process, still alive), read on the host. cgroup v2: its cgroup and the ancestors that are still
 * the container's (named with `id`), where podman may set the limit one level up.
 */
export function oomKills(pid: number, id: string, root = '/sys/fs/cgroup', proc = '/proc'): number {
  const lines = (read(`${proc}/${pid}/cgroup`) ?? '').split('\n');
  const v1 = lines.map((l) => l.split(':')).find((p) => p[1]?.split(',').includes('memory'));
  if (v1?.[2] !== undefined) return oomKillCount(`${root}/memory${v1[2]}/memory.oom_control`);
  const v2 = lines.find((l) => l.startsWith('0::'))?.slice(3);
  if (v2 === undefined) return 0;
  let most = 0;
  for (let path = v2; path.includes(id); path = path.slice(0, path.lastIndexOf('/')))
    most = Math.max(most, oomKillCount(`${root}${path}/memory.events`));
  return most;
}
