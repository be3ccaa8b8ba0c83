import type { Kysely } from 'kysely';
import { z } from 'zod';
import { IntakeCheck, IntakeSkip, INTAKE_CHECKS_KEPT } from '../contract/intake-checks.js';
import type { Database } from './schema.js';

/** Queries of `intake_checks` (migration 10): one row per auto-intake poll, the newest 500 kept. */

export type NewIntakeCheck = Omit<IntakeCheck, 'id'>;

const Started = z.array(z.string());
const Skipped = z.array(IntakeSkip);

/** Records one poll and forgets all but the newest `keep`, in one transaction; answers its id. */
export async function recordIntakeCheck(
  db: Kysely<Database>,
  check: NewIntakeCheck,
  keep: number = INTAKE_CHECKS_KEPT,
): Promise<number> {
  const row = {
    at: check.at,
    ready: check.ready,
    started: JSON.stringify(Started.parse(check.started)),
    skipped: JSON.stringify(Skipped.parse(check.skipped)),
  };
  return db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('intake_checks')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    // Ids only grow (AUTOINCREMENT never reuses one), so the newest are the highest ids.
    await trx
      .deleteFrom('intake_checks')
      .where('id', 'not in', (eb) =>
        eb.selectFrom('intake_checks').select('id').orderBy('id', 'desc').limit(keep),
      )
      .execute();
    return Number(id);
  });
}

/** The newest `limit` polls, newest first; each stored list is checked as it is read. */
export async function listIntakeChecks(db: Kysely<Database>, limit: number): Promise<IntakeCheck[]> {
  const rows = await db
    .selectFrom('intake_checks')
    .select(['id', 'at', 'ready', 'started', 'skipped'])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => {
    const check = IntakeCheck.safeParse({
      id: Number(r.id),
      at: r.at,
      ready: Number(r.ready),
      started: json(r.started),
      skipped: json(r.skipped),
    });
    if (!check.success) {
      throw new Error(
        `intake check ${r.id} does not match its schema: ${check.error.issues[0]?.message ?? ''}`,
      );
    }
    return check.data;
  });
}

/** Stored text as JSON; a row that is not JSON reads as undefined, which the schema then refuses. */
function json(text: string): unknown {
  try {
    const v: unknown = JSON.parse(text);
    return v;
  } catch {
    return undefined;
  }
}
