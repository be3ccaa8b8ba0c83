import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import pgClient from 'pg';
import { stringify } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/runtime/clock.js';
import { startServer, type RunningServer } from './helpers/built.js';
import { openStore } from '../src/store/database.js';
import { markFirings } from '../src/store/schedule-firings.js';
import { harnessesYaml } from './helpers/agents.js';
import { isAlive, until } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { GATED_CHAIN } from './helpers/gated-chain.js';
import { makeRepo } from './helpers/git.js';
import { listenLoopback } from './helpers/mock-http.js';
import { send } from './helpers/perimeter.js';
import { usePostgres } from './helpers/postgres.js';
import { leaders, scaleOutHome, scheduleFilings } from './helpers/scale-out.js';
import { cleanupAll, http, runJig, startJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * More than one `jig serve` on one PostgreSQL database (issue 27): one leads (store/leader.ts) and
 * runs the schedules, notifications and the rest; the others serve the API and walk items. When
 * the leader stops or dies another takes the lead, and a schedule minute is filed once whoever
 * ticks it.
 */

const pg = usePostgres();

const servers: RunningServer[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const c of closers.splice(0)) await c();
});
afterAll(async () => {
  await cleanupAll();
});

let repo: string;
beforeAll(() => {
  repo = makeRepo({ 'README.md': '# app\n' });
});

/** An in-process serve on `url` named `name`, in a home with the repo and `files` in config/. */
async function inProcess(
  url: string,
  name: string,
  files: Record<string, string> = {},
  clock?: ManualClock,
): Promise<RunningServer> {
  const home = scaleOutHome(repo, files);
  const s = await startServer({
    port: 0,
    host: '127.0.0.1',
    env: { JIG_HOME: home, JIG_DATABASE_URL: url },
    name,
    ...(clock ? { clock } : {}),
  });
  servers.push(s);
  return s;
}

describe('schedule firings on a shared store', () => {
  it('a minute marked by one process is not marked again by another, whichever comes first', async (ctx) => {
    const server = pg.server();
    if (!server) return ctx.skip(pg.skip());
    const url = await server.createDatabase(`jig_firings_${process.pid}`);
    const a = await openStore(url);
    const b = await openStore(url);
    try {
      const keys = Array.from({ length: 50 }, (_, i) => `entry-${i}`);
      const [ma, mb] = await Promise.all([markFirings(a.db, keys, 1000), markFirings(b.db, keys, 1000)]);
      // Each key went to exactly one of the two.
      expect([...ma, ...mb].sort()).toEqual([...keys].sort());
      expect(ma.length === 0 || mb.length === 0).toBe(true);
      expect(await markFirings(b.db, keys, 1000)).toEqual([]);
      expect(await markFirings(a.db, keys.slice(0, 2), 999)).toEqual([]);
      expect(await markFirings(a.db, keys.slice(0, 2), 1001)).toEqual(keys.slice(0, 2));
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('two jig serve on one PostgreSQL database', () => {
  /** An in-process serve whose schedules read `clock`, in a home with one schedule a minute. */
  async function serve(url: string, name: string, clock: ManualClock): Promise<RunningServer> {
    const schedules = [{ cron: '* * * * *', repo, chain: 'quick-task', title: 'Every minute' }];
    return inProcess(url, name, { 'intake.yaml': stringify({ schedules }) }, clock);
  }

  async function scheduled(s: RunningServer): Promise<string[]> {
    return (await scheduleFilings(s.inst.store.db)).map(([, minute]) => minute);
  }

  it('one leads and files each minute once; when it stops the other leads, without filing that minute again', async (ctx) => {
    const server = pg.server();
    if (!server) return ctx.skip(pg.skip());
    const url = await server.createDatabase(`jig_leader_${process.pid}`);
    const start = Date.parse('2030-01-07T08:59:30Z');
    const ca = new ManualClock(start);
    const cb = new ManualClock(start);
    const a = await serve(url, 'serve-a', ca);
    const b = await serve(url, 'serve-b', cb);
    expect(await leaders(a.url)).toEqual(['serve-a']);
    expect(await leaders(b.url)).toEqual(['serve-a']);

    // Both clocks pass 09:00: only the leader's schedules tick (at its start, for 08:59, then 09:00).
    await ca.advanceTo(Date.parse('2030-01-07T09:00:00Z'));
    await cb.advanceTo(Date.parse('2030-01-07T09:00:00Z'));
    const both = ['2030-01-07T08:59:00.000Z', '2030-01-07T09:00:00.000Z'];
    expect(await scheduled(a)).toEqual(both);

    // The leader stops within the minute; the other takes the lead and checks the minute at once,
    // which the store says was filed.
    await a.close();
    servers.splice(servers.indexOf(a), 1);
    await eventually(async () => (await leaders(b.url)).includes('serve-b'), {
      what: 'serve-b to lead',
    });
    await cb.advance(0);
    expect(await scheduled(b)).toEqual(both);
    await cb.advanceTo(Date.parse('2030-01-07T09:01:00Z'));
    expect(await scheduled(b)).toEqual([...both, '2030-01-07T09:01:00.000Z']);

    // serve-a back: it follows. (Its clock reads liveness too: one that heard every heartbeat.)
    const a2 = await serve(url, 'serve-a', new ManualClock(start));
    expect(await leaders(a2.url)).toEqual(['serve-b']);
  });
});

interface Hook {
  url: string;
  got: string[];
  close(): Promise<void>;
}

async function startHook(): Promise<Hook> {
  const h: Hook = { url: '', got: [], close: () => new Promise((r) => srv.close(() => r())) };
  const srv: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      h.got.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200).end('ok');
    });
  });
  h.url = `${await listenLoopback(srv)}/hook`;
  return h;
}

