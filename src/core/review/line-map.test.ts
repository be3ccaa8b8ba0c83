import { describe, expect, it } from 'vitest';
import { mapRange, parseHunks } from './line-map.js';

describe('mapRange', () => {
  const hunks = parseHunks(
    [
      'diff --git a/f b/f',
      '@@ -2,0 +3,2 @@', // two lines inserted after line 2
      '+a',
      '+b',
      '@@ -10 +12 @@', // line 10 replaced
      '-x',
      '+y',
      '@@ -20,3 +22,0 @@', // lines 20-22 deleted
    ].join('\n'),
  );

  it('reads the hunk headers, counts defaulting to 1', () => {
    expect(hunks).toEqual([
      { oldStart: 2, oldCount: 0, newStart: 3, newCount: 2 },
      { oldStart: 10, oldCount: 1, newStart: 12, newCount: 1 },
      { oldStart: 20, oldCount: 3, newStart: 22, newCount: 0 },
    ]);
  });

  it('keeps lines above every change, moves lines below, and drops lines a change replaced', () => {
    expect(mapRange(hunks, 1, 2)).toEqual({ start: 1, end: 2 });
    expect(mapRange(hunks, 5, 7)).toEqual({ start: 7, end: 9 });
    expect(mapRange(hunks, 9, 11)).toBeNull();
    expect(mapRange(hunks, 12, 15)).toEqual({ start: 14, end: 17 });
    expect(mapRange(hunks, 21, 21)).toBeNull();
    expect(mapRange(hunks, 30, 31)).toEqual({ start: 29, end: 30 });
    // An insertion inside the range changes it too.
    expect(mapRange(hunks, 2, 4)).toBeNull();
  });
});
