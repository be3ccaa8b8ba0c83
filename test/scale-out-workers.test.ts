import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { events, isAlive, until } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { makeRepo } from './helpers/git.js';
import { usePostgres } from './helpers/postgres.js';
import { cleanupAll, http, runJig, startJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * Scale-out (issue 27): one `jig serve --no-work` and two `jig serve --worker` processes, each in a
 * home of its own (as on three machines), sharing one PostgreSQL database. The tasks append to a
 * file outside every worktree, so a node run twice shows as two lines.
 */

const postgres = usePostgres();

/** Task processes a failed test could leave behind (the killed worker's). */
const orphans: number[] = [];

afterAll(async () => {
  for (const pid of orphans) if (isAlive(pid)) process.kill(-pid, 'SIGKILL');
  await cleanupAll();
});

/** A task of node `node` that appends "<item> <node>" to `log` and takes a moment. */
const step = (node: string, log: string): string => `
  - id: ${node}
    kind: exec
    tasks:
      - id: t
        kind: subprocess
        run: 'echo "$JIG_WORK_ITEM_ID ${node}" >> ${log}; sleep 0.2'`;

/** A server home with `chains` and a repo connected; answers the server (no work) and the repo. */
async function serverWith(
  env: Record<string, string>,
  chains: Record<string, string>,
  policy: string,
): Promise<{ jig: JigProcess; repo: string }> {
  const home = tempHome();
  mkdirSync(join(home, 'config', 'chains'), { recursive: true });
  for (const [id, text] of Object.entries(chains))
    writeFileSync(join(home, 'config', 'chains', `${id}.yaml`), text);
  writeFileSync(join(home, 'config', 'policy.yaml'), policy);
  const jig = await startJig({ home, env, args: ['--port', '0', '--no-work'] });
  const repo = makeRepo({ 'README.md': '# r\n' });
  const r = await http(`${jig.url}/api/repos`, {
    method: 'POST',
    body: { path: repo, test_command: '', setup_command: '' },
  });
  expect(r.status, r.text).toBe(201);
  return { jig, repo };
}

/**
 * A worker in a home of its own: its repos.yaml is the server's, with the repo at `at` on this
 * "machine" (mapped from the server's path with --repo-map when it differs).
 */
async function worker(
  env: Record<string, string>,
  serverHome: string,
  repo: string,
  name: string,
  opts: { home?: string; at?: string } = {},
): Promise<JigProcess> {
  const home = opts.home ?? tempHome();
  if (!opts.home) {
    mkdirSync(join(home, 'config'), { recursive: true });
    const repos = readFileSync(join(serverHome, 'config', 'repos.yaml'), 'utf8');
    writeFileSync(join(home, 'config', 'repos.yaml'), opts.at ? repos.split(repo).join(opts.at) : repos);
  }
  const map = opts.at ? ['--repo-map', `${repo}=${opts.at}`] : [];
  return startJig({ home, env, args: ['--worker', '--name', name, ...map] });
}

async function file(jig: JigProcess, repo: string, chain: string, title: string): Promise<string> {
  const r = await http(`${jig.url}/api/work-items`, {
    method: 'POST',
    body: { title, repo, chain, start: true },
  });
  expect(r.status, r.text).toBe(201);
  return r.json.id as string;
}

/** Every seq in the database, in order: gap-free from 1 when no event was lost or written twice. */
async function allSeqs(url: string): Promise<number[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<{ seq: string }>('SELECT seq FROM events ORDER BY seq')).rows.map((r) =>
      Number(r.seq),
    );
  } finally {
    await c.end();
  }
}

