import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './helpers/eventually.js';
import { makeRepo } from './helpers/git.js';
import { engineSetup, events, until } from './helpers/engine.js';
import { cleanupAll, http, jigBin, runJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * `jig view …` and `jig repo …`, run as the real CLI against a real server and real git
 * repositories. The chains run subprocess tasks only (no agent CLI needed).
 */

const talk = `
description: print, wait, finish
nodes:
  - id: work
    kind: exec
    tasks:
      - id: talk
        kind: subprocess
        run: echo one && echo two && sleep 1.5 && echo three
`;
const slow = `
description: wait until cancelled
nodes:
  - id: work
    kind: exec
    tasks:
      - id: wait
        kind: subprocess
        run: echo waiting && sleep 60
`;

const two = `
description: two steps, one after the other
nodes:
  - id: work
    kind: exec
    steps:
      - id: first
        tasks:
          - id: a
            kind: subprocess
            run: sleep 4 && echo from-a
      - id: second
        tasks:
          - id: b
            kind: subprocess
            run: echo from-b && sleep 0.5
`;

let jig: JigProcess;
let repo: string;
let env: NodeJS.ProcessEnv;
const api = (method: string, path: string, body?: unknown) => http(`${jig.url}${path}`, { method, body });
const cli = (...args: string[]) => runJig(args, env);

/** The CLI run in a folder (the repo or worktree it infers things from). */
function cliIn(
  cwd: string,
  args: string[],
  extra: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return started(args, { cwd, extra }).ended;
}

/** The CLI started: what it printed so far, and its end. */
function started(
  args: string[],
  { cwd, extra = {} }: { cwd?: string; extra?: NodeJS.ProcessEnv } = {},
): { stdout: () => string; ended: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const p = spawn(process.execPath, [jigBin, ...args], {
    ...(cwd === undefined ? {} : { cwd }),
    env: { ...process.env, ...env, ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  p.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return {
    stdout: () => stdout,
    ended: new Promise((res) => p.on('exit', (code) => res({ code, stdout, stderr }))),
  };
}

async function file(chain: string, start: boolean, r = repo, extra: object = {}): Promise<any> {
  const res = await api('POST', '/api/work-items', {
    title: `Run ${chain}`,
    repo: r,
    chain,
    start,
    ...extra,
  });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

const ndjson = (out: string): any[] =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

let done: any;

beforeAll(async () => {
  ({ jig, repo } = await engineSetup({ talk, slow, two }));
  env = { JIG_HOME: jig.home, NO_COLOR: '' };
  done = await file('talk', true);
  await until(jig, done.id, (i) => i.status === 'completed');
}, 60_000);
afterAll(async () => {
  await cleanupAll();
});

describe('view events', () => {
  it('--type keeps the kinds named (repeatable or comma-separated); an unknown kind is a usage error', async () => {
    const one = await cli('view', 'events', done.id, '--type', 'node_started', '--json');
    expect(one.code).toBe(0);
    // Without -f, --json is the API's payload (every page merged), not NDJSON.
    const payload = JSON.parse(one.stdout);
    expect(Object.keys(payload).sort()).toEqual(['events', 'next_after', 'next_before']);
    expect(payload.events.map((e: any) => e.type)).toEqual(['node_started']);
    expect(payload.next_after).toBe(payload.events[0].seq);
    const all = JSON.parse((await cli('view', 'events', done.id, '--json')).stdout);
    const api = await http(`${jig.url}/api/work-items/${done.id}/events?limit=1000`);
    expect(all).toEqual(api.json);
    const two = await cli(
      'view',
      'events',
      done.id,
      '--type',
      'node_started',
      '--type',
      'work_item_completed,work_item_created',
    );
    expect(two.code).toBe(0);
    expect(
      two.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[2]),
    ).toEqual(['work_item_created', 'node_started', 'work_item_completed']);
    const bad = await cli('view', 'events', done.id, '--type', 'nope');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--type nope is not an event kind');
  });

  it('-f --json prints NDJSON and ends when the item completes, exit 0', async () => {
    const item = await file('talk', true);
    const r = await cli('view', 'events', item.id, '-f', '--json');
    expect(r.code, r.stderr).toBe(0);
    const lines = ndjson(r.stdout);
    expect(lines.every((e) => e.work_item_id === item.id)).toBe(true);
    expect(lines.map((e) => e.type)).toEqual((await events(jig, item.id)).map((e) => e.type));
    expect(lines.at(-1).type).toBe('work_item_completed');
    expect(r.stderr).toBe(`jig: item ${item.id} ended: completed\n`);
  });

  it('-f ends with exit 1 when the item is cancelled; on an ended item it ends at once', async () => {
    const item = await file('slow', true);
    const run = started(['view', 'events', item.id, '-f']);
    await until(jig, item.id, (i) => i.status === 'running');
    // Following once it has printed the stored history: the cancel comes live.
    await eventually(() => run.stdout().includes('\n'), { what: 'view events -f to print the history' });
    expect((await api('POST', `/api/work-items/${item.id}/cancel`, { reason: 'test' })).status).toBe(200);
    const r = await run.ended;
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('work_item_cancelled');
    expect(r.stderr).toBe(`jig: item ${item.id} ended: cancelled (exit 1)\n`);
    const again = await cli('view', 'events', done.id, '-f', '--type', 'work_item_completed');
    expect(again.code).toBe(0);
    expect(again.stdout.split('\t')[2]).toBe('work_item_completed');
  });
});

describe('view logs', () => {
  it('prints the latest session, its last lines with -n, and NDJSON with --json', async () => {
    expect(await cli('view', 'logs', done.id)).toMatchObject({ code: 0, stdout: 'one\ntwo\nthree\n' });
    expect(await cli('view', 'logs', done.id, '-n', '2')).toMatchObject({ code: 0, stdout: 'two\nthree\n' });
    const json = await cli('view', 'logs', done.id, '--json');
    expect(ndjson(json.stdout).map((l) => l.line)).toEqual(['one', 'two', 'three']);
    expect(ndjson(json.stdout)[0].task_path).toBe('work.main.talk');
  });

  it('-f reads the output as it is written and ends with the item', async () => {
    const item = await file('talk', true);
    await until(jig, item.id, (i) => i.status === 'running');
    const r = await cli('view', 'logs', item.id, '-f');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('one\ntwo\nthree\n');
  });

  it('-f follows each session as it starts, a header marking the switch; --json names the session', async () => {
    // Task a waits 4 s before it writes: the CLI must start (a node process, slow on a loaded
    // machine) while a is still the latest session, or -f rightly begins with b.
    const item = await file('two', true);
    const r = await cli('view', 'logs', item.id, '-f');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^from-a\n==> s\w+ work\.second\.b <==\nfrom-b\n$/);
    const json = ndjson((await cli('view', 'logs', item.id, '-f', '--json')).stdout);
    expect(json.map((l) => [l.task_path, l.line])).toEqual([['work.second.b', 'from-b']]);
  });
});

describe('view list', () => {
  it('scopes to the repo of the cwd, --all opts out, --repo names one; statuses take the shown names', async () => {
    const other = makeRepo({ 'README.md': '# other\n' });
    expect(
      (await api('POST', '/api/repos', { path: other, test_command: '', setup_command: '' })).status,
    ).toBe(201);
    const there = await file('talk', false, other);
    const here = await cliIn(repo, ['view', 'list', '--json']);
    const ids = (r: { stdout: string }) => JSON.parse(r.stdout).items.map((i: any) => i.id);
    expect(ids(here)).toContain(done.id);
    expect(ids(here)).not.toContain(there.id);
    const all = await cliIn(repo, ['view', 'list', '--all', '--json']);
    expect(ids(all)).toEqual(expect.arrayContaining([done.id, there.id]));
    expect(ids(await cliIn(repo, ['view', 'list', '--repo', other, '--json']))).toEqual([there.id]);
    expect(
      ids(await cliIn(repo, ['view', 'list', '--repo', 'repo', '--json', '--status', 'done'])),
    ).toContain(done.id);
    const paused = await cliIn(other, ['view', 'list', '--status', 'Paused']);
    expect(paused.stdout.split('\t').slice(0, 2)).toEqual([there.id, 'paused']);
    expect(ids(await cliIn(repo, ['view', 'list', '--status', 'needs-you', '--json']))).toEqual([]);
    const bad = await cli('view', 'list', '--status', 'nope');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '--status nope is not one of paused, blocked, queued, running, waiting, rate_limited, needs_you',
    );
    // An abandoned item is left out unless asked for, as the original's list has it.
    const gone = await file('talk', false, other);
    expect((await api('POST', `/api/work-items/${gone.id}/abandon`, { reason: 'not needed' })).status).toBe(
      200,
    );
    const listed = await cliIn(other, ['view', 'list', '--json']);
    expect(ids(listed)).toEqual([there.id]);
    expect(JSON.parse(listed.stdout).total).toBe(1);
    expect(ids(await cliIn(other, ['view', 'list', '--include-abandoned', '--json']))).toEqual([
      gone.id,
      there.id,
    ]);
    expect(ids(await cliIn(other, ['view', 'list', '--status', 'abandoned', '--json']))).toEqual([gone.id]);
    const unknown = await cli('view', 'list', '--repo', '/nowhere');
    expect(unknown).toMatchObject({
      code: 2,
      stderr: 'jig: --repo /nowhere is not a connected repository (jig repo list)\n',
    });
  });

  it('shows headers and colour on a terminal, no colour with NO_COLOR, plain rows in a pipe', async () => {
    const viaTty = (extra: string) =>
      new Promise<string>((res) => {
        const cmd = `${extra} ${process.execPath} ${jigBin} view list --all`;
        const p = spawn('script', ['-qec', cmd, '/dev/null'], {
          env: { ...process.env, JIG_HOME: jig.home },
        });
        let out = '';
        p.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
        p.on('exit', () => res(out));
      });
    const coloured = await viaTty('');
    expect(coloured).toMatch(/\u001b\[1mID\u001b\[22m +\u001b\[1mSTATUS/);
    expect(coloured).toContain('\u001b[36mdone\u001b[39m');
    const plain = await viaTty('NO_COLOR=1');
    expect(plain).toMatch(/^ID +STATUS +CHAIN +NODE +REPO +TITLE/m);
    expect(plain).not.toContain('\u001b[');
    const piped = await cli('view', 'list', '--all');
    expect(piped.stdout).not.toContain('STATUS');
  });
});

describe('view watch', () => {
  it('redraws the board on a terminal as items change; Ctrl-C quits with 0; a pipe is refused', async () => {
    const cmd = `${process.execPath} ${jigBin} view watch --all`;
    const p = spawn('script', ['-qec', cmd, '/dev/null'], { env: { ...process.env, JIG_HOME: jig.home } });
    let out = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const exited = new Promise<number | null>((res) => p.on('exit', res));
    const seen = (text: string) => eventually(() => out.includes(text), { what: `${text} on the board` });
    await seen(done.id);
    const fresh = await file('talk', false);
    await seen(fresh.id);
    p.stdin.write('\u0003');
    expect(await exited).toBe(0);
    const piped = await cli('view', 'watch');
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('view watch draws on a terminal');
  });
});

describe('view documents', () => {
  it('lists and reads the attachments; no pending gate is a failure, not an empty success', async () => {
    const item = await file('talk', false, repo, { attachments: { spec: { text: '# The spec\n' } } });
    const docs = await cli('view', 'docs', item.id);
    expect(docs).toMatchObject({ code: 0, stdout: 'spec\tattachment\t(filed text)\t11 bytes\t\n' });
    expect(JSON.parse((await cli('view', 'docs', item.id, '--json')).stdout)).toEqual({
      documents: [
        {
          id: `${item.id}.spec`,
          kind: 'spec',
          source: 'attachment',
          node: null,
          path: null,
          digest: item.attachments.spec.sha256,
          bytes: 11,
          gate: null,
          problem: null,
        },
      ],
    });
    expect(await cli('view', 'doc', item.id, 'spec')).toMatchObject({ code: 0, stdout: '# The spec\n' });
    const editor = join(tempHome('jig-doc-editor-'), 'ed');
    writeFileSync(editor, `#!/bin/sh\ncat "$1" > "$1.seen"\n`);
    chmodSync(editor, 0o755);
    const opened = await runJig(['view', 'doc', item.id, 'spec', '--open'], {
      ...env,
      JIG_EDITOR: '',
      VISUAL: editor,
    });
    expect(opened.code).toBe(0);
    expect(readFileSync(join(tmpdir(), `jig-${item.id}-spec.md.seen`), 'utf8')).toBe('# The spec\n');
    const bad = await cli('view', 'doc', item.id, 'nope');
    expect(bad.code).toBe(2);
    expect(await cli('view', 'artifact', item.id)).toMatchObject({
      code: 1,
      stderr: `jig: item ${item.id} has no pending gate with a document\n`,
    });
  });
});

describe('repo path and open', () => {
  it("prints an item's worktree, and infers the item from a cwd inside it", async () => {
    const prepared = (await events(jig, done.id)).find((e) => e.type === 'worktree_prepared');
    const wt = prepared.payload.path;
    expect(await cli('repo', 'path', done.id)).toEqual({ code: 0, stdout: `${wt}\n`, stderr: '' });
    expect(await cli('repo', 'cd', done.id)).toEqual({ code: 0, stdout: `${wt}\n`, stderr: '' });
    mkdirSync(join(wt, 'deep', 'er'), { recursive: true });
    expect(await cliIn(join(wt, 'deep', 'er'), ['repo', 'path'])).toMatchObject({
      code: 0,
      stdout: `${wt}\n`,
    });
    const shown = await cliIn(wt, ['view', 'show', '--json']);
    expect(JSON.parse(shown.stdout).id).toBe(done.id);
    expect(await cliIn(repo, ['repo', 'path'])).toMatchObject({ code: 2 });
    const notStarted = await file('talk', false);
    const none = await cli('repo', 'path', notStarted.id);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('has no worktree yet');
    const shell = await runJig(['repo', 'path', done.id, '--shell'], { ...env, SHELL: '/bin/sh' });
    expect(shell.code).toBe(0);
  });

  it('opens the worktree with the editor named, or JIG_EDITOR, or code (a fake one on PATH)', async () => {
    const bin = join(tempHome('jig-editors-'), 'bin');
    mkdirSync(bin);
    const calls = join(bin, 'calls.txt');
    for (const name of ['code', 'zed']) {
      writeFileSync(join(bin, name), `#!/bin/sh\necho "${name} $*" >> '${calls}'\n`);
      chmodSync(join(bin, name), 0o755);
    }
    const wt = (await events(jig, done.id)).find((e) => e.type === 'worktree_prepared').payload.path;
    const path = `${bin}:${process.env.PATH}`;
    // Only the fakes on PATH: an editor not there is a failure that says so (never a real editor).
    const missing = await runJig(['repo', 'open', done.id, '--editor', 'cursor'], { ...env, PATH: bin });
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toContain('cursor is not on PATH');
    const opened = await runJig(['repo', 'open', done.id], { ...env, PATH: path, JIG_EDITOR: '' });
    expect(opened).toEqual({ code: 0, stdout: `opened ${wt} in code\n`, stderr: '' });
    expect((await runJig(['repo', 'open', done.id, '--editor', 'zed'], { ...env, PATH: path })).code).toBe(0);
    expect(readFileSync(calls, 'utf8')).toBe(`code ${wt}\nzed ${wt}\n`);
    const bad = await runJig(['repo', 'open', done.id, '--editor', 'notepad'], { ...env, PATH: path });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Allowed choices are code, cursor, zed');
  });
});

describe('repo connect and list', () => {
  it('asks first: with no terminal and no -y it exits 2 and connects nothing', async () => {
    const r = makeRepo({ 'package.json': '{"scripts":{"test":"true"}}\n' });
    const asked = await cli('repo', 'connect', r);
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain('pass -y');
    const list = JSON.parse((await cli('repo', 'list', '--json')).stdout);
    expect(list.repos.map((x: any) => x.path)).not.toContain(r);
  });

  it('on a terminal it shows the proposal and asks; "n" connects nothing (exit 1), "y" connects', async () => {
    const r = makeRepo({ 'Cargo.toml': '[package]\nname="x"\n' });
    const onTty = (answer: string) =>
      new Promise<{ code: number | null; out: string }>((res) => {
        const cmd = `${process.execPath} ${jigBin} repo connect ${r}`;
        const p = spawn('script', ['-qec', cmd, '/dev/null'], {
          env: { ...process.env, JIG_HOME: jig.home },
        });
        let out = '';
        p.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          if (out.includes('Connect? [y/N]') && !p.stdin.writableEnded) p.stdin.end(`${answer}\n`);
        });
        p.on('exit', (code) => res({ code, out }));
      });
    const no = await onTty('n');
    expect(no.out).toContain(`connect ${r}`);
    expect(no.out).toMatch(/tests +cargo test \(/);
    expect(no.out).toContain('not connected');
    expect(no.code).toBe(1);
    const yes = await onTty('y');
    expect(yes.code).toBe(0);
    expect(yes.out).toContain(`connected ${r}: enabled; tests: cargo test; setup: cargo fetch`);
  });

  it('-y connects as detected; --verify rehearses the commands first and refuses a failing test', async () => {
    const r = makeRepo({ 'README.md': '# r\n' });
    const failing = await cli(
      'repo',
      'connect',
      r,
      '--verify',
      '-y',
      '--test-command',
      'test -f missing.txt',
    );
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain(
      'jig: verify failed: tests (test -f missing.txt) exited 1; not connected',
    );
    const ok = await cli('repo', 'connect', r, '--verify', '-y', '--test-command', 'test -f README.md');
    expect(ok).toMatchObject({
      code: 0,
      stdout: `connected ${r}: enabled; tests: test -f README.md; setup: nothing\n`,
    });
    expect(ok.stderr).toContain('jig: verify passed');
    // The rehearsal's worktree is gone again.
    expect(existsSync(join(r, '.git', 'worktrees'))).toBe(false);
    const json = await cli('repo', 'connect', r, '-y', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ path: r, enabled: true });
  });

  it('list shows connected repos; --all adds those Jig found by itself', async () => {
    const found = makeRepo({ 'README.md': '# found\n' });
    const yaml = join(jig.home, 'config', 'repos.yaml');
    writeFileSync(
      yaml,
      `${readFileSync(yaml, 'utf8').trimEnd()}\n  - path: ${found}\n    name: found\n    managed: false\n`,
    );
    const plain = await cli('repo', 'list');
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain(`repo\t${repo}\tenabled\tnone\t`);
    expect(plain.stdout).not.toContain(found);
    expect(plain.stdout).toContain('(1 found by Jig not shown; --all)');
    const all = await cli('repo', 'list', '--all');
    expect(all.stdout).toMatch(new RegExp(`^found\t${found}\t[a-z]+, found\tundecided\t0 open$`, 'm'));
    expect(JSON.parse((await cli('repo', 'list', '--all', '--json')).stdout).repos.length).toBeGreaterThan(
      JSON.parse((await cli('repo', 'list', '--json')).stdout).repos.length,
    );
  });

  it('connect --chain refuses a chain that does not exist, naming those that do; PATCH too', async () => {
    const r = makeRepo({ 'README.md': '# r\n' });
    const yaml = join(jig.home, 'config', 'repos.yaml');
    const before = readFileSync(yaml, 'utf8');
    const bad = await cli('repo', 'connect', r, '-y', '--chain', 'defualt');
    expect(bad).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'jig: chain defualt names no chain in the library (chains: default, manual, merge-request, quick-task, slow, talk, two); did you mean `default`? (HTTP 422, chain_unknown)\n',
    });
    expect(readFileSync(yaml, 'utf8')).toBe(before);
    const patched = await api('PATCH', `/api/repos?path=${encodeURIComponent(repo)}`, {
      default_chain: 'nosuch',
    });
    expect(patched.status).toBe(422);
    expect(patched.json).toEqual({
      code: 'chain_unknown',
      detail:
        'chain nosuch names no chain in the library (chains: default, manual, merge-request, quick-task, slow, talk, two)',
      chains: ['default', 'manual', 'merge-request', 'quick-task', 'slow', 'talk', 'two'],
    });
    expect(readFileSync(yaml, 'utf8')).toBe(before);
  });

  it("repo list proposes the checkout it runs in when that is not connected, never the server's", async () => {
    const loose = makeRepo({ 'README.md': '# loose\n' });
    const there = await cliIn(loose, ['repo', 'list']);
    expect(there.code).toBe(0);
    expect(there.stdout).toContain(`not connected: ${loose} (jig repo connect)\n`);
    // In a connected checkout, or outside any, nothing is proposed (the server runs in Jig's clone).
    for (const cwd of [repo, tmpdir()]) {
      const r = await cliIn(cwd, ['repo', 'list']);
      expect(r.code).toBe(0);
      expect(r.stdout).not.toContain('not connected');
    }
  });
});
