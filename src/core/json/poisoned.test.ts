import { describe, expect, it } from 'vitest';
import { poisonedKey } from './poisoned.js';

describe('poisonedKey', () => {
  it('finds nothing in bodies without the two keys', () => {
    expect(poisonedKey(null)).toBe(null);
    expect(poisonedKey('__proto__')).toBe(null);
    expect(poisonedKey({ a: { constructor: 1, prototype: {} }, b: ['__proto__'] })).toBe(null);
  });

  it('names the path to a __proto__ key, and to prototype inside constructor', () => {
    expect(poisonedKey(JSON.parse('{"a":{"b":[{"__proto__":{}}]}}'))).toEqual(['a', 'b', '0', '__proto__']);
    expect(poisonedKey(JSON.parse('{"x":{"constructor":{"prototype":1}}}'))).toEqual([
      'x',
      'constructor',
      'prototype',
    ]);
  });

  it('walks a body far deeper than the stack without overflowing', () => {
    const depth = 100_000;
    const deep = JSON.parse(`${'['.repeat(depth)}{"__proto__":1}${']'.repeat(depth)}`) as unknown;
    const path = poisonedKey(deep);
    expect(path).toHaveLength(depth + 1);
    expect(path?.at(-1)).toBe('__proto__');
  });
});
