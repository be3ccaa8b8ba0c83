import {
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSetup } from './helpers/agents.js';
import { oneCommand } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { git } from './helpers/git.js';
import { cleanupAll, tempHome, type JigProcess } from './helpers/server.js';

// Issue 14, findings 1 and 7, for the files a task can replace: its result file, its log, and the
// `.jig/docs` folder Jig prepares in the worktree. A task runs with the user's rights, so it can put
// a FIFO, a link to /dev/zero or a link out where Jig expects its own file. Before the fix a FIFO
// result file (or log) blocked the whole server and a committed `.jig` link made Jig write outside.

let jig: JigProcess;
let repo: string;
let outside: string;

const subprocess = oneCommand;

// The log is the task's stdout: the shell finds its path there, as any task could.
const LOG = 'log=$(readlink /proc/$$/fd/1) && rm "$log"';

const produces = `
nodes:
  - id: write
    kind: exec
    tasks:
      - id: doc
        kind: agent
        harness: claude
        produces: spec
        prompt: Write the spec.
`;

/** One request, bounded: a server blocked on a FIFO never answers, and that must fail the test. */
async function get(path: string): Promise<{ status: number; text: string; json: any }> {
  const res = await fetch(`${jig.url}${path}`, { signal: AbortSignal.timeout(20_000) });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, text, json };
}

async function file(chain: string): Promise<any> {
  const res = await fetch(`${jig.url}/api/work-items`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: `Run ${chain}`, repo, chain, start: true }),
    signal: AbortSignal.timeout(20_000),
  });
  expect(res.status).toBe(201);
  return res.json();
}

/** Polls until the item is no longer running (bounded by count). */
const ended = (id: string): Promise<any> =>
  eventually(
    async () => {
      const item = (await get(`/api/work-items/${id}`)).json;
      if (item.status === 'running' || item.status === 'queued')
        throw new Error(`the item is ${item.status}`);
      return item;
    },
    { what: `item ${id} to end` },
  );

async function onlySession(id: string): Promise<any> {
  const r = await get(`/api/work-items/${id}/sessions`);
  expect(r.status).toBe(200);
  expect(r.json.sessions).toHaveLength(1);
  return r.json.sessions[0];
}

async function worktreeOf(id: string): Promise<string> {
  const ev = (await get(`/api/work-items/${id}/events?limit=1000`)).json.events;
  return realpathSync(ev.find((e: any) => e.type === 'worktree_prepared').payload.path);
}

beforeAll(async () => {
  outside = realpathSync(tempHome('jig-outside-'));
  writeFileSync(join(outside, 'secret.log'), 'SECRET outside the logs folder\n');
  ({ jig, repo } = await agentSetup(
    {
      fiforesult: subprocess('mkfifo "$JIG_RESULT_PATH"'),
      zeroresult: subprocess('ln -s /dev/zero "$JIG_RESULT_PATH"'),
      fifolog: subprocess(`${LOG} && mkfifo "$log"; exit 1`),
      linklog: subprocess(`${LOG} && ln -s ${outside}/secret.log "$log"`),
      doc: produces,
    },
    { env: { FAKE_AGENT_MODE: 'done', FAKE_AGENT_ARTIFACT: '# Spec\n' } },
  ));
});
afterAll(cleanupAll);

describe('the result file a task replaced', () => {
  it('a FIFO or a link to /dev/zero fails the session with a note, and the server keeps answering', async () => {
    const cases: [string, string][] = [
      ['fiforesult', 'result file is a FIFO, not a regular file'],
      ['zeroresult', 'result file leads outside the results folder (to /dev/zero)'],
    ];
    for (const [chain, note] of cases) {
      const item = await file(chain);
      const done = await ended(item.id);
      const s = await onlySession(item.id);
      expect(s, chain).toMatchObject({ status: 'failed', exit_code: 0, result: null, note });
      expect(done, chain).toMatchObject({
        status: 'stopped',
        stop: { kind: 'failed', reason: `only.main.t ended failed (session ${s.id}; jig view logs)` },
      });
      expect((await get('/api/health')).status, chain).toBe(200);
    }
  });
});

