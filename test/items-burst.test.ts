import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, startJig } from './helpers/server.js';

afterAll(cleanupAll);

describe('a burst of triggers', () => {
  it('10 000 triggers leave 10 000 items and a gap-free event log', async () => {
    const jig = await startJig();
    const repo = makeRepo();
    expect(
      (await http(`${jig.url}/api/repos`, { method: 'POST', body: { path: repo, test_command: '' } })).status,
    ).toBe(201);
    const TOTAL = 10_000;
    const PARALLEL = 16;
    let next = 0;
    const failures: number[] = [];
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        for (;;) {
          const n = next++;
          if (n >= TOTAL) return;
          const r = await fetch(`${jig.url}/api/triggers`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ title: `burst ${n}`, repo }),
          });
          await r.arrayBuffer();
          if (r.status !== 201) failures.push(r.status);
        }
      }),
    );
    expect(failures).toEqual([]);
    expect((await http(`${jig.url}/api/work-items?limit=1`)).json.total).toBe(TOTAL);
    await jig.stop();
    const db = new Database(join(jig.home, 'run', 'jig.db'), { readonly: true });
    const ev = db
      .prepare(
        'SELECT count(*) AS n, min(seq) AS lo, max(seq) AS hi, count(DISTINCT work_item_id) AS items FROM events',
      )
      .get() as Record<string, number>;
    const titles = db.prepare('SELECT count(DISTINCT title) AS n FROM work_items').get() as { n: number };
    db.close();
    expect(ev).toEqual({ n: TOTAL, lo: 1, hi: TOTAL, items: TOTAL });
    expect(titles.n).toBe(TOTAL);
  }, 300_000);
});
