import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import type { SandboxPlan } from './plan.js';

/** The host's system folders, read-only inside: programs, libraries, and /etc's settings. */
const SYSTEM = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt'];
/** Under /etc, what only the host's administrator should read: hidden behind an empty folder or file. */
const HIDDEN_DIRS = ['/etc/ssh', '/etc/ssl/private', '/etc/sudoers.d'];
const HIDDEN_FILES = ['/etc/shadow', '/etc/gshadow', '/etc/shadow-', '/etc/gshadow-', '/etc/sudoers'];

/**
 * bwrap's arguments for a plan, up to and including the `--` before the command: a fresh root with
 * the system folders read-only, a private /tmp, /proc and /dev, the plan's mounts at their own paths,
 * new PID, IPC, UTS and (unless the network is open) network namespaces, no capabilities, and the
 * jail ended with the sandbox program that started it.
 */
export function bwrapArgs(plan: SandboxPlan): string[] {
  const a = ['--die-with-parent', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  if (plan.network.mode !== 'open') a.push('--unshare-net');
  a.push('--cap-drop', 'ALL', '--hostname', 'jig-sandbox');
  for (const p of SYSTEM) {
    if (!existsSync(p)) continue;
    const st = lstatSync(p);
    if (st.isSymbolicLink()) a.push('--symlink', readlinkSync(p), p);
    else a.push('--ro-bind', p, p);
  }
  for (const p of HIDDEN_DIRS) if (existsSync(p)) a.push('--tmpfs', p);
  for (const p of HIDDEN_FILES) if (existsSync(p)) a.push('--ro-bind', '/dev/null', p);
  a.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--tmpfs', '/var/tmp', '--tmpfs', '/run');
  for (const m of plan.mounts) a.push(m.writable ? '--bind' : '--ro-bind', m.path, m.path);
  // The folders bwrap made above the mounts live in its own root: read-only, so nothing lands there.
  a.push('--remount-ro', '/', '--chdir', plan.cwd, '--');
  return a;
}
