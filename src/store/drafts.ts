import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import { joinsLastStep, UNDO_STEPS_KEPT, type StepKind } from '../core/drafts/undo.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database> | Transaction<Database>;

/** A draft's files by name: the text it holds, or null for a file the draft deletes. */
const DraftFiles = z.record(z.string(), z.string().nullable());
/** Each file's sha256 when it joined the draft, or null for a file that did not exist then. */
const DraftBase = z.record(z.string(), z.string().nullable());
const DraftState = z.strictObject({ files: DraftFiles, base: DraftBase });
/** Each file's newest draft text that parsed, as the mapping it parsed to. */
const LastParsed = z.record(z.string(), z.unknown());

/** What a draft holds: its files' text and each file's base. */
export type DraftState = z.infer<typeof DraftState>;

export interface DraftRecord extends DraftState {
  area: string;
  key: string;
  /** Per file, what its newest draft text that parsed parses to (the result's `model` meanwhile). */
  last_parsed: Record<string, unknown>;
  /** Counts as of the draft's last write (the draft list shows them without recomputing). */
  changes: number;
  problems: number;
  updated_at: string;
}

/** A stored JSON map that does not parse is a damaged row: said with the draft it belongs to. */
function parsed<T>(schema: z.ZodType<T>, text: string, what: string): T {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`${what} is not JSON`);
  }
  const r = schema.safeParse(raw);
  if (!r.success) throw new Error(`${what} does not match its schema: ${r.error.issues[0]?.message ?? ''}`);
  return r.data;
}

function fromRow(r: Database['drafts']): DraftRecord {
  const where = `the ${r.area}/${r.key} draft's`;
  return {
    area: r.area,
    key: r.key,
    files: parsed(DraftFiles, r.files, `${where} files`),
    base: parsed(DraftBase, r.base, `${where} base`),
    last_parsed: parsed(LastParsed, r.last_parsed, `${where} last parsed models`),
    changes: r.changes,
    problems: r.problems,
    updated_at: r.updated_at,
  };
}

export async function getDraft(db: Db, area: string, key: string): Promise<DraftRecord | null> {
  const row = await db
    .selectFrom('drafts')
    .selectAll()
    .where('area', '=', area)
    .where('key', '=', key)
    .executeTakeFirst();
  return row ? fromRow(row) : null;
}

/** Every open draft, the newest write first. */
export async function listDrafts(db: Db): Promise<DraftRecord[]> {
  const rows = await db.selectFrom('drafts').selectAll().orderBy('updated_at', 'desc').execute();
  return rows.map(fromRow);
}

/** Writes the draft whole (opening it when there was none). */
export async function saveDraft(db: Db, d: DraftRecord): Promise<void> {
  const row = {
    area: d.area,
    key: d.key,
    files: JSON.stringify(d.files),
    base: JSON.stringify(d.base),
    last_parsed: JSON.stringify(d.last_parsed),
    // Ops write over a file's own text since issue 48: nothing is rewritten whole any more.
    rewritten: '[]',
    changes: d.changes,
    problems: d.problems,
    updated_at: d.updated_at,
  };
  await db
    .insertInto('drafts')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['area', 'key']).doUpdateSet({
        files: row.files,
        base: row.base,
        last_parsed: row.last_parsed,
        changes: row.changes,
        problems: row.problems,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

/** Drops the draft and its undo steps (a discard, a publish, a PUT back to the published text). */
export async function dropDraft(db: Db, area: string, key: string): Promise<boolean> {
  await db.deleteFrom('draft_steps').where('area', '=', area).where('key', '=', key).execute();
  const r = await db.deleteFrom('drafts').where('area', '=', area).where('key', '=', key).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/**
 * Records one request as an undo step: `before` is the draft as it was (null when there was none).
 * A PUT that joins the last step (core/drafts/undo.ts) only moves that step's time on, so undoing
 * it goes back to before the first PUT of the run. Keeps the newest 80 steps. Answers whether a
 * step was pushed.
 */
export async function recordStep(
  db: Db,
  at: { area: string; key: string; kind: StepKind; file: string | null; now: string },
  before: DraftState | null,
): Promise<boolean> {
  const mine = db.selectFrom('draft_steps').where('area', '=', at.area).where('key', '=', at.key);
  const last = await mine.selectAll().orderBy('seq', 'desc').limit(1).executeTakeFirst();
  const lastStep = last
    ? {
        kind: last.kind === 'put' ? ('put' as const) : ('ops' as const),
        file: last.file,
        touchedAt: Date.parse(last.touched_at),
      }
    : null;
  if (last && at.kind === 'put' && at.file !== null && joinsLastStep(lastStep, at.file, Date.parse(at.now))) {
    await db
      .updateTable('draft_steps')
      .set({ touched_at: at.now })
      .where('area', '=', at.area)
      .where('key', '=', at.key)
      .where('seq', '=', last.seq)
      .execute();
    return false;
  }
  const seq = (last?.seq ?? 0) + 1;
  await db
    .insertInto('draft_steps')
    .values({
      area: at.area,
      key: at.key,
      seq,
      kind: at.kind,
      file: at.file,
      before: before === null ? null : JSON.stringify(before),
      touched_at: at.now,
    })
    .execute();
  await db
    .deleteFrom('draft_steps')
    .where('area', '=', at.area)
    .where('key', '=', at.key)
    .where('seq', '<=', seq - UNDO_STEPS_KEPT)
    .execute();
  return true;
}

/**
 * Takes the newest undo step off: answers the draft as it was before that step (`before: null`
 * when it had no draft then), or null when there is nothing to undo.
 */
export async function popStep(
  db: Db,
  area: string,
  key: string,
): Promise<{ before: DraftState | null } | null> {
  const last = await db
    .selectFrom('draft_steps')
    .selectAll()
    .where('area', '=', area)
    .where('key', '=', key)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!last) return null;
  await db
    .deleteFrom('draft_steps')
    .where('area', '=', area)
    .where('key', '=', key)
    .where('seq', '=', last.seq)
    .execute();
  const before =
    last.before === null ? null : parsed(DraftState, last.before, `the ${area}/${key} draft's undo step`);
  return { before };
}

/** How many undo steps the draft keeps. */
export async function stepCount(db: Db, area: string, key: string): Promise<number> {
  const row = await db
    .selectFrom('draft_steps')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('area', '=', area)
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
