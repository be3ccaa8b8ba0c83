import { sql, type Kysely } from 'kysely';
import type { Migration } from '../migration-type.js';

/**
 * The search index (issue 24): one row per thing found (`search_entries`: an item, an event's text,
 * a review thread, a document, an attachment, a tracker issue, a chain, a library component),
 * unique by (kind, ref), and an FTS5 table over its title and body kept in step by triggers
 * (external content), so writing an entry is one ordinary upsert in the writer's own transaction.
 * Porter stemming: "running" finds "run".
 */
export const searchIndex: Migration = {
  version: 22,
  name: 'search-index',
  async up(db: Kysely<unknown>, ctx) {
    await db.schema
      .createTable('search_entries')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('ref', 'text', (c) => c.notNull())
      .addColumn('work_item_id', 'text')
      .addColumn('repo', 'text')
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('search_entries_ref', ['kind', 'ref'])
      .execute();
    await db.schema
      .createIndex('search_entries_by_item')
      .on('search_entries')
      .column('work_item_id')
      .execute();
    if (ctx.dialect === 'postgres') {
      // PostgreSQL's own full-text search in place of FTS5 (added for issue 27; SQLite's SQL below
      // is as shipped): a stored tsvector, title weighted above body, English stemming as porter's.
      await sql`ALTER TABLE search_entries ADD COLUMN tsv tsvector GENERATED ALWAYS AS (setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', body), 'B')) STORED`.execute(
        db,
      );
      await sql`CREATE INDEX search_entries_tsv ON search_entries USING gin (tsv)`.execute(db);
      return;
    }
    await sql`CREATE VIRTUAL TABLE search_fts USING fts5(title, body, content='search_entries', content_rowid='id', tokenize='porter unicode61')`.execute(
      db,
    );
    await sql`CREATE TRIGGER search_entries_ai AFTER INSERT ON search_entries BEGIN
      INSERT INTO search_fts(rowid, title, body) VALUES (new.id, new.title, new.body);
    END`.execute(db);
    await sql`CREATE TRIGGER search_entries_ad AFTER DELETE ON search_entries BEGIN
      INSERT INTO search_fts(search_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
    END`.execute(db);
    await sql`CREATE TRIGGER search_entries_au AFTER UPDATE ON search_entries BEGIN
      INSERT INTO search_fts(search_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
      INSERT INTO search_fts(rowid, title, body) VALUES (new.id, new.title, new.body);
    END`.execute(db);
  },
};
