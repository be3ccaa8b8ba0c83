import { describe, expect, it } from 'vitest';
import { cycleThrough } from './dependency-cycle.js';

const graph = (edges: Record<string, string[]>) => (id: string) => edges[id] ?? [];

describe('a cycle of dependencies', () => {
  it('is none for a chain or a diamond', () => {
    const g = graph({ b: ['c'], c: ['d'], e: ['d'] });
    expect(cycleThrough('a', ['b', 'e'], g)).toBeNull();
  });

  it('is the item itself when it would come after itself', () => {
    expect(cycleThrough('a', ['b', 'a'], graph({}))).toEqual(['a', 'a']);
  });

  it('is named from the item round to it again, a shortest one', () => {
    // a → b → c → a, and a longer way a → d → e → f → a.
    const g = graph({ b: ['c'], c: ['a'], d: ['e'], e: ['f'], f: ['a'] });
    expect(cycleThrough('a', ['d', 'b'], g)).toEqual(['a', 'b', 'c', 'a']);
    expect(cycleThrough('a', ['d'], g)).toEqual(['a', 'd', 'e', 'f', 'a']);
  });

  it('ends on a graph that already holds a cycle elsewhere', () => {
    const g = graph({ b: ['c'], c: ['b'] });
    expect(cycleThrough('a', ['b'], g)).toBeNull();
  });
});
