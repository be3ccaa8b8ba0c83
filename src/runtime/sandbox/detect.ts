import { execFile, spawnSync } from 'node:child_process';
import type { SandboxAnswer } from '../../contract/sandbox-route.js';
import type { JailKind } from './request.js';

/*
 * What this machine can jail tasks with, looked at by running each tool (never by its presence
 * alone: a bwrap without user namespaces, a docker client without a daemon, are installed and do
 * not work). Kept a minute: each look starts processes (podman's `info` takes some 0.2 s).
 */

type Check = SandboxAnswer['kinds'][number];

const PROBES: Record<JailKind, string[]> = {
  bubblewrap: ['bwrap', '--ro-bind', '/', '/', '--unshare-net', '--unshare-pid', 'true'],
  podman: ['podman', 'info', '--format', '{{.Host.OCIRuntime.Name}}'],
  docker: ['docker', 'info', '--format', '{{.ServerVersion}}'],
};
const INSTALL: Record<JailKind, string> = {
  bubblewrap: 'Debian: apt-get install bubblewrap',
  podman: 'Debian: apt-get install podman runc',
  docker: 'install docker and start its daemon',
};

/** Why a probe failed, in words: not installed (and how to install it), else what it said. */
function whyNot(kind: JailKind, err: Error | undefined, stderr: string, otherwise: string): string {
  const program = PROBES[kind][0] ?? kind;
  if (err && 'code' in err && err.code === 'ENOENT') return `${program} is not installed (${INSTALL[kind]})`;
  const said = stderr.trim().split('\n').pop()?.slice(0, 200) ?? '';
  return `${program} does not work here: ${said || otherwise}`;
}

function probe(kind: JailKind): Promise<Check> {
  const [program = '', ...args] = PROBES[kind];
  return new Promise((resolve) => {
    execFile(program, args, { timeout: 20_000, encoding: 'utf8' }, (err, _out, stderr) => {
      if (!err) return resolve({ kind, works: true, why: null });
      resolve({ kind, works: false, why: whyNot(kind, err, stderr, err.message) });
    });
  });
}

const KEEP_MS = 60_000;
let last: { at: number; kinds: Check[] } | null = null;
let pending: Promise<Check[]> | null = null;

/** The kinds that work here, bubblewrap first: looked at once a minute at most. */
export async function detectSandboxes(now = Date.now()): Promise<{ kinds: Check[]; at: number }> {
  if (last && now - last.at < KEEP_MS) return last;
  pending ??= Promise.all((['bubblewrap', 'podman', 'docker'] as const).map(probe)).finally(() => {
    pending = null;
  });
  const kinds = await pending;
  last = { at: now, kinds };
  return last;
}

/** The first kind that works (bubblewrap needs no image, so it comes first), or null. */
export const bestKind = (kinds: readonly Check[]): JailKind | null =>
  kinds.find((k) => k.works)?.kind ?? null;

/**
 * Whether bubblewrap starts a jail here, at once (a new home's seeding, before anything serves):
 * the same probe, some 10 ms. Null when it works, else why not.
 */
export function bubblewrapFailsNow(): string | null {
  const [program = '', ...args] = PROBES.bubblewrap;
  const r = spawnSync(program, args, { encoding: 'utf8', timeout: 20_000 });
  if (r.error) return whyNot('bubblewrap', r.error, '', r.error.message);
  return r.status === 0 ? null : whyNot('bubblewrap', undefined, r.stderr, `exit ${r.status}`);
}
