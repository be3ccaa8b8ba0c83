import { describe, expect, it } from 'vitest';
import { anItem } from '../fixtures.js';
import { boardEntries, distinct, filterItems } from './entries.js';

const login = anItem({ id: 'ab12cd34', title: 'Fix the login', chain: 'default', repo: '/src/app' });
const docs = anItem({ id: 'ef56ab78', title: 'Write the docs', chain: 'quick', repo: '/src/site' });
const done = anItem({
  id: 'cd90ef12',
  title: 'Old work',
  status: 'completed',
  display_status: 'done',
  ended_at: '2026-11-24T11:00:00.000Z',
});

describe('filterItems', () => {
  it('matches words of a title or the start of an id, and narrows by chain and repository', () => {
    const all = [login, docs, done];
    expect(filterItems(all, { q: ' LOGIN ', chain: '', repo: '' })).toEqual([login]);
    expect(filterItems(all, { q: 'ef56', chain: '', repo: '' })).toEqual([docs]);
    expect(filterItems(all, { q: 'ab56', chain: '', repo: '' })).toEqual([]);
    expect(filterItems(all, { q: '', chain: 'quick', repo: '' })).toEqual([docs]);
    expect(filterItems(all, { q: 'the', chain: '', repo: '/src/app' })).toEqual([login]);
  });

  it('offers each chain and repository once, sorted', () => {
    expect(distinct([docs, login, docs], 'chain')).toEqual(['default', 'quick']);
    expect(distinct([docs, login], 'repo')).toEqual(['/src/app', '/src/site']);
  });
});

describe('boardEntries', () => {
  const by = { group: 'status', sort: 'attention', allDone: false, showDone: undefined } as const;

  it('draws a header per group, "Nothing here." under an empty one, and the rows', () => {
    const entries = boardEntries([login], false, by);
    expect(entries.map((e) => (e.kind === 'row' ? `row ${e.item.id} in ${e.group}` : e.kind))).toEqual([
      'header',
      'empty',
      'header',
      'empty',
      'header',
      `row ${login.id} in not_started`,
      'header',
      'empty',
    ]);
  });

  it('cuts Done to its newest few with "show all" under it, unless all are asked for', () => {
    const ended = Array.from({ length: 3 }, (_, i) => ({ ...done, id: `done000${i}` }));
    const cut = boardEntries(ended, false, { ...by, showDone: 1 });
    expect(cut.at(-1)).toEqual({ kind: 'more', hidden: 2 });
    expect(boardEntries(ended, false, { ...by, showDone: 1, allDone: true }).at(-1)?.kind).toBe('row');
  });

  it('lists the archived items flat, in the order given', () => {
    expect(boardEntries([docs, login], true, by)).toEqual([
      { kind: 'row', item: docs, group: null },
      { kind: 'row', item: login, group: null },
    ]);
  });
});
