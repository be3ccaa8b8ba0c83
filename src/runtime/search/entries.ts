import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely, Transaction } from 'kysely';
import { stringify } from 'yaml';
import type { EventRecord } from '../../contract/events.js';
import { LIBRARY_FILE } from '../../core/chain/load-library.js';
import { parseYamlTree, toPlain, type AEntry } from '../../core/config/tree.js';
import type { Database } from '../../store/schema.js';
import { deleteEntries, upsertEntry, type SearchEntry } from '../../store/search.js';
import { readInside } from '../fs/safe-read.js';
import { readDocument } from '../fs/worktree-document.js';
import { commentsOf, getThread } from '../../store/threads.js';
import { getItem, type ItemRecord } from '../../store/work-items.js';

/*
 * What goes into the search index, one entry per thing (docs/search.md). Text Jig holds (items,
 * events, threads) is written in the transaction that changes it; text in files (documents,
 * attachments, chains, library) when the files are written or at a rescan.
 */

type Db = Kysely<Database> | Transaction<Database>;

/** The payload keys whose text a person would search for. */
const TEXT_KEYS = ['reason', 'message', 'summary', 'concerns', 'note', 'body', 'detail', 'text', 'question'];
/** Files larger than this are indexed by name only (the start is not worth the memory). */
const MAX_FILE = 1024 * 1024;

/** An event's text, or null when it carries none worth finding. */
export function eventText(e: Pick<EventRecord, 'payload'>): string | null {
  const parts = TEXT_KEYS.flatMap((k) => {
    const v = e.payload[k];
    return typeof v === 'string' && v.trim() !== '' ? [v] : [];
  });
  return parts.length > 0 ? parts.join('\n') : null;
}

/** What an item's entry is made of. */
type ItemText = Pick<ItemRecord, 'repo' | 'title' | 'description' | 'chain'>;

/** `known`: the item's text when the caller has just read it (null: no such item). */
export async function indexItem(db: Db, id: string, known?: ItemText | null): Promise<void> {
  const rec = known === undefined ? await getItem(db, id) : known;
  if (!rec) return;
  await upsertEntry(db, {
    kind: 'item',
    ref: id,
    work_item_id: id,
    repo: rec.repo,
    title: rec.title,
    // Not the branch: it is named from the title at filing and keeps that name after a rename.
    body: [rec.description, `chain ${rec.chain}`].join('\n'),
  });
}

export async function indexEvent(db: Db, e: EventRecord, repo: string | null): Promise<void> {
  const text = eventText(e);
  if (text === null) return;
  await upsertEntry(db, {
    kind: 'event',
    ref: String(e.seq),
    work_item_id: e.work_item_id,
    repo,
    title: `${e.type}${e.node ? ` at ${e.node}` : ''}`,
    body: text,
  });
}

export async function indexThread(db: Db, threadId: string, repo: string | null): Promise<void> {
  const t = await getThread(db, threadId);
  if (!t) return;
  const comments = await commentsOf(db, [threadId]);
  const where = t.file_path ? `${t.file_path}${t.start_line ? `:${t.start_line}` : ''}` : 'the change';
  await upsertEntry(db, {
    kind: 'thread',
    ref: threadId,
    work_item_id: t.item_id,
    repo,
    title: `${t.label ?? 'comment'} on ${where} (${t.state})`,
    body: [...comments.map((c) => c.body), t.suggestion ?? ''].filter(Boolean).join('\n\n'),
  });
}

/** Text, or null when it is binary (a NUL byte). */
const asText = (buf: Buffer): string | null => (buf.includes(0) ? null : buf.toString('utf8'));

/** A config file's text (Jig's own folder), or null (missing, too large, binary). */
function configText(path: string): string | null {
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size > MAX_FILE) return null;
    return asText(readFileSync(path));
  } catch {
    return null;
  }
}

/**
 * The item's documents (the artifacts its tasks produced) and attachments, from their files, in one
 * transaction. The worktree is an agent's: a document is read by the same rules as a gate reads it
 * (inside the worktree, no links out, no hard links, no FIFOs), an attachment only inside the
 * attachments folder. An item whose worktree is gone (archived, cleaned up) keeps what was indexed.
 */
export async function indexItemFiles(
  db: Kysely<Database>,
  id: string,
  attachmentsDir: string,
): Promise<number> {
  const rec = await getItem(db, id);
  if (!rec || rec.worktree_path === null) return 0;
  const worktree = rec.worktree_path;
  const entries: SearchEntry[] = [];
  for (const [name, rel] of Object.entries(rec.walk?.artifacts ?? {})) {
    const read = readDocument(worktree, rel);
    const text = read.ok && read.bytes.length <= MAX_FILE ? asText(read.bytes) : null;
    if (text !== null)
      entries.push({
        kind: 'document',
        ref: `${id}:${name}`,
        work_item_id: id,
        repo: rec.repo,
        title: `${name} (${rel})`,
        body: text,
      });
  }
  const dir = join(attachmentsDir, id);
  if (existsSync(dir))
    for (const f of readdirSync(dir)) {
      const read = readInside(attachmentsDir, `${id}/${f}`, {
        maxBytes: MAX_FILE,
        rootName: 'attachments folder',
      });
      const text = read.ok ? asText(read.bytes) : null;
      if (text !== null)
        entries.push({
          kind: 'attachment',
          ref: `${id}:${f}`,
          work_item_id: id,
          repo: rec.repo,
          title: `attachment ${f}`,
          body: text,
        });
    }
  await db.transaction().execute(async (tx) => {
    await deleteEntries(tx, 'document', id);
    await deleteEntries(tx, 'attachment', id);
    for (const e of entries) await upsertEntry(tx, e);
  });
  return entries.length;
}

