import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/runtime/clock.js';
import { openStore } from '../src/store/database.js';
import { claimFiring } from '../src/store/schedule-firings.js';
import { startServer, type RunningServer } from './helpers/built.js';
import { eventually } from './helpers/eventually.js';
import { makeRepo } from './helpers/git.js';
import { usePostgres } from './helpers/postgres.js';
import { leaders, scaleOutHome, scheduleFilings } from './helpers/scale-out.js';
import { cleanupAll, http, startJig } from './helpers/server.js';

/*
 * A schedule across a hand-over (issue 44, finding 3): a serve that follows keeps its files current
 * (a reload of its intake.yaml shows, and is what it runs once it leads), and a minute due while
 * the lead changes hands is filed exactly once: its mark is claimed in the filing's transaction.
 */

const pg = usePostgres();
const servers: RunningServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
afterAll(cleanupAll);

let repo: string;
beforeAll(() => {
  repo = makeRepo({ 'README.md': '# app\n' });
});

const intake = (schedules: { cron: string; title: string }[]) =>
  stringify({ schedules: schedules.map((s) => ({ ...s, repo, chain: 'quick-task' })) });

async function serve(url: string, name: string, clock: ManualClock, intakeYaml: string) {
  const home = scaleOutHome(repo, { 'intake.yaml': intakeYaml });
  const s = await startServer({
    port: 0,
    host: '127.0.0.1',
    env: { JIG_HOME: home, JIG_DATABASE_URL: url },
    name,
    clock,
  });
  servers.push(s);
  return { s, home };
}

