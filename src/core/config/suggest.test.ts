import { describe, expect, it } from 'vitest';
import { ChainFile } from '../../contract/config/chain.js';
import { keysAt } from './schema-keys.js';
import { didYouMean, distance, suggest } from './suggest.js';

describe('suggest', () => {
  it('names a close known word', () => {
    expect(suggest('promt', ['prompt', 'profile'])).toBe('prompt');
    expect(didYouMean('skipable', ['skippable'])).toBe('; did you mean `skippable`?');
  });
  it('stays quiet for a far or exact word', () => {
    expect(suggest('banana', ['prompt', 'profile'])).toBeUndefined();
    expect(suggest('prompt', ['prompt'])).toBeUndefined();
    expect(didYouMean('x', [])).toBe('');
  });
  it('counts a swap of neighbouring letters as one edit', () => {
    expect(distance('kidn', 'kind')).toBe(1);
    expect(distance('kidn', 'id')).toBe(2);
    expect(distance('', 'abc')).toBe(3);
    expect(suggest('kidn', ['id', 'kind'])).toBe('kind');
  });
  it('ranks a key already written beside the typo last', () => {
    // Both are one edit from `ids`; the key already written is not what the typo meant.
    expect(suggest('ids', ['id', 'ids_x'], { present: ['id'] })).toBe('ids_x');
    expect(suggest('ide', ['id'], { present: ['id'] })).toBe('id');
  });
  it('suggests `kind` for `kidn` on a chain node, among the keys valid there', () => {
    const node = { id: 'verify', kidn: 'exec', tasks: [] };
    const known = keysAt(ChainFile, { nodes: [node] }, ['nodes', 0]);
    expect(known).toContain('id');
    expect(didYouMean('kidn', known, { present: Object.keys(node) })).toBe('; did you mean `kind`?');
  });
  it('prefers a longer shared start, then shared letters, on equal distance', () => {
    expect(suggest('mode', ['xmode', 'model'])).toBe('model');
    expect(suggest('abcx', ['abyz', 'abzc'])).toBe('abzc');
  });
  it('compares a megabyte-long word with nothing, and stays linear in the words hinted', () => {
    // The route fuzz sends such keys: length × length per known word held the server for minutes.
    const huge = 'k'.repeat(1 << 20);
    expect(suggest(huge, ['kind', 'id', 'k'.repeat(40)])).toBeUndefined();
    const present = new Set(Array.from({ length: 10_000 }, (_, i) => `key${i}`));
    for (const k of [...present].slice(0, 100)) expect(suggest(k, ['kind'], { present })).toBeUndefined();
    expect(suggest('kidn', ['kind'], { present: new Set(['kind']) })).toBe('kind');
  });
});