/** Chains (their files' text) and library components, replacing what was indexed of them at once. */
export async function indexTemplates(db: Kysely<Database>, configDir: string): Promise<void> {
  const entries = templateEntries(configDir);
  await db.transaction().execute(async (tx) => {
    await deleteEntries(tx, 'chain');
    await deleteEntries(tx, 'library');
    for (const e of entries) await upsertEntry(tx, e);
  });
}

function templateEntries(configDir: string): SearchEntry[] {
  const out: SearchEntry[] = [];
  const chains = join(configDir, 'chains');
  if (existsSync(chains))
    for (const f of readdirSync(chains).filter((x) => x.endsWith('.yaml'))) {
      const text = configText(join(chains, f));
      if (text === null) continue;
      const id = f.slice(0, -'.yaml'.length);
      out.push({ kind: 'chain', ref: id, work_item_id: null, repo: null, title: `chain ${id}`, body: text });
    }
  const lib = configText(join(configDir, LIBRARY_FILE));
  // Parsed as the config loader parses it: the same text was parsed for the load just before, so
  // this is the remembered tree, not a second parse of the library (issue 43).
  const tree = lib === null ? null : parseYamlTree(lib, LIBRARY_FILE, 'library').tree;
  if (lib === null || tree?.t !== 'map') return out;
  const lines = lib.split('\n');
  // Sections of named components, read loosely (the config model checks the rest).
  tree.entries.forEach((section, i) => {
    if (section.value.t !== 'map') return;
    const components = section.value.entries;
    const sectionEnd = tree.entries[i + 1]?.keyPos.line ?? lines.length + 1;
    components.forEach((c, j) => {
      out.push({
        kind: 'library',
        ref: `${section.key}:${c.key}`,
        work_item_id: null,
        repo: null,
        title: `${section.key} ${c.key}`,
        // On its section's line, the section is in flow style: no lines of its own.
        body: componentText(
          lines,
          c,
          c.keyPos.line === section.keyPos.line
            ? c.keyPos.line
            : (components[j + 1]?.keyPos.line ?? sectionEnd),
        ),
      });
    });
  });
  return out;
}

/**
 * A library component as its author wrote it: its lines in the file, up to the next component (a
 * slice, where writing each one out as YAML again was a tenth of a start). A component written in
 * flow style on one line with others is written out instead.
 */
function componentText(lines: string[], c: AEntry, nextLine: number): string {
  const text = lines
    .slice(c.keyPos.line - 1, nextLine - 1)
    .join('\n')
    .trimEnd();
  return nextLine > c.keyPos.line && text !== '' ? text : stringify({ [c.key]: toPlain(c.value) });
}

/** Items' text, read at most this many at a time (SQLite binds up to 32 766 values). */
const ITEMS_PER_READ = 500;

async function itemTexts(db: Db, ids: readonly string[]): Promise<Map<string, ItemText>> {
  const out = new Map<string, ItemText>();
  for (let i = 0; i < ids.length; i += ITEMS_PER_READ) {
    const rows = await db
      .selectFrom('work_items')
      .select(['id', 'repo', 'title', 'description', 'chain'])
      .where('id', 'in', ids.slice(i, i + ITEMS_PER_READ))
      .execute();
    for (const r of rows) out.set(r.id, r);
  }
  return out;
}

/**
 * The entries events change (the item, event text, a thread): in the writer's transaction, or
 * after it for a batch of commits (deferred-index.ts). The items are read once for all the events,
 * as they are now: an item renamed since an event was written is found by its new title.
 */
export async function indexEvents(db: Transaction<Database>, events: readonly EventRecord[]): Promise<void> {
  const items = await itemTexts(db, [...new Set(events.map((e) => e.work_item_id).filter(Boolean))]);
  for (const e of events) {
    if (!e.work_item_id) continue;
    const item = items.get(e.work_item_id) ?? null;
    if (e.type === 'work_item_created' || e.type === 'title_changed' || e.type === 'description_changed')
      await indexItem(db, e.work_item_id, item);
    if (e.type === 'thread_updated' && typeof e.payload.thread === 'string')
      await indexThread(db, e.payload.thread, item?.repo ?? null);
    await indexEvent(db, e, item?.repo ?? null);
  }
}
