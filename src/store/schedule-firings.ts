import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

/** Queries of `schedule_firings` (migration 4): the last minute each schedule entry fired. */

export async function loadFirings(db: Kysely<Database>, sinceMinute: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('schedule_firings')
    .select(['entry_key', 'minute'])
    .where('minute', '>=', sinceMinute)
    .execute();
  return new Map(rows.map((r) => [r.entry_key, Number(r.minute)]));
}

/**
 * Records that these entries fire in `minute`, in one transaction, and answers the keys this call
 * marked: an entry already marked for this minute or a later one (by another process sharing the
 * store, or a tick before a restart) is left out, so a minute's item is filed once whoever ticks.
 */
export async function markFirings(
  db: Kysely<Database>,
  keys: readonly string[],
  minute: number,
): Promise<string[]> {
  if (keys.length === 0) return [];
  const firedAt = new Date(minute * 60_000).toISOString();
  return db.transaction().execute(async (trx) => {
    const taken = new Set<string>();
    // Chunks keep each statement well under SQLite's bound-variable limit.
    for (let i = 0; i < keys.length; i += 200) {
      const rows = await trx
        .selectFrom('schedule_firings')
        .select('entry_key')
        .where('entry_key', 'in', keys.slice(i, i + 200))
        .where('minute', '>=', minute)
        .execute();
      for (const r of rows) taken.add(r.entry_key);
    }
    const mine = keys.filter((k) => !taken.has(k));
    for (let i = 0; i < mine.length; i += 200) {
      await trx
        .insertInto('schedule_firings')
        .values(mine.slice(i, i + 200).map((entry_key) => ({ entry_key, minute, fired_at: firedAt })))
        .onConflict((oc) =>
          oc.column('entry_key').doUpdateSet((eb) => ({
            minute: eb.ref('excluded.minute'),
            fired_at: eb.ref('excluded.fired_at'),
          })),
        )
        .execute();
    }
    return mine;
  });
}

/**
 * Claims one entry's `minute` inside the transaction that files its item: true when this
 * transaction marked it, false when it was marked for this minute or a later one already. On
 * PostgreSQL a claim another transaction holds uncommitted waits for that transaction: whichever
 * commits first files the minute, and the other is told false and files nothing. Since the mark
 * commits with the item, a process killed before its commit leaves neither, and the next leader
 * files that minute (never twice, never lost across a hand-over).
 */
export async function claimFiring(db: Transaction<Database>, key: string, minute: number): Promise<boolean> {
  const firedAt = new Date(minute * 60_000).toISOString();
  const won = await db
    .insertInto('schedule_firings')
    .values({ entry_key: key, minute, fired_at: firedAt })
    .onConflict((oc) =>
      oc
        .column('entry_key')
        .doUpdateSet({ minute, fired_at: firedAt })
        .where('schedule_firings.minute', '<', minute),
    )
    .returning('entry_key')
    .executeTakeFirst();
  return won !== undefined;
}

/** Forgets firings older than `beforeMinute`: only recent minutes can still be fired twice. */
export async function pruneFirings(db: Kysely<Database>, beforeMinute: number): Promise<void> {
  await db.deleteFrom('schedule_firings').where('minute', '<', beforeMinute).execute();
}
