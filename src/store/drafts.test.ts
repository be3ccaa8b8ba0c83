import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './database.js';
import {
  dropDraft,
  getDraft,
  listDrafts,
  popStep,
  recordStep,
  saveDraft,
  stepCount,
  type DraftRecord,
} from './drafts.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
async function store(path?: string): Promise<{ store: Store; path: string }> {
  const p = path ?? join(mkdtempSync(join(tmpdir(), 'jig-drafts-')), 'jig.db');
  if (!path) dirs.push(join(p, '..'));
  const s = await openStore(p);
  stores.push(s);
  return { store: s, path: p };
}

const FILE = 'chains/fast.yaml';
const at = (s: number) => new Date(Date.UTC(2026, 10, 24, 9, 0, s)).toISOString();
const draft = (text: string, updated: string, extra: Partial<DraftRecord> = {}): DraftRecord => ({
  area: 'chains',
  key: 'fast',
  files: { [FILE]: text },
  base: { [FILE]: 'a'.repeat(64) },
  last_parsed: { [FILE]: { nodes: [] } },
  changes: 1,
  problems: 0,
  updated_at: updated,
  ...extra,
});

describe('drafts', () => {
  it('saves, reads back, lists newest first, survives a reopen, and drops with its steps', async () => {
    const { store: s, path } = await store();
    await saveDraft(s.db, draft('nodes: []\n', at(1)));
    await saveDraft(s.db, {
      ...draft('', at(2)),
      area: 'library',
      key: 'library',
      files: { 'library.yaml': null },
      base: { 'library.yaml': null },
    });
    await saveDraft(s.db, draft('nodes: [a]\n', at(3), { changes: 2, problems: 1 }));
    await recordStep(s.db, { area: 'chains', key: 'fast', kind: 'ops', file: null, now: at(3) }, null);
    expect((await listDrafts(s.db)).map((d) => [d.area, d.key, d.updated_at])).toEqual([
      ['chains', 'fast', at(3)],
      ['library', 'library', at(2)],
    ]);
    await s.close();
    stores.splice(0);
    const again = (await store(path)).store;
    expect(await getDraft(again.db, 'chains', 'fast')).toEqual(
      draft('nodes: [a]\n', at(3), { changes: 2, problems: 1 }),
    );
    expect(await getDraft(again.db, 'library', 'library')).toMatchObject({ files: { 'library.yaml': null } });
    expect(await dropDraft(again.db, 'chains', 'fast')).toBe(true);
    expect(await getDraft(again.db, 'chains', 'fast')).toBeNull();
    expect(await stepCount(again.db, 'chains', 'fast')).toBe(0);
    expect(await dropDraft(again.db, 'chains', 'fast')).toBe(false);
  });

  it('coalesces PUTs to one file less than 4 s apart into one step, measured from the previous PUT', async () => {
    const { store: s } = await store();
    const key = { area: 'chains', key: 'fast', kind: 'put' as const, file: FILE };
    const v1 = { files: { [FILE]: 'v1' }, base: { [FILE]: null } };
    expect(await recordStep(s.db, { ...key, now: at(0) }, null)).toBe(true);
    expect(await recordStep(s.db, { ...key, now: at(3) }, v1)).toBe(false); // 3 s later: same step
    expect(await recordStep(s.db, { ...key, now: at(6) }, v1)).toBe(false); // 3 s after that: still
    expect(await recordStep(s.db, { ...key, now: at(11) }, { ...v1, files: { [FILE]: 'v3' } })).toBe(true); // 5 s
    expect(await recordStep(s.db, { ...key, file: 'library.yaml', now: at(12) }, v1)).toBe(true);
    expect(await stepCount(s.db, 'chains', 'fast')).toBe(3);
    expect(await popStep(s.db, 'chains', 'fast')).toEqual({ before: v1 });
    expect(await popStep(s.db, 'chains', 'fast')).toEqual({ before: { ...v1, files: { [FILE]: 'v3' } } });
    // The first run of PUTs undoes back to no draft at all.
    expect(await popStep(s.db, 'chains', 'fast')).toEqual({ before: null });
    expect(await popStep(s.db, 'chains', 'fast')).toBeNull();
  });

  it('keeps the newest 80 steps', async () => {
    const { store: s } = await store();
    for (let i = 1; i <= 85; i++) {
      const before = { files: { [FILE]: `v${i - 1}` }, base: { [FILE]: null } };
      await recordStep(s.db, { area: 'chains', key: 'fast', kind: 'ops', file: null, now: at(i) }, before);
    }
    expect(await stepCount(s.db, 'chains', 'fast')).toBe(80);
    let oldest = '';
    for (let out = await popStep(s.db, 'chains', 'fast'); out; out = await popStep(s.db, 'chains', 'fast')) {
      oldest = out.before?.files[FILE] ?? 'none';
    }
    // Steps 1–5 (before-states v0–v4) were dropped; the oldest kept goes back to v5.
    expect(oldest).toBe('v5');
  });

  it('says which draft a damaged row belongs to instead of answering a guess', async () => {
    const { store: s } = await store();
    await saveDraft(s.db, draft('x', at(1)));
    s.raw!.prepare('UPDATE drafts SET files = \'{"chains/fast.yaml": 3}\'').run();
    await expect(getDraft(s.db, 'chains', 'fast')).rejects.toThrow(
      /^the chains\/fast draft's files does not match its schema/,
    );
  });
});
