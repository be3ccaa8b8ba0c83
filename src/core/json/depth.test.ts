import { describe, expect, it } from 'vitest';
import { tooDeep } from './depth.js';

const nest = (depth: number, leaf: unknown = 1): unknown => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
};

describe('tooDeep', () => {
  it('accepts scalars and bodies up to the bound', () => {
    expect(tooDeep(null, 3)).toBe(null);
    expect(tooDeep('text', 3)).toBe(null);
    expect(tooDeep(nest(3), 3)).toBe(null);
    expect(tooDeep({ a: [1, { b: 2 }], c: {} }, 3)).toBe(null);
  });

  it('names the path to the first object past the bound', () => {
    expect(tooDeep(nest(4), 3)).toEqual(['a', 'a', 'a']);
    expect(tooDeep({ ok: 1, list: [0, [[[{}]]]] }, 3)).toEqual(['list', '1', '0']);
  });

  it('walks a body far deeper than the stack without overflowing', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)) as unknown;
    expect(tooDeep(deep, 32)).toHaveLength(32);
  });
});
