import { describe, expect, it } from 'vitest';
import type { WorkerInfo } from '../../contract/health.js';
import { databaseRows } from './admin-doctor-database.js';

const at = '2030-01-07T09:00:00.000Z';
const proc = (name: string, role: WorkerInfo['role'], more: Partial<WorkerInfo> = {}): WorkerInfo => ({
  name,
  role,
  host: 'm1',
  pid: 1,
  takes_work: true,
  started_at: at,
  heartbeat_at: at,
  alive: true,
  self: false,
  leads: false,
  ...more,
});

describe('the doctor rows of a shared store', () => {
  it('passes with a leading serve and a worker, naming both', () => {
    expect(
      databaseRows({
        store: 'postgres',
        run_dir: '/h/run',
        workers: [proc('a', 'serve', { leads: true, takes_work: false }), proc('w1', 'worker')],
      }),
    ).toEqual([
      {
        check: 'database',
        status: 'pass',
        detail: 'PostgreSQL, shared by 2 live processes: a (serve, no work, leads), w1 (worker)',
        fix: null,
      },
    ]);
  });

  it('warns when no live serve leads, fails when none takes work, warns of a silent worker', () => {
    const rows = databaseRows({
      store: 'postgres',
      run_dir: '/h/run',
      workers: [
        proc('a', 'serve', { takes_work: false }),
        proc('old', 'serve', { leads: true, alive: false, takes_work: false }),
        proc('w1', 'worker', { alive: false, heartbeat_at: '2030-01-07T08:00:00.000Z' }),
      ],
    });
    expect(rows.map((r) => [r.check, r.status])).toEqual([
      ['database', 'pass'],
      ['leader', 'warn'],
      ['workers', 'fail'],
      ['workers', 'warn'],
    ]);
    expect(rows[1]!.detail).toBe(
      "no live jig serve leads: schedules, auto-intake, notifications, tracker updates and wall clocks wait (a serve takes the lead within 5 s of the last one's end)",
    );
    expect(rows[3]!.detail).toBe(
      'w1 on m1 last heard from at 2030-01-07T08:00:00.000Z: its items are taken over by the others',
    );
  });

  it('SQLite: one row', () => {
    expect(databaseRows({ store: 'sqlite', run_dir: '/h/run', workers: [] })).toEqual([
      {
        check: 'database',
        status: 'pass',
        detail: 'SQLite in /h/run (one server walks every item)',
        fix: null,
      },
    ]);
  });
});
