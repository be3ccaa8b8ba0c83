import type { HealthAnswer } from '../../contract/health.js';
import type { DoctorRow, RowStatus } from './admin-doctor-row.js';

/** A follower tries for the lead every 2 s (store/leader.ts LEAD_POLL_MS); said with margin. */
const LEAD_TAKEOVER_S = 5;

const row = (check: string, status: RowStatus, detail: string, fix: string | null = null): DoctorRow => ({
  check,
  status,
  detail,
  fix,
});

/**
 * The store the server answers from and, on PostgreSQL, the processes sharing it
 * (docs/scale-out.md): a silent worker is a warning (its items are taken over after its silence, 60 s unless --silence), no live
 * process taking work a failure (running items would wait for one).
 */
export function databaseRows(health: Pick<HealthAnswer, 'store' | 'run_dir' | 'workers'>): DoctorRow[] {
  if (health.store === 'sqlite')
    return [row('database', 'pass', `SQLite in ${health.run_dir} (one server walks every item)`)];
  const alive = health.workers.filter((w) => w.alive);
  const rows = [
    row(
      'database',
      'pass',
      `PostgreSQL, shared by ${alive.length} live process${alive.length === 1 ? '' : 'es'}: ${alive
        .map((w) => `${w.name} (${w.role}${w.takes_work ? '' : ', no work'}${w.leads ? ', leads' : ''})`)
        .join(', ')}`,
    ),
  ];
  const serves = alive.filter((w) => w.role === 'serve');
  const leaders = serves.filter((w) => w.leads);
  if (serves.length > 0 && leaders.length === 0)
    rows.push(
      row(
        'leader',
        'warn',
        `no live jig serve leads: schedules, auto-intake, notifications, tracker updates and wall clocks wait (a serve takes the lead within ${LEAD_TAKEOVER_S} s of the last one's end)`,
        'check the serves\' logs for "leadership: the lock connection failed"',
      ),
    );
  if (!alive.some((w) => w.takes_work))
    rows.push(
      row(
        'workers',
        'fail',
        'no live process takes work: running items wait until one does',
        'start a worker (`jig serve --worker`) or a `jig serve` without --no-work',
      ),
    );
  for (const w of health.workers.filter((x) => !x.alive && x.takes_work))
    rows.push(
      row(
        'workers',
        'warn',
        `${w.name} on ${w.host} last heard from at ${w.heartbeat_at}: its items are taken over by the others`,
        `start it again with --name ${w.name} to end its old sessions there`,
      ),
    );
  return rows;
}
