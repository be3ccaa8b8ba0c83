import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, tempHome } from './helpers/server.js';
import {
  boot,
  connect,
  entriesYaml,
  filed,
  firings,
  logLines,
  reload,
  seededPolicy,
  WARN,
  writeConfig,
  type Booted,
} from './schedules-helpers.js';

// Off UTC by a half hour, so a schedule read in local time instead of UTC would fire elsewhere.
const savedTz = process.env.TZ;
process.env.TZ = 'Asia/Kolkata';

let repo: string;
const running: Booted[] = [];

async function start(at: string, home?: string): Promise<Booted> {
  const b = await boot(at, home);
  running.push(b);
  return b;
}
async function stop(b: Booted): Promise<void> {
  await b.server.close();
  running.splice(running.indexOf(b), 1);
}
async function withSchedules(b: Booted, entries: Record<string, string>[]): Promise<void> {
  writeConfig(b.home, 'intake.yaml', entriesYaml('schedules', entries));
  const r = await reload(b);
  expect(r.status, r.text).toBe(200);
}
const at = (iso: string) => Date.parse(iso);
const warnings = (b: Booted) => logLines(b.home).filter((l) => l.level === WARN);

beforeAll(() => {
  repo = makeRepo({ 'package.json': '{"scripts":{"test":"node -e 0"}}\n' });
});
afterEach(async () => {
  for (const b of running.splice(0)) await b.server.close();
});
afterAll(async () => {
  process.env.TZ = savedTz;
  await cleanupAll();
});

