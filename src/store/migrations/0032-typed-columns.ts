import { sql, type Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/*
 * Issue 50: on PostgreSQL, times become `timestamptz`, JSON `jsonb` and dollars `numeric`, which
 * were text and double precision since migration 3 (portable types, the same SQL as SQLite).
 * SQLite keeps its types (it has no such column types; values are the same ISO text and JSON).
 * Callers see no change: postgres.ts reads a timestamptz back as the ISO string it was written as
 * and a jsonb as its text.
 *
 * Frozen with the migration: the columns as they were at version 31.
 */

const TIMES: Record<string, string[]> = {
  auth_sessions: ['created_at', 'expires_at'],
  draft_steps: ['touched_at'],
  drafts: ['updated_at'],
  events: ['at'],
  intake_checks: ['at'],
  item_attempts: ['at'],
  item_claims: ['claimed_at'],
  item_drafts: ['updated_at'],
  merge_requests: ['updated_at'],
  permission_asks: ['created_at', 'decided_at', 'expires_at'],
  review_comments: ['created_at'],
  review_threads: ['created_at', 'updated_at'],
  review_viewed: ['at'],
  reviews: ['created_at'],
  schedule_firings: ['fired_at'],
  search_entries: ['updated_at'],
  trigger_keys: ['created_at'],
  work_item_dependencies: ['created_at'],
  work_item_task_steers: ['created_at'],
  work_items: ['created_at', 'updated_at', 'started_at', 'ended_at', 'archived_at', 'queued_at'],
  worker_sessions: ['started_at', 'exited_at'],
  workers: ['started_at', 'heartbeat_at', 'stopped_at'],
};

const JSON_COLUMNS: Record<string, string[]> = {
  draft_steps: ['before'],
  drafts: ['files', 'base', 'last_parsed', 'rewritten'],
  events: ['payload'],
  intake_checks: ['started', 'skipped'],
  item_drafts: ['ops'],
  merge_requests: ['labels'],
  permission_asks: ['input'],
  work_items: [
    'attachments',
    'agent_overrides',
    'node_overrides',
    'policy_override',
    'chain_definition',
    'policy_snapshot',
    'walk',
    'skip_nodes',
    'workspace',
    'suggested_action',
  ],
  worker_sessions: ['argv', 'result', 'readout'],
};

const MONEY: Record<string, string[]> = {
  work_items: ['budget_usd', 'spent_usd'],
  worker_sessions: ['cost_usd'],
};

/*
 * jsonb cannot hold the escape \u0000 (a NUL), which JSON text written before could, nor text
 * that does not parse (a damaged row; the store names it when read). The first becomes U+FFFD, as
 * PostgreSQL text columns already keep it; the second is kept whole as a JSON string, which the
 * store still reads as damaged, rather than stopping the upgrade or losing the row. (A row that
 * holds both a NUL and the literal text `\\u0000` would see the latter changed too: accepted, as
 * the row was already one PostgreSQL could not store as written.)
 */
const JSONB_FROM_TEXT = `CREATE FUNCTION pg_temp.jig_jsonb(t text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $f$
BEGIN
  RETURN t::jsonb;
EXCEPTION WHEN others THEN
  BEGIN
    RETURN replace(t, '\\u0000', '\\ufffd')::jsonb;
  EXCEPTION WHEN others THEN
    RETURN to_jsonb(t);
  END;
END
$f$`;

export const typedColumns: Migration = {
  version: 32,
  name: 'typed-columns',
  async up(db: Kysely<unknown>, ctx) {
    if (ctx.dialect !== 'postgres') return;
    // A time written without an offset (none is: Jig writes toISOString) reads as UTC, whatever the server's zone.
    await sql`SET LOCAL TimeZone = 'UTC'`.execute(db);
    await sql.raw(JSONB_FROM_TEXT).execute(db);
    const tables = new Set([...Object.keys(TIMES), ...Object.keys(JSON_COLUMNS), ...Object.keys(MONEY)]);
    for (const table of [...tables].sort()) {
      const types: [string, string, string][] = [
        ...(TIMES[table] ?? []).map((c): [string, string, string] => [
          c,
          'timestamptz',
          `"${c}"::timestamptz`,
        ]),
        ...(JSON_COLUMNS[table] ?? []).map((c): [string, string, string] => [
          c,
          'jsonb',
          `pg_temp.jig_jsonb("${c}")`,
        ]),
        ...(MONEY[table] ?? []).map((c): [string, string, string] => [c, 'numeric', `"${c}"::text::numeric`]),
      ];
      // Dollars go through text: a double cast straight to numeric keeps 15 digits (0.1 + 0.2 would
      // become 0.3), its text form (PostgreSQL 12 and later) every digit it has.
      // A default ('[]' for a JSON list) is text too: dropped for the change and set again as the new type.
      const defaults = await sql<{ column_name: string; column_default: string }>`
        SELECT column_name, column_default FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = ${table} AND column_default IS NOT NULL`.execute(
        db,
      );
      const kept = new Map(defaults.rows.map((r) => [r.column_name, r.column_default]));
      const changes = types.flatMap(([c, type, using]) => {
        const d = kept.get(c);
        const change = `ALTER COLUMN "${c}" TYPE ${type} USING ${using}`;
        return d === undefined
          ? [change]
          : [`ALTER COLUMN "${c}" DROP DEFAULT`, change, `ALTER COLUMN "${c}" SET DEFAULT (${d})::${type}`];
      });
      // One ALTER per table: the table is rewritten once, whatever the number of columns.
      await sql.raw(`ALTER TABLE "${table}" ${changes.join(', ')}`).execute(db);
    }
    await sql`DROP FUNCTION pg_temp.jig_jsonb(text)`.execute(db);
  },
};