describe('the log a task replaced', () => {
  it('a FIFO: the failed task is measured with an empty tail, and its log is a 404 that says why', async () => {
    const item = await file('fifolog');
    const done = await ended(item.id);
    expect(done.status).toBe('stopped');
    expect(done.stop.kind).toBe('failed');
    const s = await onlySession(item.id);
    expect(s).toMatchObject({ status: 'failed', exit_code: 1, log_bytes: 0 });
    const log = await get(`/api/work-items/${item.id}/sessions/${s.id}/log`);
    expect(log.status).toBe(404);
    expect(log.json).toEqual({
      detail: `the log of session ${s.id} (${s.id}.log is a FIFO, not a regular file) not found`,
      code: 'not_found',
    });
    expect((await get('/api/health')).status).toBe(200);
  });

  it('a link out of the logs folder is never read through', async () => {
    const item = await file('linklog');
    expect((await ended(item.id)).status).toBe('completed');
    const s = await onlySession(item.id);
    expect(s.log_bytes).toBe(0);
    for (const q of ['', '?tail=100', '?offset=0']) {
      const log = await get(`/api/work-items/${item.id}/sessions/${s.id}/log${q}`);
      expect(log.status, q).toBe(404);
      expect(log.json, q).toEqual({
        detail: `the log of session ${s.id} (${s.id}.log is a symbolic link, which Jig does not follow there) not found`,
        code: 'not_found',
      });
    }
  });
});

describe('.jig/docs in a worktree whose repository committed links there', () => {
  const commit = (message: string) => {
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', message);
  };

  it('a `.jig` or `.jig/docs` link out of the worktree stops the item with a config stop, and nothing is made outside', async () => {
    const target = join(outside, 'jig-target');
    mkdirSync(target);
    symlinkSync(target, join(repo, '.jig'));
    commit('.jig leads outside');
    const first = await file('doc');
    const stopped = await ended(first.id);
    const wt = await worktreeOf(first.id);
    expect(stopped).toMatchObject({
      status: 'stopped',
      stop: {
        kind: 'config',
        reason:
          `write.main.doc: cannot prepare .jig/.gitignore in the worktree for the spec document: ` +
          `${join(wt, '.jig')} is a symbolic link leading outside (to ${target}); Jig writes only inside the worktree`,
      },
    });
    expect(readdirSync(target)).toEqual([]);
    expect((await get(`/api/work-items/${first.id}/sessions`)).json.sessions).toEqual([]);

    rmSync(join(repo, '.jig'));
    mkdirSync(join(repo, '.jig'));
    symlinkSync(target, join(repo, '.jig', 'docs'));
    commit('.jig/docs leads outside');
    const second = await file('doc');
    const stopped2 = await ended(second.id);
    const wt2 = await worktreeOf(second.id);
    expect(stopped2).toMatchObject({
      status: 'stopped',
      stop: {
        kind: 'config',
        reason:
          `write.main.doc: cannot prepare .jig/docs in the worktree for the spec document: ` +
          `${join(wt2, '.jig', 'docs')} is a symbolic link leading outside (to ${target}); Jig writes only inside the worktree`,
      },
    });
    expect(readdirSync(target)).toEqual([]);
  });

  it('a committed regular `.jig/.gitignore` is kept, and the document is written beside it', async () => {
    rmSync(join(repo, '.jig'), { recursive: true, force: true });
    mkdirSync(join(repo, '.jig'));
    writeFileSync(join(repo, '.jig', '.gitignore'), 'docs/\n');
    commit('.jig/.gitignore of our own');
    const item = await file('doc');
    expect((await ended(item.id)).status).toBe('completed');
    const wt = await worktreeOf(item.id);
    expect(readFileSync(join(wt, '.jig', '.gitignore'), 'utf8')).toBe('docs/\n');
    expect(readFileSync(join(wt, '.jig', 'docs', 'spec.md'), 'utf8')).toBe('# Spec\n');
  });
});
