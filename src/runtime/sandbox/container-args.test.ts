import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { containerCreateArgs, containerEnv, WRAPPER } from './container-args.js';
import type { SandboxPlan } from './plan.js';

const plan = (kind: 'podman' | 'docker', open = false): SandboxPlan => ({
  kind,
  program: `/usr/bin/${kind}`,
  container: {
    image: 'localhost/dev:1',
    name: 'jig-s1',
    resources: { memory: '64m', pids: 32, cpu: 1.5 },
    runtimeEnv: {},
    user: { uid: 1000, gid: 1000 },
  },
  argv: ['sh', '-c', 'make test'],
  cwd: '/w',
  env: {},
  mounts: [
    { path: '/w', writable: true },
    { path: '/s/in', writable: false },
  ],
  dir: '/s',
  network: open
    ? { mode: 'open' }
    : {
        mode: 'proxied',
        allow: [],
        deny: [],
        jigPort: null,
        caller: { item: 'i', escalation: false },
        secrets: [],
        tls: null,
      },
});

describe('a container for a plan', () => {
  it('podman: no capabilities, the server uid kept, limits without swap, mounts at their paths, the wrapper', () => {
    const p = plan('podman');
    expect(containerCreateArgs(p, p.container!, ['MULTI'])).toEqual([
      'create',
      '--name',
      'jig-s1',
      '--pull',
      'never',
      '--hostname',
      'jig-sandbox',
      '--network',
      'none',
      '--cap-drop',
      'all',
      '--security-opt',
      'no-new-privileges',
      '--user',
      '1000:1000',
      '--userns',
      'keep-id',
      '--read-only',
      '--memory',
      '64m',
      '--memory-swap',
      '64m',
      '--pids-limit',
      '32',
      '--cpus',
      '1.5',
      '--env-file',
      '/s/container.env',
      '--env',
      'MULTI',
      '--volume',
      '/w:/w:rw',
      '--volume',
      '/s/in:/s/in:ro',
      '--workdir',
      '/w',
      'localhost/dev:1',
      'sh',
      '-c',
      WRAPPER,
      'jig-sandbox',
      '/s/in/ready',
      '/s/out/.task-exit',
      '/s/in/ack',
      'sh',
      '-c',
      'make test',
    ]);
  });

  it('docker on an open network: the host network, its own tmpfs folders', () => {
    const p = plan('docker', true);
    const a = containerCreateArgs(p, p.container!, []);
    expect(a.slice(a.indexOf('--network'), a.indexOf('--network') + 2)).toEqual(['--network', 'host']);
    expect(a).not.toContain('--userns');
    expect(a.filter((x, i) => a[i - 1] === '--tmpfs')).toEqual(['/tmp', '/var/tmp', '/run']);
    expect(a.slice(-3)).toEqual(['sh', '-c', 'make test']);
  });

  it('an env file has one line per variable; a value with a newline goes by name', () => {
    expect(containerEnv({ A: '1', B: 'x=y z', C: 'two\nlines' })).toEqual({
      file: 'A=1\nB=x=y z\n',
      byName: ['C'],
    });
  });
});

describe('the wrapper around a container task', () => {
  // Run with the host's sh: the same script the container's first process runs.
  const dir = mkdtempSync(join(tmpdir(), 'jig-wrapper-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const wrap = (...argv: string[]) =>
    spawn('sh', [
      '-c',
      WRAPPER,
      'jig-sandbox',
      join(dir, 'ready'),
      join(dir, 'done'),
      join(dir, 'ack'),
      ...argv,
    ]);

  it('starts the task once ready exists, writes its exit code, and ends with it once acknowledged', async () => {
    const child = wrap('sh', '-c', 'echo ran > "$0"; exit 3', join(dir, 'ran'));
    const code = new Promise<number | null>((r) => child.once('exit', r));
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(join(dir, 'ran'))).toBe(false);
    writeFileSync(join(dir, 'ready'), '');
    // Bounded: the file is looked for until the task's exit code is in it.
    for (
      let i = 0;
      i < 200 && !readFileSync(join(dir, 'done'), { flag: 'a+' }).toString().endsWith('\n');
      i++
    )
      await new Promise((r) => setTimeout(r, 50));
    expect(readFileSync(join(dir, 'done'), 'utf8')).toBe('3\n');
    expect(child.exitCode).toBeNull();
    writeFileSync(join(dir, 'ack'), '');
    expect(await code).toBe(3);
  });
});
