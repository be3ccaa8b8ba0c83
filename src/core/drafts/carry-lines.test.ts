import { describe, expect, it } from 'vitest';
import { carryLines } from './carry-lines.js';

describe('carryLines', () => {
  it('answers the original when nothing changed, and the change when nothing was reformatted', () => {
    expect(carryLines('a:  1\n', 'a: 1\n', 'a: 1\n')).toBe('a:  1\n');
    expect(carryLines('a: 1\n', 'a: 1\n', 'a: 2\n')).toBe('a: 2\n');
  });

  it('carries a change onto the original, away from lines the writer reformats', () => {
    const original = 'x: 1\nlist: # c\n  - 1\ny: 2\n';
    const before = 'x: 1\nlist:\n  # c\n  - 1\ny: 2\n';
    const after = 'x: 1\nlist:\n  # c\n  - 1\ny: 3\n';
    expect(carryLines(original, before, after)).toBe('x: 1\nlist: # c\n  - 1\ny: 3\n');
  });

  it('takes the reformatted block whole when the change touches it', () => {
    const original = 'p: >-\n  a b\n  c\nq: 1\n';
    const before = 'p: >-\n  a b c\nq: 1\n';
    const after = 'p: >-\n  a b d\nq: 1\n';
    expect(carryLines(original, before, after)).toBe('p: >-\n  a b d\nq: 1\n');
  });
});