describe('the leader killed with -9', () => {
  /** A real `jig serve` process with the gated chain and notifications to `hook`. */
  async function serveProcess(url: string, hook: Hook, name: string, home = tempHome()): Promise<JigProcess> {
    mkdirSync(join(home, 'config', 'chains'), { recursive: true });
    writeFileSync(join(home, 'config', 'chains', 'gated.yaml'), GATED_CHAIN);
    writeFileSync(
      join(home, 'config', 'repos.yaml'),
      stringify({ repos: [{ path: repo, test_command: '', setup_command: '', default_chain: 'gated' }] }),
    );
    writeFileSync(join(home, 'config', 'harnesses.yaml'), harnessesYaml());
    writeFileSync(
      join(home, 'config', 'notify.yaml'),
      stringify({ enabled: true, url: hook.url, events: ['gate_requested', 'work_item_cancelled'] }),
    );
    return startJig({ home, env: { JIG_DATABASE_URL: url }, args: ['--port', '0', '--name', name] });
  }

  /** What the hook got, in order: [item, event type] of each message. */
  const messages = (hook: Hook): [string, string][] =>
    hook.got.map((b) => {
      const m = JSON.parse(b) as { work_item_id: string; type: string };
      return [m.work_item_id, m.type];
    });

  const gateMessages = (hook: Hook, id: string): number =>
    messages(hook).filter(([item, type]) => item === id && type === 'gate_requested').length;

  /**
   * A marker: an item filed on `via` and cancelled at once, whose message the leader sends after
   * every message of the events before it (each serve hears the events in seq order). Answers its id
   * once the hook has it.
   */
  async function marker(via: JigProcess, hook: Hook): Promise<string> {
    const filed = await http(`${via.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'Marker', repo, start: false },
    });
    expect(filed.status, filed.text).toBe(201);
    const id = filed.json.id as string;
    const cancelled = await http(`${via.url}/api/work-items/${id}/cancel`, {
      method: 'POST',
      body: { reason: 'a marker' },
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    await eventually(
      () => messages(hook).some(([item, type]) => item === id && type === 'work_item_cancelled'),
      { what: `the marker ${id}'s message` },
    );
    return id;
  }

  it('notifies once per gate from whichever leads, and the survivor takes the lead', async (ctx) => {
    const server = pg.server();
    if (!server) return ctx.skip(pg.skip());
    const url = await server.createDatabase(`jig_leader_kill_${process.pid}`);
    const hook = await startHook();
    closers.push(() => hook.close());
    const a = await serveProcess(url, hook, 'serve-a');
    const b = await serveProcess(url, hook, 'serve-b');
    expect(await leaders(b.url)).toEqual(['serve-a']);

    // Filed on the follower: whoever walks it, the leader alone tells the hook.
    const one = await http(`${b.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'One', repo, start: true },
    });
    expect(one.status, one.text).toBe(201);
    await until(b, one.json.id, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
    await eventually(() => gateMessages(hook, one.json.id) >= 1, { what: 'the gate message' });
    // A second serve's message (each is sent at once) would have come before the marker's.
    const first = await marker(b, hook);
    expect(messages(hook)).toEqual([
      [one.json.id, 'gate_requested'],
      [first, 'work_item_cancelled'],
    ]);

    process.kill(a.pid, 'SIGKILL');
    await eventually(() => !isAlive(a.pid), { what: 'serve-a to end' });
    await eventually(async () => (await leaders(b.url)).includes('serve-b'), {
      what: 'serve-b to lead',
    });

    const two = await http(`${b.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'Two', repo, start: true },
    });
    expect(two.status, two.text).toBe(201);
    await until(b, two.json.id, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
    await eventually(() => gateMessages(hook, two.json.id) >= 1, {
      what: 'the second gate message',
    });

    // serve-a started again in its home follows; the doctor names the leader.
    const a2 = await serveProcess(url, hook, 'serve-a', a.home);
    const second = await marker(a2, hook);
    expect(messages(hook)).toEqual([
      [one.json.id, 'gate_requested'],
      [first, 'work_item_cancelled'],
      [two.json.id, 'gate_requested'],
      [second, 'work_item_cancelled'],
    ]);
    expect(await leaders(a2.url)).toEqual(['serve-b']);
    const doctor = await runJig(['admin', 'doctor', '--json'], {
      JIG_HOME: a2.home,
      JIG_URL: '',
      JIG_TOKEN: '',
    });
    const rows = JSON.parse(doctor.stdout) as { check: string; status: string; detail: string }[];
    expect(rows.filter((r) => r.check === 'leader')).toEqual([]);
    expect(rows.find((r) => r.check === 'database')!.detail).toContain('serve-b (serve, leads)');
  });
});

