import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Items that still hold a worktree (any status), with what the storage page shows of them. */
export async function itemsWithWorktrees(db: Kysely<Database>) {
  return db
    .selectFrom('work_items')
    .select(['id', 'title', 'status', 'archived_at', 'ended_at', 'worktree_path'])
    .where('worktree_path', 'is not', null)
    .execute();
}

/** Every session's log file, by item. */
export async function sessionLogs(
  db: Kysely<Database>,
): Promise<{ work_item_id: string; log_path: string }[]> {
  return db.selectFrom('worker_sessions').select(['work_item_id', 'log_path']).execute();
}

/** What Jig's database takes on its PostgreSQL server (not on this machine's disk). */
export async function postgresDatabaseSize(db: Kysely<Database>): Promise<number> {
  const r = await sql<{ n: number }>`SELECT pg_database_size(current_database()) AS n`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}
