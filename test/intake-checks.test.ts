import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntakeCheck } from '../src/contract/intake-checks.js';
import { recordIntakeCheck } from '../src/store/intake-checks.js';
import { draftsJig, type DraftsJig } from './helpers/drafts.js';
import { cleanupAll } from './helpers/server.js';

let j: DraftsJig;

beforeAll(async () => {
  j = await draftsJig();
});
afterAll(async () => {
  await j.srv.close();
  await cleanupAll();
});

/** The n-th poll as the test records it (ids come from the store). */
const poll = (n: number): Omit<IntakeCheck, 'id'> => ({
  at: new Date(Date.UTC(2026, 10, 24, 10, n)).toISOString(),
  ready: n % 4,
  started: n % 2 === 0 ? [`it${String(n).padStart(6, '0')}`] : [],
  skipped:
    n % 3 === 0
      ? [
          { bead: `bd-${n}`, reason: 'above_priority_ceiling' },
          { bead: null, reason: 'invalid_config' },
        ]
      : [],
});

describe('GET /api/intake/checks', () => {
  it('answers [] while no poll has been recorded', async () => {
    const r = await j.call('GET', '/api/intake/checks');
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
  });

  it('answers recorded polls newest first, 20 by default, as many as `limit` asks', async () => {
    const db = j.srv.inst.store.db;
    const ids: number[] = [];
    for (let n = 0; n < 25; n++) ids.push(await recordIntakeCheck(db, poll(n)));
    const whole = (n: number) => ({ id: ids[n], ...poll(n) });

    const first = await j.call('GET', '/api/intake/checks');
    expect(first.status).toBe(200);
    expect(first.json).toEqual(Array.from({ length: 20 }, (_, k) => whole(24 - k)));

    const one = await j.call('GET', '/api/intake/checks?limit=1');
    expect(one.json).toEqual([
      {
        id: ids[24],
        at: '2026-11-24T10:24:00.000Z',
        ready: 0,
        started: ['it000024'],
        skipped: [
          { bead: 'bd-24', reason: 'above_priority_ceiling' },
          { bead: null, reason: 'invalid_config' },
        ],
      },
    ]);
    const hundred = await j.call('GET', '/api/intake/checks?limit=100');
    expect(hundred.json).toEqual(Array.from({ length: 25 }, (_, k) => whole(24 - k)));
  });

  it('refuses a limit outside 1 to 100 with 422 naming limit', async () => {
    for (const bad of ['0', '101', 'x', '2.5']) {
      const r = await j.call('GET', `/api/intake/checks?limit=${bad}`);
      expect(r.status).toBe(422);
      expect(r.json.code).toBe('validation_failed');
      expect(r.json.detail).toMatch(/^querystring\.limit: /);
    }
  });

  it('keeps the newest 500 polls', async () => {
    const db = j.srv.inst.store.db;
    const before = (await j.call('GET', '/api/intake/checks?limit=1')).json[0].id as number;
    let last = before;
    for (let n = 0; n < 505; n++) last = await recordIntakeCheck(db, poll(n));
    const count = await db
      .selectFrom('intake_checks')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('id').as('min')])
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(500);
    expect(Number(count.min)).toBe(last - 499);
    const newest = (await j.call('GET', '/api/intake/checks?limit=100')).json;
    expect(newest).toHaveLength(100);
    expect(newest[0]).toEqual({ id: last, ...poll(504) });
    expect(newest[99].id).toBe(last - 99);
  });
});
