import { describe, expect, it } from 'vitest';
import { ftsQuery } from './fts-query.js';

describe('a person’s words as an FTS5 query', () => {
  it('quotes every word, the last as a prefix too', () => {
    expect(ftsQuery('parser crash')).toBe('"parser" "crash"*');
    expect(ftsQuery('  tokenizer ')).toBe('"tokenizer"*');
    expect(ftsQuery('naïve café_2')).toBe('"naïve" "café_2"*');
  });

  it('reads FTS5 syntax as plain words, and answers null when there is no word', () => {
    expect(ftsQuery('a OR b NEAR("c" -d:*)')).toBe('"a" "OR" "b" "NEAR" "c" "d"*');
    expect(ftsQuery('!!! --- ()')).toBeNull();
    expect(ftsQuery('')).toBeNull();
  });

  it('keeps 32 words at most', () => {
    expect(ftsQuery(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))!.split(' ')).toHaveLength(32);
  });
});
