import pg from 'pg';
import type { LeadChange, Lease } from './lease.js';

/*
 * Leadership among the `jig serve` processes sharing one PostgreSQL database (issue 27,
 * docs/scale-out.md "More than one jig serve"). Schedules, auto-intake, notifications, tracker
 * updates, forge polls and the wall clocks must each run in one process, or every serve would file
 * the same scheduled item and send the same message. The leader is whoever holds a session-level
 * advisory lock on a connection of its own: PostgreSQL releases it when that connection ends, so a
 * leader killed with -9 (its socket closed by the kernel) hands over at the next try of another
 * serve; no lease table, no clocks compared across machines.
 */

/** The advisory lock the leader holds (the write lock is 544; any other constant). */
export const LEADER_LOCK_KEY = 545;
/** How often a follower tries for the lock, and a leader checks that its connection still holds it. */
export const LEAD_POLL_MS = 2_000;

/**
 * Tries for the lock now and every LEAD_POLL_MS. `onChange` is awaited in order, never two at once:
 * duties stop before another start. A leader whose connection fails (the database restarted, the
 * network dropped) steps down at once, since PostgreSQL may already have let another take the lock.
 */
export async function postgresLease(
  url: string,
  onChange: LeadChange,
  onError: (err: unknown) => void,
  pollMs = LEAD_POLL_MS,
): Promise<Lease> {
  let client: pg.Client | null = null;
  let leading = false;
  let released = false;
  let timer: NodeJS.Timeout | null = null;
  let changes: Promise<void> = Promise.resolve();

  const change = (to: boolean): Promise<void> => {
    if (leading === to) return changes;
    leading = to;
    changes = changes.then(async () => {
      try {
        await onChange(to);
      } catch (err) {
        onError(err);
      }
    });
    return changes;
  };

  const drop = (c: pg.Client): void => {
    if (client !== c) return;
    client = null;
    c.end().catch(() => undefined);
    void change(false);
  };

  const connect = async (): Promise<pg.Client> => {
    // Keepalives both ways: the server notices within about 25 s a leader whose machine vanished
    // (no FIN sent; the operating system's default would be two hours) and lets the lock go; a
    // check that does not come back in time steps this leader down.
    const c = new pg.Client({
      connectionString: url,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      options: '-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3',
      query_timeout: 3 * pollMs,
    });
    c.on('error', () => drop(c));
    c.on('end', () => drop(c));
    client = c;
    try {
      await c.connect();
    } catch (err) {
      drop(c);
      throw err;
    }
    return c;
  };

  const round = async (): Promise<void> => {
    if (released) return;
    try {
      const c = client ?? (await connect());
      if (released) return;
      if (leading) {
        // Still connected is still holding: the lock lives as long as this session.
        await c.query('SELECT 1');
        return;
      }
      const got = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [LEADER_LOCK_KEY]);
      if (got.rows[0]?.ok === true && !released && client === c) await change(true);
    } catch (err) {
      if (client) drop(client);
      onError(err);
    }
  };

  const loop = async (): Promise<void> => {
    await round();
    if (!released) {
      timer = setTimeout(() => void loop(), pollMs);
      timer.unref();
    }
  };
  await loop();

  return {
    get leading() {
      return leading;
    },
    async release() {
      released = true;
      if (timer) clearTimeout(timer);
      await change(false);
      const c = client;
      client = null;
      if (c) await c.end().catch(() => undefined);
    },
  };
}
