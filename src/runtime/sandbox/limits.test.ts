import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { enforceable, oomKills, unenforceable } from './limits.js';

// Fake cgroup roots: what the kernel shows under /sys/fs/cgroup, laid out as files and folders.
const base = mkdtempSync(join(tmpdir(), 'jig-cgroups-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function root(name: string, files: Record<string, string>, dirs: string[] = []): string {
  const r = join(base, name);
  for (const d of dirs) mkdirSync(join(r, d), { recursive: true });
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(join(r, f, '..'), { recursive: true });
    writeFileSync(join(r, f), text);
  }
  mkdirSync(r, { recursive: true });
  return r;
}

describe('which limits a container runtime can hold here', () => {
  const v1 = root('v1', {}, ['memory', 'pids', 'cpu,cpuacct', 'unified']);
  const v2 = root('v2', {
    'cgroup.controllers': 'cpuset cpu io memory pids\n',
    'user.slice/user-1000.slice/user@1000.service/cgroup.controllers': 'memory pids\n',
  });

  it('cgroup v1 (hybrid): root has the v1 controllers; rootless podman has none', () => {
    expect([...enforceable('podman', 0, v1)].sort()).toEqual(['cpu', 'memory', 'pids']);
    expect(enforceable('podman', 1000, v1).size).toBe(0);
    expect(unenforceable('podman', { memory: '64m' }, 1000, v1)).toBe(
      'sandbox.resources memory cannot be enforced by podman here (rootless podman cannot set limits under cgroup v1)',
    );
    expect(unenforceable('podman', { memory: '64m', pids: 32, cpu: 1 }, 0, v1)).toBeNull();
  });

  it('cgroup v2: rootless podman has what its user service was delegated', () => {
    expect(unenforceable('podman', { memory: '64m', pids: 10 }, 1000, v2)).toBeNull();
    expect(unenforceable('podman', { cpu: 2 }, 1000, v2)).toBe(
      "sandbox.resources cpu cannot be enforced by podman here (this machine's cgroups have no cpu controller for it)",
    );
    expect(unenforceable('docker', { cpu: 2 }, 1000, v2)).toBeNull();
  });
});

describe('out-of-memory kills in a running container', () => {
  it('cgroup v1: the memory hierarchy of its first process', () => {
    const r = root('oom-v1', {
      'memory/libpod_parent/libpod-abc/memory.oom_control': 'oom_kill_disable 0\nunder_oom 0\noom_kill 2\n',
    });
    const proc = root('proc-v1', {
      '42/cgroup': '5:pids:/libpod_parent/libpod-abc\n4:memory:/libpod_parent/libpod-abc\n',
    });
    expect(oomKills(42, 'abc', r, proc)).toBe(2);
    expect(oomKills(43, 'abc', r, proc)).toBe(0);
  });

  it('cgroup v2: its cgroup and the ancestors still named for it', () => {
    const r = root('oom-v2', {
      'machine.slice/libpod-abc.scope/memory.events': 'low 0\nhigh 0\nmax 9\noom 1\noom_kill 1\n',
      'machine.slice/libpod-abc.scope/container/memory.events': 'oom_kill 0\n',
      'machine.slice/memory.events': 'oom_kill 7\n',
    });
    const proc = root('proc-v2', { '42/cgroup': '0::/machine.slice/libpod-abc.scope/container\n' });
    expect(oomKills(42, 'abc', r, proc)).toBe(1);
  });
});