describe('claiming a minute in the filing transaction (PostgreSQL)', () => {
  it('two transactions claiming one minute at once: the second waits for the first and loses', async (ctx) => {
    const server = pg.server();
    if (!server) return ctx.skip(pg.skip());
    const url = await server.createDatabase(`jig_claim_${process.pid}`);
    const a = await openStore(url);
    const b = await openStore(url);
    try {
      let aClaimed: () => void = () => {};
      const claimed = new Promise<void>((r) => (aClaimed = r));
      const first = a.db.transaction().execute(async (trx) => {
        const won = await claimFiring(trx, 'entry', 1000);
        aClaimed();
        // Still uncommitted while b claims.
        await new Promise((r) => setTimeout(r, 300));
        return won;
      });
      await claimed;
      const second = b.db.transaction().execute((trx) => claimFiring(trx, 'entry', 1000));
      expect(await Promise.all([first, second])).toEqual([true, false]);
      // A later minute is claimed again; an earlier one or the same one is not.
      const later = (m: number) => a.db.transaction().execute((trx) => claimFiring(trx, 'entry', m));
      expect([await later(1000), await later(999), await later(1001)]).toEqual([false, false, true]);
      // A claim rolled back with its filing leaves the minute free for the next one.
      await b.db
        .transaction()
        .execute(async (trx) => {
          expect(await claimFiring(trx, 'entry', 1002)).toBe(true);
          throw new Error('the process died before its commit');
        })
        .catch(() => undefined);
      expect(await later(1002)).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('a follower across a hand-over (PostgreSQL)', () => {
  it('shows a reloaded intake.yaml, and files the minute due as it takes the lead, once', async (ctx) => {
    const server = pg.server();
    if (!server) return ctx.skip(pg.skip());
    const url = await server.createDatabase(`jig_handover_${process.pid}`);
    const start = Date.parse('2030-01-07T08:58:10Z');
    const ca = new ManualClock(start);
    const cb = new ManualClock(start);
    const every = { cron: '* * * * *', title: 'Every minute' };
    const a = await serve(url, 'serve-a', ca, intake([every]));
    const b = await serve(url, 'serve-b', cb, intake([every]));
    expect(await leaders(b.s.url)).toEqual(['serve-a']);

    // The follower's intake.yaml gains a schedule for 09:00; a reload there shows it at once.
    const nine = { cron: '0 9 * * *', title: 'At nine' };
    writeFileSync(join(b.home, 'config', 'intake.yaml'), intake([every, nine]));
    const reload = await http(`${b.s.url}/api/apply/reload`, { method: 'POST' });
    expect(reload.status, reload.text).toBe(200);
    expect(reload.json.loaded).toContain('intake.yaml');
    const shown = await http(`${b.s.url}/api/intake`);
    expect(
      shown.json.schedules.map((s: { cron: string; next_fire_at: string | null }) => [
        s.cron,
        s.next_fire_at,
      ]),
    ).toEqual([
      ['* * * * *', '2030-01-07T08:59:00.000Z'],
      ['0 9 * * *', '2030-01-07T09:00:00.000Z'],
    ]);

    // The leader files 08:58 and 08:59, then stops seconds before 09:00.
    await ca.advanceTo(Date.parse('2030-01-07T08:59:58Z'));
    await cb.advanceTo(Date.parse('2030-01-07T08:59:58Z'));
    await eventually(
      async () => ((await scheduleFilings(a.s.inst.store.db)).length === 2 ? true : undefined),
      {
        what: 'the leader filing 08:58 and 08:59',
      },
    );
    await a.s.close();
    servers.splice(servers.indexOf(a.s), 1);
    await eventually(async () => ((await leaders(b.s.url)).includes('serve-b') ? true : undefined), {
      what: 'serve-b to lead',
    });
    // The follower leads with its current file: 09:00 is filed once for each entry, nothing twice.
    await cb.advanceTo(Date.parse('2030-01-07T09:00:00Z'));
    await eventually(
      async () => ((await scheduleFilings(b.s.inst.store.db)).length === 4 ? true : undefined),
      {
        what: 'the new leader filing 09:00',
      },
    );
    await cb.advanceTo(Date.parse('2030-01-07T09:00:30Z'));
    expect(await scheduleFilings(b.s.inst.store.db)).toEqual([
      ['Every minute', '2030-01-07T08:58:00.000Z'],
      ['Every minute', '2030-01-07T08:59:00.000Z'],
      ['Every minute', '2030-01-07T09:00:00.000Z'],
      ['At nine', '2030-01-07T09:00:00.000Z'],
    ]);
  });
});

describe('the leader killed with -9 just before a minute (PostgreSQL, real processes)', () => {
  it('the follower, leading within seconds, files that minute once; no minute is filed twice', async (ctx) => {
    const server = pg.server();
    if (!server) return ctx.skip(pg.skip());
    const url = await server.createDatabase(`jig_handover_kill_${process.pid}`);
    const every = { cron: '* * * * *', title: 'Every minute' };
    const home = (schedules: { cron: string; title: string }[]): string =>
      scaleOutHome(repo, { 'intake.yaml': intake(schedules) });
    const a = await startJig({
      home: home([every]),
      env: { JIG_DATABASE_URL: url },
      args: ['--port', '0', '--name', 'serve-a'],
    });
    // The follower starts with no schedule; its file gains one, and a reload there shows it.
    const bHome = home([]);
    const b = await startJig({
      home: bHome,
      env: { JIG_DATABASE_URL: url },
      args: ['--port', '0', '--name', 'serve-b'],
    });
    expect(await leaders(b.url)).toEqual(['serve-a']);
    writeFileSync(join(bHome, 'config', 'intake.yaml'), intake([every]));
    expect((await http(`${b.url}/api/apply/reload`, { method: 'POST' })).json.loaded).toContain(
      'intake.yaml',
    );
    expect((await http(`${b.url}/api/intake`)).json.schedules).toHaveLength(1);

    // Killed at second 59.3 of a minute: its timer for the next one never fires, and the follower
    // takes the lead a second or two into that minute.
    const wait = (60_000 - (Date.now() % 60_000) + 59_300) % 60_000;
    await new Promise((r) => setTimeout(r, wait));
    const killedAt = Date.now();
    process.kill(a.pid, 'SIGKILL');
    await eventually(async () => ((await leaders(b.url)).includes('serve-b') ? true : undefined), {
      what: 'serve-b to lead',
    });
    const due = new Date(Math.ceil(killedAt / 60_000) * 60_000).toISOString();
    const store = await openStore(url);
    try {
      const minutes = async (): Promise<string[]> =>
        (await scheduleFilings(store.db)).map(([, minute]) => minute);
      await eventually(async () => ((await minutes()).includes(due) ? true : undefined), {
        what: `the minute ${due} filed by the new leader`,
      });
      const all = await minutes();
      expect(all.filter((m) => m === due)).toEqual([due]);
      expect(new Set(all).size).toBe(all.length);
    } finally {
      await store.close();
    }
  }, 120_000);
});
