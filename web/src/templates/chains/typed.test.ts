import { describe, expect, it } from 'vitest';
import { isScalarList, isScalarMap, linesToList, typedText } from './typed.js';

describe('typed values', () => {
  it('reads a list one item per line, blank lines dropped, numbers kept when the list held them', () => {
    expect(linesToList('sh\n -c \n\necho made\n', false)).toEqual(['sh', '-c', 'echo made']);
    expect(linesToList('1\n2\nthree', true)).toEqual([1, 2, 'three']);
    expect(linesToList('1\n2', false)).toEqual(['1', '2']);
    expect(linesToList('\n', false)).toEqual([]);
  });

  it('reads typed text as YAML would: numbers, booleans, JSON lists and mappings, else text', () => {
    expect(typedText('30')).toBe(30);
    expect(typedText('true')).toBe(true);
    expect(typedText('["a", "b"]')).toEqual(['a', 'b']);
    expect(typedText('{"K": "v"}')).toEqual({ K: 'v' });
    expect(typedText('[not json')).toBe('[not json');
    expect(typedText('echo hi')).toBe('echo hi');
    expect(typedText('')).toBe('');
  });

  it('tells lists and mappings of scalars from deeper values', () => {
    expect(isScalarList(['a', 1, true])).toBe(true);
    expect(isScalarList([{ profile: 'x' }])).toBe(false);
    expect(isScalarMap({ a: '1m', b: 2 })).toBe(true);
    expect(isScalarMap({ a: { b: 1 } })).toBe(false);
    expect(isScalarMap(['a'])).toBe(false);
  });
});