describe('one server and two workers on PostgreSQL', () => {
  it('run 20 items of a three-node chain: each node once, both workers take work, the event log whole', async (ctx) => {
    const server = postgres.server();
    if (!server) return ctx.skip(postgres.skip());
    const url = await server.createDatabase(`jig_workers_${process.pid}`);
    const env = { JIG_DATABASE_URL: url };
    const runs = join(tempHome(), 'runs.log');
    const three = `nodes:${step('one', runs)}${step('two', runs)}${step('three', runs)}\n`;
    const { jig, repo } = await serverWith(env, { three }, 'max_concurrent: 6\n');
    // The second worker has the repo checked out elsewhere: its path is mapped.
    const clone = join(tempHome('jig-clone-'), 'repo');
    execFileSync('git', ['clone', '-q', repo, clone]);
    const w1 = await worker(env, jig.home, repo, 'w1');
    const w2 = await worker(env, jig.home, repo, 'w2', { at: clone });
    // The board's live stream on the server, which walks nothing: every event reaches it through
    // PostgreSQL's NOTIFY from the workers that wrote it.
    const ws = new WebSocket(`${jig.url.replace('http', 'ws')}/api/ws/events`);
    const streamed: number[] = [];
    const hello = new Promise<number>((res) =>
      ws.on('message', (data: WebSocket.RawData) => {
        const msg = JSON.parse(data.toString());
        if (msg.type === 'hello') res(msg.after_seq);
        if (msg.type === 'event') streamed.push(msg.event.seq);
      }),
    );
    const from = await hello;
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await file(jig, repo, 'three', `Item ${i}`));
    // An item that stops ends the wait at once: it answers that item.
    const outcome = await eventually(
      async () => {
        const items = await Promise.all(
          ids.map(async (id) => (await http(`${jig.url}/api/work-items/${id}`)).json),
        );
        const bad = items.find((i) => i.status === 'stopped' || i.status === 'failed');
        return bad ?? (items.every((i) => i.status === 'completed') && 'every item completed');
      },
      { what: 'every item to complete', tries: 480, everyMs: 250 },
    );
    expect(outcome).toBe('every item completed');
    // Each node of each item ran exactly once.
    const lines = readFileSync(runs, 'utf8').trim().split('\n').sort();
    const want = ids.flatMap((id) => ['one', 'two', 'three'].map((n) => `${id} ${n}`)).sort();
    expect(lines).toEqual(want);
    const byWorker = new Map<string, number>();
    for (const id of ids) {
      const sessions = (await http(`${jig.url}/api/work-items/${id}/sessions`)).json.sessions;
      expect(sessions.map((s: any) => [s.node, s.status])).toEqual([
        ['one', 'done'],
        ['two', 'done'],
        ['three', 'done'],
      ]);
      for (const s of sessions) byWorker.set(s.worker, (byWorker.get(s.worker) ?? 0) + 1);
      const ev = await events(jig, id);
      const started = ev.filter((e) => e.type === 'worker_session_started');
      expect(started.map((e) => e.payload.worker)).toEqual(sessions.map((s: any) => s.worker));
      expect(ev.at(-1).type).toBe('work_item_completed');
    }
    expect([...byWorker.keys()].sort()).toEqual(['w1', 'w2']);
    expect(byWorker.get('w1')! + byWorker.get('w2')!).toBe(60);
    // The mapped worker cut its worktrees from its own clone.
    const w2Trees = ids.filter((id) => existsSync(join(w2.home, 'run', 'worktrees', id)));
    expect(w2Trees.length).toBeGreaterThan(0);
    const seqs = await allSeqs(url);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    const last = seqs.at(-1)!;
    await eventually(() => streamed.at(-1) === last, {
      what: 'the stream to catch up',
    });
    ws.close();
    expect(streamed).toEqual(Array.from({ length: last - from }, (_, i) => from + 1 + i));
    const health = (await http(`${jig.url}/api/health`)).json;
    expect(health.store).toBe('postgres');
    expect(
      health.workers.map((w: any) => [w.name, w.role, w.takes_work, w.alive, w.self, w.leads]).sort(),
    ).toEqual(
      [
        [health.worker, 'serve', false, true, true, true],
        ['w1', 'worker', true, true, false, false],
        ['w2', 'worker', true, true, false, false],
      ].sort(),
    );
    const doctor = await runJig(['admin', 'doctor', '--json'], {
      JIG_HOME: jig.home,
      JIG_URL: '',
      JIG_TOKEN: '',
    });
    const rows = JSON.parse(doctor.stdout) as { check: string; status: string; detail: string }[];
    expect(rows.filter((r) => r.check === 'database' || r.check === 'workers')).toEqual([
      {
        check: 'database',
        status: 'pass',
        detail: expect.stringMatching(/^PostgreSQL, shared by 3 live processes: /),
        fix: null,
      },
    ]);
    expect(rows.find((r) => r.check === 'database')!.detail).toContain('w1 (worker), w2 (worker)');
    expect(w1.stdout()).toMatch(
      /^jig worker w1 claiming work \(pid \d+, home .*, tasks' API on http:\/\/127\.0\.0\.1:\d+\)/,
    );

    // A request about an item's files is answered by the worker that has them (server/forward.ts).
    for (const one of [ids[0]!, ids[19]!]) {
      const ses = (await http(`${jig.url}/api/work-items/${one}/sessions`)).json.sessions as {
        id: string;
        worker: string;
      }[];
      const s0 = ses[0]!;
      const holder = s0.worker === 'w1' ? w1 : w2;
      const viaServer = await http(`${jig.url}/api/work-items/${one}/sessions/${s0.id}/log`);
      expect(viaServer.status, viaServer.text).toBe(200);
      expect(viaServer.headers.get('x-jig-answered-by')).toBe(s0.worker);
      const direct = await http(`${holder.url}/api/work-items/${one}/sessions/${s0.id}/log`);
      expect(viaServer.text).toBe(direct.text);
      const diff = await http(`${jig.url}/api/work-items/${one}/diff`);
      expect(diff.status, diff.text).toBe(200);
      expect(diff.headers.get('x-jig-answered-by')).toBe(s0.worker);
      expect(diff.json).toEqual((await http(`${holder.url}/api/work-items/${one}/diff`)).json);
      // What no machine's files change is answered where it arrives.
      const list = await http(`${jig.url}/api/work-items/${one}/sessions`);
      expect(list.headers.get('x-jig-answered-by')).toBeNull();
    }
  }, 240_000);

  it('a worker killed with -9 mid-task: the other finishes its item after its silence; the first, back, ends its task', async (ctx) => {
    const server = postgres.server();
    if (!server) return ctx.skip(postgres.skip());
    const url = await server.createDatabase(`jig_kill_${process.pid}`);
    // Every process judges silence alike: 10 s instead of the default 60 s, set as an operator would.
    const env = { JIG_DATABASE_URL: url, JIG_WORKER_SILENCE: '10' };
    const dir = tempHome();
    const runs = join(dir, 'runs.log');
    // The first run marks the node and then hangs; a run that finds the mark finishes at once.
    const mark = join(dir, 'mark');
    const hang = `nodes:
  - id: one
    kind: exec
    tasks:
      - id: t
        kind: subprocess
        run: 'echo "$JIG_WORK_ITEM_ID one" >> ${runs}; if [ -f ${mark} ]; then exit 0; fi; touch ${mark}; sleep 600'
${step('two', runs)}
`;
    const { jig, repo } = await serverWith(env, { hang }, 'max_concurrent: 2\n');
    const w1 = await worker(env, jig.home, repo, 'w1');
    const id = await file(jig, repo, 'hang', 'Killed mid-task');
    const first = await eventually(
      async () => (await events(jig, id)).find((e) => e.type === 'worker_session_started'),
      { what: 'w1 to start the task', tries: 120, everyMs: 250 },
    );
    expect(first.payload.worker).toBe('w1');
    orphans.push(first.payload.pid);
    await eventually(() => existsSync(mark), { what: 'the mark', tries: 120, everyMs: 250 });
    const w2 = await worker(env, jig.home, repo, 'w2');
    await w1.stop('SIGKILL');
    // The task outlives its worker, as tasks outlive a server.
    expect(isAlive(first.payload.pid)).toBe(true);
    // Bounded by tries, not timed: the claim lapses after 10 s of silence and w2 takes the item over.
    await until(jig, id, (i) => i.status === 'completed', 900);
    const ev = await events(jig, id);
    const reclaimed = ev.filter((e) => e.type === 'work_item_reclaimed');
    expect(reclaimed.map((e) => e.payload)).toEqual([
      { worker: 'w2', from: 'w1', generation: 2, sessions: [first.payload.session] },
    ]);
    const sessions = (await http(`${jig.url}/api/work-items/${id}/sessions`)).json.sessions;
    expect(sessions.map((s: any) => [s.node, s.status, s.worker])).toEqual([
      ['one', 'paused', 'w1'],
      ['one', 'done', 'w2'],
      ['two', 'done', 'w2'],
    ]);
    expect(sessions[0].note).toBe('worker w1 went silent; w2 took the item over');
    // The first worker's task still runs on its "machine" until that worker comes back; the doctor
    // says who went silent.
    expect(isAlive(first.payload.pid)).toBe(true);
    const doctor = await runJig(['admin', 'doctor', '--json'], {
      JIG_HOME: jig.home,
      JIG_URL: '',
      JIG_TOKEN: '',
    });
    const silent = (JSON.parse(doctor.stdout) as { check: string }[]).filter((r) => r.check === 'workers');
    expect(silent).toEqual([
      {
        check: 'workers',
        status: 'warn',
        detail: expect.stringMatching(
          /^w1 on .* last heard from at .*: its items are taken over by the others$/,
        ),
        fix: 'start it again with --name w1 to end its old sessions there',
      },
    ]);
    // w1 is gone: its session's log is read here (this test's "machines" share a disk).
    const oldLog = `${jig.url}/api/work-items/${id}/sessions/${first.payload.session}/log`;
    const unforwarded = await http(oldLog);
    expect(unforwarded.status, unforwarded.text).toBe(200);
    expect(unforwarded.headers.get('x-jig-answered-by')).toBeNull();
    const back = await worker(env, jig.home, repo, 'w1', { home: w1.home });
    await eventually(() => !isAlive(first.payload.pid), {
      what: 'the old task to end',
      tries: 120,
      everyMs: 250,
    });
    const fenced = (await events(jig, id)).filter((e) => e.type === 'session_fenced');
    expect(fenced.map((e) => e.payload)).toEqual([
      { session: first.payload.session, pid: first.payload.pid, worker: 'w1' },
    ]);
    // The log is on stderr, a pipe of its own: it can arrive after the event the API shows.
    await eventually(() => back.stderr().includes('ending a session another worker took over'), {
      what: "the fenced worker's log line",
    });
    // Back, w1 answers for its own session again; the item's files are w2's.
    expect((await http(oldLog)).headers.get('x-jig-answered-by')).toBe('w1');
    expect((await http(`${jig.url}/api/work-items/${id}/diff`)).headers.get('x-jig-answered-by')).toBe('w2');
    const lines = readFileSync(runs, 'utf8').trim().split('\n');
    expect(lines).toEqual([`${id} one`, `${id} one`, `${id} two`]);
    const seqs = await allSeqs(url);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    await w2.stop();
  }, 240_000);
});