describe('the bearer a process advertises to the others', () => {
  const PROBE = '/api/perimeter-probe';

  async function advertised(url: string, name: string): Promise<{ url: string; token: string }> {
    const c = new pgClient.Client({ connectionString: url });
    await c.connect();
    try {
      const row = (
        await c.query<{ url: string; peer_token: string }>(
          'SELECT url, peer_token FROM workers WHERE name = $1',
          [name],
        )
      ).rows[0]!;
      return { url: row.url, token: row.peer_token };
    } finally {
      await c.end();
    }
  }

  it('opens the API while the process runs, and no longer once it starts again', async (ctx) => {
    const server = pg.server();
    if (!server) return ctx.skip(pg.skip());
    const url = await server.createDatabase(`jig_peer_${process.pid}`);
    const home = tempHome();
    const args = [
      '--host',
      '0.0.0.0',
      '--port',
      '0',
      '--name',
      'p1',
      '--advertise',
      'http://build-b.example:8766/x',
    ];
    const first = await startJig({ home, env: { JIG_DATABASE_URL: url }, args });
    const port = Number(new URL(first.url).port);
    const one = await advertised(url, 'p1');
    expect(one.url).toBe('http://build-b.example:8766');
    expect(one.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const get = (token: string) =>
      send({ port }, { path: PROBE, headers: { authorization: `Bearer ${token}` } });
    expect((await get(one.token)).status).toBe(404);
    expect((await get(`${one.token}x`)).status).toBe(401);
    await first.stop();

    const again = await startJig({ home, env: { JIG_DATABASE_URL: url }, args });
    const two = await advertised(url, 'p1');
    expect(two.token).not.toBe(one.token);
    const port2 = Number(new URL(again.url).port);
    const get2 = (token: string) =>
      send({ port: port2 }, { path: PROBE, headers: { authorization: `Bearer ${token}` } });
    expect((await get2(one.token)).json).toEqual({
      detail: 'the bearer token is not valid (it may have been rotated)',
      code: 'login_required',
    });
    expect((await get2(two.token)).json).toEqual({
      detail: `no route GET ${PROBE}`,
      code: 'route_not_found',
    });
  });

  it('refuses an --advertise that is no http(s) URL, naming it', async () => {
    const r = await runJig(['serve', '--port', '0', '--advertise', 'build-b:8766'], { JIG_HOME: tempHome() });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'jig: --advertise takes an http(s) URL such as http://build-b:8766 (got build-b:8766)\n',
    );
  });
});

