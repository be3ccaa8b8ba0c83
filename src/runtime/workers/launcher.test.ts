import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isSameProcess } from '../process/proc-info.js';
import { Launcher, LAUNCHER_PROGRAM } from './launcher.js';
import { endGroup, findLaunched, readExitCode, waitGone, type LaunchSpec } from './supervisor.js';

/*
 * The helper is the built program (dist/, `npm run build`), as `jig serve` runs it. Real processes
 * throughout: the helper, the tasks, their files.
 */

let base: string;
let warnings: string[];
let launcher: Launcher;
const at = (name: string) => join(base, 'results', name);

function logger() {
  return pino(
    { level: 'warn' },
    { write: (line: string) => void warnings.push(String((JSON.parse(line) as { msg: unknown }).msg)) },
  );
}

function spec(name: string, argv: string[], extra: Partial<LaunchSpec> = {}): LaunchSpec {
  return {
    argv,
    cwd: base,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', JIG_SESSION_ID: name },
    logPath: at(`${name}.log`),
    exitPath: at(`${name}.exit`),
    ...extra,
  };
}

/** Process group and session of a live process (fields 5 and 6 of its stat). */
function groupOf(pid: number): { pgid: number; sid: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { pgid: Number(f[2]), sid: Number(f[3]) };
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'jig-launcher-')));
  mkdirSync(join(base, 'results'));
  warnings = [];
  launcher = new Launcher(logger());
});
afterEach(() => {
  launcher.close();
  rmSync(base, { recursive: true, force: true });
});

describe('Launcher', () => {
  it('is built where the server looks for it', () => {
    expect(existsSync(LAUNCHER_PROGRAM)).toBe(true);
  });

  it('starts a task from its helper, in a session of its own, and records its exit code', async () => {
    const launched = await launcher.launch(
      spec('s1', ['/bin/sh', '-c', 'echo "in $PWD as $JIG_SESSION_ID"; echo oops >&2; exit 3']),
    );
    const helper = launcher.helperPid;
    expect(helper).not.toBeNull();
    expect(launched.pid).not.toBe(helper);
    expect(launched.startTime).toMatch(/^\d+$/);
    await launched.exited;
    expect(readExitCode(at('s1.exit'))).toBe(3);
    expect(readFileSync(at('s1.log'), 'utf8')).toBe(`in ${base} as s1\noops\n`);
    // One helper for every launch.
    const second = await launcher.launch(spec('s2', ['true']));
    expect(launcher.helperPid).toBe(helper);
    await second.exited;
    expect(readExitCode(at('s2.exit'))).toBe(0);
    expect(warnings).toEqual([]);
  });

  it('leads its own process group, so ending the group ends the task and not the helper', async () => {
    const launched = await launcher.launch(spec('s3', ['sleep', '30']));
    expect(groupOf(launched.pid)).toEqual({ pgid: launched.pid, sid: launched.pid });
    expect(findLaunched(at('s3.exit'), 's3')).toEqual({ pid: launched.pid, startTime: launched.startTime });
    expect(findLaunched(at('s3.exit'), 'another')).toBeNull();
    await endGroup(launched.pid, 1_000);
    await launched.exited;
    // As a shell reports it: 128 + SIGTERM.
    expect(readExitCode(at('s3.exit'))).toBe(143);
    const helper = launcher.helperPid;
    expect(helper !== null && isSameProcess(helper, null)).toBe(true);
  });

  it('ends a command that cannot run as the shell did: its message in the log, 127', async () => {
    const launched = await launcher.launch(spec('s4', ['no-such-command-here', '--flag']));
    await launched.exited;
    expect(readExitCode(at('s4.exit'))).toBe(127);
    expect(readFileSync(at('s4.log'), 'utf8')).toMatch(/no-such-command-here: not found/);
  });

  it('refuses a launch it cannot make: a missing folder, a log that is already there, no command', async () => {
    await expect(launcher.launch(spec('s5', ['true'], { cwd: join(base, 'gone') }))).rejects.toThrow(
      /could not start true/,
    );
    writeFileSync(at('s6.log'), 'someone else');
    await expect(launcher.launch(spec('s6', ['true']))).rejects.toThrow(/cannot open the session log/);
    expect(readFileSync(at('s6.log'), 'utf8')).toBe('someone else');
    await expect(launcher.launch(spec('s7', []))).rejects.toThrow(/the command is empty/);
    await expect(launcher.launch(spec('s7b', ['echo', 'a\u0000b']))).rejects.toThrow(/could not start echo/);
    // None of them cost the helper.
    const helper = launcher.helperPid;
    await (
      await launcher.launch(spec('s7c', ['true']))
    ).exited;
    expect(launcher.helperPid).toBe(helper);
    expect(existsSync(at('s5.exit')) || existsSync(at('s6.exit'))).toBe(false);
  });

  it('outlives the server that closed it while a task runs, and writes that task its code', async () => {
    const go = at('go');
    expect(spawnSync('mkfifo', [go]).status).toBe(0);
    const launched = await launcher.launch(spec('s8', ['/bin/sh', '-c', `read x < ${go}; exit 5`]));
    const helper = launcher.helperPid!;
    launcher.close();
    expect(launcher.helperPid).toBeNull();
    expect(isSameProcess(helper, null)).toBe(true);
    writeFileSync(go, '\n');
    await waitGone(launched.pid, launched.startTime, 20);
    // The helper leaves once the code is written.
    await waitGone(helper, null, 20);
    expect(readExitCode(at('s8.exit'))).toBe(5);
  });

  it('a helper killed under a running task: the task runs on, is watched by pid, and the next launch gets a new helper', async () => {
    const go = at('go');
    expect(spawnSync('mkfifo', [go]).status).toBe(0);
    const launched = await launcher.launch(spec('s9', ['/bin/sh', '-c', `read x < ${go}`]));
    const helper = launcher.helperPid!;
    process.kill(helper, 'SIGKILL');
    await waitGone(helper, null, 20);
    expect(isSameProcess(launched.pid, launched.startTime)).toBe(true);
    writeFileSync(go, '\n');
    await launched.exited;
    // No one was left to write its code.
    expect(readExitCode(at('s9.exit'))).toBeNull();
    expect(warnings).toEqual(['the task launcher ended']);
    const next = await launcher.launch(spec('s10', ['true']));
    expect(launcher.helperPid).not.toBe(helper);
    await next.exited;
    expect(readExitCode(at('s10.exit'))).toBe(0);
  });

  it('without its program, starts tasks in-process through the shell wrapper, and says so once', async () => {
    launcher = new Launcher(logger(), join(base, 'missing.js'));
    const one = await launcher.launch(spec('s11', ['/bin/sh', '-c', 'exit 4']));
    const two = await launcher.launch(spec('s12', ['true']));
    await Promise.all([one.exited, two.exited]);
    expect(launcher.helperPid).toBeNull();
    expect([readExitCode(at('s11.exit')), readExitCode(at('s12.exit'))]).toEqual([4, 0]);
    expect(warnings).toEqual([
      `the task launcher is missing (${join(base, 'missing.js')}): run npm run build; tasks are started by the server itself`,
    ]);
  });
});