describe('firing', () => {
  it('fires each entry at its minutes, in UTC, filing a paused item that names its schedule', async () => {
    const b = await start('2030-01-07T08:58:30Z'); // a Monday
    await connect(b, repo);
    await withSchedules(b, [
      { cron: '0 9 * * 1-5', repo, chain: 'quick-task', title: 'Weekday nine' },
      { cron: '*/15 * * * *', repo, chain: 'default', title: 'Quarter', description: 'every 15 minutes' },
      { cron: '0 9 * * 0,6', repo, chain: 'quick-task', title: 'Weekend nine' },
    ]);
    await b.clock.advanceTo(at('2030-01-07T08:59:59Z'));
    expect(await firings(b)).toEqual([]);
    await b.clock.advanceTo(at('2030-01-07T09:00:00Z'));
    expect(await firings(b)).toEqual(['09:00 Weekday nine', '09:00 Quarter']);
    await b.clock.advanceTo(at('2030-01-07T09:31:00Z'));
    expect(await firings(b)).toEqual([
      '09:00 Weekday nine',
      '09:00 Quarter',
      '09:15 Quarter',
      '09:30 Quarter',
    ]);

    const items = await filed(b);
    expect(items[1]).toMatchObject({
      title: 'Quarter',
      description: 'every 15 minutes',
      chain: 'default',
      status: 'paused',
      source: 'schedule',
      by: 'schedule',
      schedule: { index: 1, cron: '*/15 * * * *', source: 'intake', minute: '2030-01-07T09:00:00.000Z' },
    });
    // The API shows the same event.
    const ev = await http(`${b.url}/api/work-items/${items[0]!.id}/events`);
    expect(ev.json.events[0]).toMatchObject({
      type: 'work_item_created',
      by: 'schedule',
      payload: { source: 'schedule', schedule: { index: 0, cron: '0 9 * * 1-5', source: 'intake' } },
    });
    // The schedule poller, the engine's wall-clock sweep, its merge request watcher and the
    // leader's look for waits each keep one timer armed at a time, and closing leaves none.
    expect(b.clock.pending).toBe(4);
    await stop(b);
    expect(b.clock.pending).toBe(0);
  });

  it("files each firing's item coming after the entry's after (issue 46)", async () => {
    const b = await start('2030-01-07T08:58:30Z');
    await connect(b, repo);
    const first = await http(`${b.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'Migrate first', repo, chain: 'quick-task' },
    });
    expect(first.status, first.text).toBe(201);
    const a = first.json;
    writeConfig(
      b.home,
      'intake.yaml',
      `schedules:\n  - cron: "0 9 * * *"\n    repo: ${JSON.stringify(repo)}\n    chain: quick-task\n    title: Nightly after\n    after: [${a.id}]\n`,
    );
    expect((await reload(b)).status).toBe(200);
    await b.clock.advanceTo(at('2030-01-07T09:00:00Z'));
    expect(await firings(b)).toEqual(['09:00 Nightly after']);
    const [item] = await filed(b);
    const view = (await http(`${b.url}/api/work-items/${item!.id}`)).json;
    expect([view.status, view.dependencies]).toEqual([
      'paused',
      [{ id: a.id, title: 'Migrate first', status: 'paused' }],
    ]);
  });

  it('fires an entry at most once per minute: a second tick, a reload, a restart in the same minute', async () => {
    const home = tempHome();
    let b = await start('2030-01-07T09:00:10Z', home);
    await connect(b, repo);
    await withSchedules(b, [{ cron: '* * * * *', repo, chain: 'quick-task', title: 'Every minute' }]);
    await b.clock.advance(0);
    expect(await firings(b)).toEqual(['09:00 Every minute']);

    // Ticks driven twice more within the minute, and a reload, file nothing more.
    await b.clock.advanceTo(at('2030-01-07T09:00:40Z'));
    expect((await b.server.inst.schedules.tick()).fired).toEqual([]);
    expect((await reload(b)).status).toBe(200);
    expect((await b.server.inst.schedules.tick()).fired).toEqual([]);
    expect(await firings(b)).toEqual(['09:00 Every minute']);

    // A restart within the minute: the store remembers the firing.
    await stop(b);
    b = await start('2030-01-07T09:00:50Z', home);
    await b.clock.advance(0);
    expect(await firings(b)).toEqual(['09:00 Every minute']);
    await b.clock.advanceTo(at('2030-01-07T09:01:00Z'));
    expect(await firings(b)).toEqual(['09:00 Every minute', '09:01 Every minute']);
  });

  it('a stop in the middle of a minute leaves what it did not file to a restart within that minute', async () => {
    const home = tempHome();
    let b = await start('2030-01-07T09:00:10Z', home);
    await connect(b, repo);
    const titles = Array.from({ length: 30 }, (_, i) => `Chore ${i}`);
    await withSchedules(
      b,
      titles.map((title) => ({ cron: '* * * * *', repo, chain: 'quick-task', title })),
    );
    let closing: Promise<void> | undefined;
    let seen = 0;
    const server = b.server;
    server.inst.events.subscribe(() => {
      if (++seen === 5) closing = server.close();
    });
    await b.clock.advance(0);
    await closing;
    running.splice(running.indexOf(b), 1);
    b = await start('2030-01-07T09:00:20Z', home);
    const before = (await filed(b)).length;
    expect(before).toBeGreaterThanOrEqual(5);
    expect(before).toBeLessThan(30);
    await b.clock.advance(0);
    expect((await filed(b)).map((f) => f.title).sort()).toEqual([...titles].sort());
  });

  it('does not make up minutes missed while the server was down', async () => {
    const home = tempHome();
    let b = await start('2030-01-07T09:00:30Z', home);
    await connect(b, repo);
    await withSchedules(b, [
      { cron: '* * * * *', repo, chain: 'quick-task', title: 'Every minute' },
      { cron: '*/5 * * * *', repo, chain: 'quick-task', title: 'Every five' },
    ]);
    await b.clock.advanceTo(at('2030-01-07T09:01:00Z'));
    await stop(b);
    b = await start('2030-01-07T09:07:30Z', home);
    await b.clock.advanceTo(at('2030-01-07T09:10:00Z'));
    expect(await firings(b)).toEqual([
      '09:00 Every minute',
      '09:00 Every five',
      '09:01 Every minute',
      '09:07 Every minute', // the minute of the start: not missed
      '09:08 Every minute',
      '09:09 Every minute',
      '09:10 Every minute',
      '09:10 Every five', // 09:05 fell in the gap
    ]);
  });

  it('checks the minutes a late tick missed, up to five, once each', async () => {
    const b = await start('2030-01-07T09:00:30Z');
    await connect(b, repo);
    await withSchedules(b, [{ cron: '* * * * *', repo, chain: 'quick-task', title: 'Every minute' }]);
    await b.clock.advanceTo(at('2030-01-07T09:01:00Z'));
    // The process is paused: the 09:02 timer runs at 09:04:10.
    b.clock.jumpTo(at('2030-01-07T09:04:10Z'));
    await b.clock.advance(0);
    expect(await firings(b)).toEqual(
      ['09:00', '09:01', '09:02', '09:03', '09:04'].map((m) => `${m} Every minute`),
    );
    // A longer pause (a machine asleep) counts as down time beyond five minutes.
    b.clock.jumpTo(at('2030-01-07T09:20:05Z'));
    await b.clock.advance(0);
    const after = (await firings(b)).slice(5);
    expect(after).toEqual(['09:16', '09:17', '09:18', '09:19', '09:20'].map((m) => `${m} Every minute`));
    expect(warnings(b).map((w) => w.msg)).toContain(
      'schedules: 11 minute(s) went unchecked (the process was paused or the clock jumped); they are not made up',
    );
  });
});

describe('titles', () => {
  it('cleans a schedule title instead of refusing it', async () => {
    const b = await start('2030-01-07T09:00:30Z');
    await connect(b, repo);
    await withSchedules(b, [
      {
        cron: '* * * * *',
        repo,
        chain: 'quick-task',
        title: 'Bump deps\nCheck the lock file',
        description: 'Weekly',
      },
      { cron: '* * * * *', repo, chain: 'quick-task', title: 'Bump\tdeps\u0007' },
      {
        cron: '* * * * *',
        repo,
        chain: 'quick-task',
        title: '  ',
        description: 'Rotate keys\nThen tell the team',
      },
      { cron: '* * * * *', repo, chain: 'quick-task', title: 'Nightly build\n' },
    ]);
    await b.clock.advance(0);
    expect((await filed(b)).map((f) => [f.title, f.description])).toEqual([
      ['Bump deps', 'Check the lock file\n\nWeekly'],
      ['Bump deps', ''],
      ['Rotate keys', 'Rotate keys\nThen tell the team'],
      ['Nightly build', ''],
    ]);
  });
});

describe('skips', () => {
  it('skips an entry with a warning naming it, and the others due that minute still fire', async () => {
    const b = await start('2030-01-07T09:00:30Z');
    await connect(b, repo);
    const gone = makeRepo({ 'package.json': '{"scripts":{"test":"node -e 0"}}\n' });
    await connect(b, gone);
    rmSync(gone, { recursive: true, force: true });
    await withSchedules(b, [
      { cron: '* * * * *', repo: '/nowhere/at/all', chain: 'quick-task', title: 'No repo' },
      { cron: '* * * * *', repo, chain: 'no-such-chain', title: 'No chain' },
      { cron: '* * * * *', repo, chain: 'quick-task', title: ' \t ', description: '\n' },
      { cron: '* * * * *', repo, chain: 'quick-task', title: 'Fires' },
      { cron: '* * * * *', repo: gone, chain: 'quick-task', title: 'Repo gone' },
    ]);
    await b.clock.advance(0);
    expect(await firings(b)).toEqual(['09:00 Fires']);
    const skipped = warnings(b)
      .filter((w) => w.msg.startsWith('schedule skipped'))
      .map((w) => [w.msg, w.code]);
    expect(skipped).toEqual([
      [
        'schedule skipped: intake.yaml schedules.0: repo /nowhere/at/all is not connected; connect it with `jig repo connect`',
        'repo_not_connected',
      ],
      [
        'schedule skipped: intake.yaml schedules.1: chain no-such-chain names no chain in the library (chains: default, manual, merge-request, quick-task)',
        'chain_unknown',
      ],
      ['schedule skipped: intake.yaml schedules.2: its title and description are both blank', 'blank_title'],
      [
        `schedule skipped: intake.yaml schedules.4: repo ${gone} is connected but no longer exists on disk`,
        'repo_gone',
      ],
    ]);
    expect(warnings(b).find((w) => w.msg.includes('schedules.0'))).toMatchObject({
      schedule: {
        index: 0,
        source: 'intake',
        cron: '* * * * *',
        repo: '/nowhere/at/all',
        chain: 'quick-task',
      },
      minute: '2030-01-07T09:00:00.000Z',
    });
  });

  it('skips every entry while the library or a chain is invalid, each with its warning', async () => {
    const b = await start('2030-01-07T09:00:30Z');
    await connect(b, repo);
    await withSchedules(b, [
      { cron: '* * * * *', repo, chain: 'quick-task', title: 'One' },
      { cron: '* * * * *', repo, chain: 'default', title: 'Two' },
    ]);
    writeConfig(b.home, 'library.yaml', 'tasks: [\n');
    expect((await reload(b)).status).toBe(422);
    await b.clock.advance(0);
    expect(await firings(b)).toEqual([]);
    const skipped = warnings(b).filter((w) => w.msg.startsWith('schedule skipped'));
    expect(skipped.map((w) => [w.msg.split(': all new work')[0], w.code])).toEqual([
      ['schedule skipped: intake.yaml schedules.0', 'new_work_refused'],
      ['schedule skipped: intake.yaml schedules.1', 'new_work_refused'],
    ]);
    expect(skipped[0]!.msg).toMatch(
      /all new work is refused while the library or a chain does not load: library\.yaml:/,
    );
  });

  it('skips the whole minute, with one warning, while policy.yaml is invalid', async () => {
    const b = await start('2030-01-07T09:00:30Z');
    await connect(b, repo);
    await withSchedules(b, [
      { cron: '* * * * *', repo, chain: 'quick-task', title: 'One' },
      { cron: '* * * * *', repo, chain: 'default', title: 'Two' },
    ]);
    const good = seededPolicy(b.home);
    writeConfig(b.home, 'policy.yaml', 'max_concurrent: 0\n');
    expect((await reload(b)).status).toBe(422);
    await b.clock.advanceTo(at('2030-01-07T09:02:00Z'));
    expect(await firings(b)).toEqual([]);
    const lines = warnings(b).filter((w) => w.msg.startsWith('schedule'));
    expect(lines.map((w) => [w.msg, w.minute])).toEqual([
      ['schedules: policy.yaml does not load; no schedule fires this minute', '2030-01-07T09:00:00.000Z'],
      ['schedules: policy.yaml does not load; no schedule fires this minute', '2030-01-07T09:01:00.000Z'],
      ['schedules: policy.yaml does not load; no schedule fires this minute', '2030-01-07T09:02:00.000Z'],
    ]);
    writeConfig(b.home, 'policy.yaml', good);
    expect((await reload(b)).status).toBe(200);
    await b.clock.advanceTo(at('2030-01-07T09:03:00Z'));
    expect(await firings(b)).toEqual(['09:03 One', '09:03 Two']);
  });
});

describe('triggers left in policy.yaml', () => {
  it('fire like schedules; an out-of-range cron is skipped with a warning', async () => {
    const b = await start('2030-01-07T09:00:30Z');
    await connect(b, repo);
    writeConfig(
      b.home,
      'policy.yaml',
      seededPolicy(b.home) +
        entriesYaml('triggers', [
          { cron: '* * * * *', repo, chain_template: 'quick-task', title: 'Legacy' },
          { cron: '0 24 * * *', repo, chain: 'quick-task', title: 'Bad hour' },
          { cron: '*/2 * * * *', repo, title: 'No chain named' },
        ]),
    );
    const r = await reload(b);
    expect(r.status, r.text).toBe(200);
    await b.clock.advanceTo(at('2030-01-07T09:02:00Z'));
    expect(await firings(b)).toEqual([
      '09:00 Legacy',
      '09:00 No chain named',
      '09:01 Legacy',
      '09:02 Legacy',
      '09:02 No chain named',
    ]);
    const items = await filed(b);
    expect(items[0]).toMatchObject({
      chain: 'quick-task',
      schedule: { index: 0, source: 'policy.triggers' },
    });
    // A trigger that names no chain files like POST /api/triggers: the repo's default chain.
    expect(items[1]).toMatchObject({ chain: 'default', schedule: { index: 2, source: 'policy.triggers' } });
    expect(warnings(b).map((w) => w.msg)).toContain(
      'schedule skipped: policy.yaml triggers.1: its cron cannot be used (hour: 24 is outside 0-23); it never fires until fixed',
    );
  });

  it('refuse policy.yaml when a cron cannot be read at all, and new work is refused (503)', async () => {
    const b = await start('2030-01-07T09:00:30Z');
    await connect(b, repo);
    const policy =
      seededPolicy(b.home) +
      entriesYaml('triggers', [{ cron: 'every day', repo, chain: 'quick-task', title: 'Words' }]);
    writeConfig(b.home, 'policy.yaml', policy);
    const r = await reload(b);
    expect(r.status).toBe(422);
    const line = policy.split('\n').findIndex((l) => l.includes('every day')) + 1;
    expect(r.json.refused).toEqual([
      {
        file: 'policy.yaml',
        problems: [
          {
            path: 'triggers.0',
            field: 'cron',
            message: 'expected 5 fields, got 2',
            file: 'policy.yaml',
            line,
            col: 12, // `  - cron: "every day"`: the e after the quote
          },
        ],
      },
    ]);
    const health = (await http(`${b.url}/api/health`)).json;
    expect(health).toMatchObject({ status: 'degraded', intake_off: false });
    expect(health.invalid_policy).toBe(`policy.yaml:${line}:12: triggers.0.cron: expected 5 fields, got 2`);
    const t = await http(`${b.url}/api/triggers`, { method: 'POST', body: { title: 'x', repo } });
    expect(t.status).toBe(503);
    expect(t.json.code).toBe('new_work_refused');
  });
});

describe('reloads', () => {
  it('keep the running schedules when intake.yaml is refused, and replace them when it loads', async () => {
    const b = await start('2030-01-07T09:00:30Z');
    await connect(b, repo);
    await withSchedules(b, [{ cron: '* * * * *', repo, chain: 'quick-task', title: 'Kept' }]);
    await b.clock.advanceTo(at('2030-01-07T09:01:00Z'));

    writeConfig(
      b.home,
      'intake.yaml',
      entriesYaml('schedules', [{ cron: '61 * * * *', repo, chain: 'quick-task', title: 'Bad' }]),
    );
    const refused = await reload(b);
    expect(refused.status).toBe(422);
    expect(refused.json.refused[0].problems[0]).toMatchObject({
      path: 'schedules.0',
      field: 'cron',
      message: 'minute: 61 is outside 0-59',
      line: 2,
      col: 12,
    });
    const health = (await http(`${b.url}/api/health`)).json;
    expect(health).toMatchObject({ status: 'degraded', intake_off: false });
    expect(health.invalid_intake).toBe('intake.yaml:2:12: schedules.0.cron: minute: 61 is outside 0-59');
    await b.clock.advanceTo(at('2030-01-07T09:02:00Z'));
    expect(await firings(b)).toEqual(['09:00 Kept', '09:01 Kept', '09:02 Kept']);

    await withSchedules(b, [{ cron: '*/2 * * * *', repo, chain: 'quick-task', title: 'Replaced' }]);
    expect((await http(`${b.url}/api/health`)).json).toMatchObject({ status: 'ok', invalid_intake: null });
    await b.clock.advanceTo(at('2030-01-07T09:05:00Z'));
    expect((await firings(b)).slice(3)).toEqual(['09:04 Replaced']);
    // The same entry written again keeps its identity: a reload in its minute does not refire it.
    await b.clock.advanceTo(at('2030-01-07T09:06:00Z'));
    await withSchedules(b, [
      { cron: '0 0 1 1 *', repo, chain: 'quick-task', title: 'Added above' },
      { cron: '*/2 * * * *', repo, chain: 'quick-task', title: 'Replaced' },
    ]);
    await b.server.inst.schedules.tick();
    expect((await firings(b)).slice(3)).toEqual(['09:04 Replaced', '09:06 Replaced']);
  });

  it('started on an intake.yaml with a bad cron: schedules off until a good file loads', async () => {
    const home = tempHome();
    const first = await start('2030-01-07T08:00:00Z', home);
    await connect(first, repo);
    await stop(first);
    writeConfig(
      home,
      'intake.yaml',
      `enabled: false\nschedules:\n  - cron: "0 9 * * MON"\n    repo: ${repo}\n    chain: quick-task\n    title: Mondays\n`,
    );
    const b = await start('2030-01-07T09:00:30Z', home);
    const health = (await http(`${b.url}/api/health`)).json;
    expect(health).toMatchObject({ status: 'degraded', intake_off: true, invalid_policy: null });
    expect(health.invalid_intake).toBe(
      'intake.yaml:3:20: schedules.0.cron: day_of_week: names such as MON are not read; use 0-7 (0 and 7 are Sunday)',
    );
    expect((await http(`${b.url}/api/intake`)).json).toMatchObject({
      intake_off: true,
      invalid_intake: health.invalid_intake,
      schedules: [],
    });
    await b.clock.advanceTo(at('2030-01-07T09:01:00Z'));
    expect(await firings(b)).toEqual([]);

    // A reload that still refuses leaves them off; a good file turns them on.
    expect((await reload(b)).status).toBe(422);
    expect((await http(`${b.url}/api/health`)).json.intake_off).toBe(true);
    await withSchedules(b, [{ cron: '* * * * *', repo, chain: 'quick-task', title: 'Now on' }]);
    expect((await http(`${b.url}/api/health`)).json).toMatchObject({
      status: 'ok',
      intake_off: false,
      invalid_intake: null,
    });
    await b.clock.advanceTo(at('2030-01-07T09:02:00Z'));
    expect(await firings(b)).toEqual(['09:02 Now on']);
  });

  it('while intake is off, a trigger left in policy.yaml still fires', async () => {
    const home = tempHome();
    const first = await start('2030-01-07T08:00:00Z', home);
    await connect(first, repo);
    await stop(first);
    // An intake.yaml that does not parse also keeps the start from moving triggers into it.
    writeConfig(home, 'intake.yaml', 'schedules: [\n');
    writeConfig(
      home,
      'policy.yaml',
      seededPolicy(home) +
        entriesYaml('triggers', [{ cron: '* * * * *', repo, chain: 'quick-task', title: 'Legacy' }]),
    );
    const b = await start('2030-01-07T09:00:30Z', home);
    expect((await http(`${b.url}/api/health`)).json).toMatchObject({
      intake_off: true,
      invalid_policy: null,
    });
    const view = (await http(`${b.url}/api/intake`)).json;
    expect(view.schedules.map((s: { source: string }) => s.source)).toEqual(['policy.triggers']);
    await b.clock.advanceTo(at('2030-01-07T09:01:00Z'));
    expect(await firings(b)).toEqual(['09:00 Legacy', '09:01 Legacy']);
  });
});