describe('forwarding to a process that does not answer', () => {
  it('a read is answered here; a move whose answer was lost is 502 peer_unreachable; one never sent is made here', async (ctx) => {
    const server = pg.server();
    if (!server) return ctx.skip(pg.skip());
    const url = await server.createDatabase(`jig_forward_${process.pid}`);
    const s = await inProcess(url, 'front');
    // A "worker" that accepts connections and drops them unanswered.
    const rude = createNetServer((sock) => sock.destroy());
    await new Promise<void>((r) => rude.listen(0, '127.0.0.1', () => r()));
    closers.push(() => new Promise((r) => rude.close(() => r())));
    const rudePort = (rude.address() as { port: number }).port;
    const filed = await http(`${s.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'Held elsewhere', repo },
    });
    expect(filed.status, filed.text).toBe(201);
    const id = filed.json.id as string;
    const now = new Date().toISOString();
    const ghost = (name: string, port: number) => ({
      name,
      role: 'worker',
      host: hostname(),
      home: `/homes/${name}`,
      pid: 1,
      takes_work: 1,
      started_at: now,
      heartbeat_at: now,
      stopped_at: null,
      url: `http://127.0.0.1:${port}`,
      peer_token: 'x'.repeat(43),
    });
    const db = s.inst.store.db;
    await db.insertInto('workers').values(ghost('ghost', rudePort)).execute();
    await db
      .insertInto('item_claims')
      .values({ work_item_id: id, worker: 'ghost', generation: 1, claimed_at: now })
      .execute();

    const read = await http(`${s.url}/api/work-items/${id}/documents`);
    expect(read.status, read.text).toBe(200);
    expect(read.headers.get('x-jig-answered-by')).toBeNull();
    const lost = await http(`${s.url}/api/work-items/${id}/duplicate`, { method: 'POST' });
    expect(lost.status).toBe(502);
    expect(lost.json.code).toBe('peer_unreachable');
    expect(lost.json.detail).toMatch(
      /^ghost, which walks this item, did not answer \(.+\); the move may have been made: read the item before trying again$/,
    );

    // A port nobody listens on: the move never left, so it is made here.
    await db
      .updateTable('workers')
      .set({ url: `http://127.0.0.1:${await closedPort()}` })
      .where('name', '=', 'ghost')
      .execute();
    const made = await http(`${s.url}/api/work-items/${id}/duplicate`, { method: 'POST' });
    expect(made.status, made.text).toBe(201);
    expect(made.headers.get('x-jig-answered-by')).toBeNull();
  });
});

async function closedPort(): Promise<number> {
  const srv = createNetServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(() => r(undefined)));
  return port;
}
