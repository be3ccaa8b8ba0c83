import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { descendants } from '../process/proc-info.js';
import { endGroup, findLaunched, launchHere, readExitCode, WRAPPER_BEFORE } from './supervisor.js';

let base: string;
let results: string;
let outside: string;
const at = (name: string) => join(results, name);

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'jig-exit-')));
  results = join(base, 'results');
  outside = join(base, 'outside');
  mkdirSync(results);
  mkdirSync(outside);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('readExitCode', () => {
  it('reads the code the wrapper wrote, and null for none', () => {
    expect(readExitCode(at('s1.exit'))).toBeNull();
    writeFileSync(at('s1.exit'), '0');
    expect(readExitCode(at('s1.exit'))).toBe(0);
    writeFileSync(at('s2.exit'), '137\n');
    expect(readExitCode(at('s2.exit'))).toBe(137);
    writeFileSync(at('s3.exit'), '');
    expect(readExitCode(at('s3.exit'))).toBeNull();
    writeFileSync(at('s4.exit'), 'zero');
    expect(readExitCode(at('s4.exit'))).toBeNull();
  });

  it('a FIFO, a link to /dev/zero or out, or a long file is no exit code (and never blocks)', () => {
    expect(spawnSync('mkfifo', [at('s1.exit')]).status).toBe(0);
    symlinkSync('/dev/zero', at('s2.exit'));
    writeFileSync(join(outside, 'code'), '0');
    symlinkSync(join(outside, 'code'), at('s3.exit'));
    writeFileSync(at('s4.exit'), '0'.repeat(65));
    for (const name of ['s1.exit', 's2.exit', 's3.exit', 's4.exit'])
      expect(readExitCode(at(name)), name).toBeNull();
  });
});

describe('findLaunched', () => {
  it('finds a running launch by its exit path, and nothing once it ended or for another path', async () => {
    const exitPath = at('s9.exit');
    const launched = launchHere({
      argv: ['sleep', '30'],
      cwd: base,
      env: { PATH: process.env.PATH ?? '' },
      logPath: at('s9.log'),
      exitPath,
    });
    try {
      expect(findLaunched(exitPath)).toEqual({ pid: launched.pid, startTime: launched.startTime });
      expect(findLaunched(at('s8.exit'))).toBeNull();
    } finally {
      await endGroup(launched.pid, 1_000);
    }
    await launched.exited;
    expect(findLaunched(exitPath)).toBeNull();
  });

  it('finds a task the wrapper before 2026-11-30 started, as a server upgraded under it must', async () => {
    const exitPath = at('s7.exit');
    const child = spawn('/bin/sh', ['-c', WRAPPER_BEFORE, exitPath, 'sleep', '30'], {
      detached: true,
      stdio: 'ignore',
    });
    try {
      expect(findLaunched(exitPath)?.pid).toBe(child.pid);
    } finally {
      await endGroup(child.pid!, 1_000);
    }
  });
});

describe('launchHere', () => {
  it('writes the exit code once the task ends, with no temp file beside it', async () => {
    const exitPath = at('s6.exit');
    const launched = launchHere({
      argv: ['/bin/sh', '-c', 'exit 3'],
      cwd: base,
      env: { PATH: process.env.PATH ?? '' },
      logPath: at('s6.log'),
      exitPath,
    });
    await launched.exited;
    expect(readExitCode(exitPath)).toBe(3);
    expect(readdirSync(results).sort()).toEqual(['s6.exit', 's6.log']);
  });
});

/** Alive and not a zombie (an orphan ended here is reaped by whatever adopted it, in its time). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

describe('endGroup after the task exited', () => {
  it('ends what it left in its group and, from what was seen while it ran, what it moved to a session of its own', async () => {
    const go = at('go');
    spawnSync('mkfifo', [go]);
    const pids = at('pids');
    // A job in the task's group, one in a session of its own; the task waits until told to end.
    const launched = launchHere({
      argv: [
        '/bin/sh',
        '-c',
        `sleep 300 & echo $! > ${pids}; setsid sleep 301 & echo $! >> ${pids}; read x < ${go}`,
      ],
      cwd: base,
      env: { PATH: process.env.PATH ?? '' },
      logPath: at('s7.log'),
      exitPath: at('s7.exit'),
    });
    const left = (): number[] => readFileSync(pids, 'utf8').split('\n').filter(Boolean).map(Number);
    let seen: ReturnType<typeof descendants> = [];
    const both = (): boolean =>
      existsSync(pids) && left().length === 2 && left().every((p) => seen.some((k) => k.pid === p));
    for (let i = 0; i < 500 && !both(); i++) {
      await new Promise((r) => setTimeout(r, 10));
      seen = descendants(launched.pid);
    }
    expect(left()).toHaveLength(2);
    expect(seen.map((k) => k.pid)).toEqual(expect.arrayContaining(left()));
    writeFileSync(go, '\n');
    await launched.exited;
    expect(left().every(running)).toBe(true);
    try {
      await endGroup(launched.pid, 2_000, seen, launched.startTime);
      expect(left().filter(running)).toEqual([]);
    } finally {
      for (const p of left().filter(running)) process.kill(p, 'SIGKILL');
    }
  });
});
