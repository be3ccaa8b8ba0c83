import { afterAll, expect, it } from 'vitest';
import { eventually } from './helpers/eventually.js';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, startJig } from './helpers/server.js';
import { entriesYaml, writeConfig } from './schedules-helpers.js';

afterAll(cleanupAll);

/*
 * The one test on the real clock: a spawned `jig serve` with a `* * * * *` schedule files an item
 * at the next minute boundary. It waits at most about 70 s (the rest of the current minute and
 * some slack); everything else about firing is tested with a ManualClock.
 */
it('a * * * * * schedule fires at the next minute on the real clock', { timeout: 120_000 }, async () => {
  const jig = await startJig();
  const repo = makeRepo({ 'package.json': '{"scripts":{"test":"node -e 0"}}\n' });
  expect((await http(`${jig.url}/api/repos`, { method: 'POST', body: { path: repo } })).status).toBe(201);
  writeConfig(
    jig.home,
    'intake.yaml',
    entriesYaml('schedules', [{ cron: '* * * * *', repo, chain: 'quick-task', title: 'Every minute' }]),
  );
  // A reload that straddles a minute boundary could take either minute as the next: started
  // clear of one, the minute that must fire is the one after the reload.
  const toBoundary = 60_000 - (Date.now() % 60_000);
  if (toBoundary < 5_000) await new Promise((r) => setTimeout(r, toBoundary + 1_000));
  const reloaded = await http(`${jig.url}/api/apply/reload`, { method: 'POST' });
  expect(reloaded.status, reloaded.text).toBe(200);
  const loadedAt = Date.now();
  const boundary = (Math.floor(loadedAt / 60_000) + 1) * 60_000;

  // About 70 s of tries: the rest of the minute and some slack.
  const items = await eventually(
    async () => {
      const now: { id: string; title: string; source: string; status: string; created_at: string }[] = (
        await http(`${jig.url}/api/work-items`)
      ).json.items;
      return now.length > 0 && now;
    },
    { what: 'the scheduled item', tries: 140, everyMs: 500 },
  );
  expect(items).toHaveLength(1);
  const item = items[0]!;
  expect(item).toMatchObject({ title: 'Every minute', source: 'schedule', status: 'paused' });
  // Filed in the minute that followed the reload: not before its boundary, and not a minute late
  // (how soon after the boundary is the machine's business: no timing threshold here).
  const filedAt = Date.parse(item.created_at);
  expect(filedAt).toBeGreaterThanOrEqual(boundary);
  expect(filedAt).toBeLessThan(boundary + 60_000);
  const events = (await http(`${jig.url}/api/work-items/${item.id}/events`)).json.events;
  expect(events[0].payload.schedule).toEqual({
    index: 0,
    cron: '* * * * *',
    source: 'intake',
    minute: new Date(boundary).toISOString(),
  });
  expect(await jig.stop()).toEqual({ code: 0, signal: null });
});
