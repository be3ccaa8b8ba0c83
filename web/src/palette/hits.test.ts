import { describe, expect, it } from 'vitest';
import type { SearchHit } from '../../../src/contract/search.js';
import { byKind, hasWord, placeOf, snippetParts } from './hits.js';

const hit = (over: Partial<SearchHit>): SearchHit => ({
  kind: 'item',
  ref: 'abc',
  work_item_id: 'abc',
  repo: '/r',
  title: 't',
  snippet: '',
  score: 1,
  ...over,
});

describe('search hits in the palette', () => {
  it('opens each kind in its place', () => {
    expect(placeOf(hit({}))).toBe('/work-items/abc');
    expect(placeOf(hit({ kind: 'document', ref: 'abc:spec' }))).toBe('/work-items/abc');
    expect(placeOf(hit({ kind: 'thread', ref: '7' }))).toBe('/work-items/abc/review');
    expect(placeOf(hit({ kind: 'chain', ref: 'default', work_item_id: null }))).toBe(
      '/templates/chains/default',
    );
    expect(placeOf(hit({ kind: 'library', ref: 'tasks:x', work_item_id: null }))).toBe('/templates/library');
    expect(placeOf(hit({ kind: 'issue', ref: 'bd-1', work_item_id: null }))).toBeNull();
  });

  it('cuts a snippet at its marks', () => {
    expect(snippetParts('The «zebra» needs a «hand»shake')).toEqual([
      { text: 'The ', hit: false },
      { text: 'zebra', hit: true },
      { text: ' needs a ', hit: false },
      { text: 'hand', hit: true },
      { text: 'shake', hit: false },
    ]);
    expect(snippetParts('plain')).toEqual([{ text: 'plain', hit: false }]);
  });

  it('groups by kind in a fixed order, keeping the order within a kind', () => {
    const a = hit({ kind: 'event', ref: '1' });
    const b = hit({ kind: 'item', ref: 'x' });
    const c = hit({ kind: 'event', ref: '2' });
    expect(byKind([a, b, c])).toEqual([
      ['item', [b]],
      ['event', [a, c]],
    ]);
  });

  it('asks only with a word in the query', () => {
    expect(hasWord('  "*" ')).toBe(false);
    expect(hasWord('zeb')).toBe(true);
  });
});
