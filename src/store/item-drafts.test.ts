import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from './database.js';
import { skippedScopes } from './item-drafts.js';

const dir = mkdtempSync(join(tmpdir(), 'jig-item-drafts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('skippedScopes', () => {
  it('keeps skips until a revision adds a node of that id anew, and reads past a damaged row', async () => {
    const store = await openStore(join(dir, 'jig.db'));
    const db = store.db;
    // The rows alone matter here, not a whole item.
    await sql`PRAGMA foreign_keys = OFF`.execute(db);
    const event = (type: string, payload: string) =>
      db
        .insertInto('events')
        .values({ work_item_id: 'i1', type, by: 'human', node: null, payload, at: '2026-11-24T10:00:00Z' })
        .execute();
    await event('scope_skipped', JSON.stringify({ path: 'build.main', node: 'build', source: 'draft' }));
    await event('scope_skipped', JSON.stringify({ path: 'lint.main.eslint', node: 'lint', source: 'draft' }));
    await event('scope_skipped', '{not json');
    expect([...(await skippedScopes(db, 'i1'))].sort()).toEqual(['build.main', 'lint.main.eslint']);
    await event(
      'chain_revised',
      JSON.stringify({ source: 'draft', added: ['build'], removed: ['build'], overridden: [] }),
    );
    expect([...(await skippedScopes(db, 'i1'))]).toEqual(['lint.main.eslint']);
    await event('scope_skipped', JSON.stringify({ path: 'build.main.make', node: 'build', source: 'draft' }));
    expect([...(await skippedScopes(db, 'i1'))].sort()).toEqual(['build.main.make', 'lint.main.eslint']);
    expect([...(await skippedScopes(db, 'other'))]).toEqual([]);
    await store.close();
  });
});
