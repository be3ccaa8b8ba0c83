import { describe, expect, it } from 'vitest';
import { firstLines, lineCount, newText, pairs, parsePatch, splitRows, wordDiff } from './unified.js';

const PATCH = `diff --git a/a.txt b/a.txt
index 1111111..2222222 100644
--- a/a.txt
+++ b/a.txt
@@ -1,4 +1,5 @@ intro
 one
-two
-three
+TWO
+three and more
+four
 five
\\ No newline at end of file
`;

describe('parsePatch', () => {
  it('numbers each line on its side and skips the headers and the no-newline note', () => {
    const hunks = parsePatch(PATCH);
    expect(hunks).toHaveLength(1);
    const h = hunks[0]!;
    expect(h.header).toBe('@@ -1,4 +1,5 @@ intro');
    expect(h.lines).toEqual([
      { kind: 'context', text: 'one', old: 1, new: 1 },
      { kind: 'del', text: 'two', old: 2, new: null },
      { kind: 'del', text: 'three', old: 3, new: null },
      { kind: 'add', text: 'TWO', old: null, new: 2 },
      { kind: 'add', text: 'three and more', old: null, new: 3 },
      { kind: 'add', text: 'four', old: null, new: 4 },
      { kind: 'context', text: 'five', old: 4, new: 5 },
    ]);
  });

  it('reads several hunks and a new file', () => {
    const hunks = parsePatch('@@ -0,0 +1,2 @@\n+a\n+b\n@@ -10 +11 @@\n-x\n+y\n');
    expect(hunks.map((h) => h.lines.map((l) => [l.kind, l.old, l.new]))).toEqual([
      [
        ['add', null, 1],
        ['add', null, 2],
      ],
      [
        ['del', 10, null],
        ['add', null, 11],
      ],
    ]);
  });

  it('keeps an empty context line (a lone space)', () => {
    expect(parsePatch('@@ -1,2 +1,2 @@\n \n-a\n+b\n')[0]?.lines[0]).toEqual({
      kind: 'context',
      text: '',
      old: 1,
      new: 1,
    });
  });
});

describe('splitRows', () => {
  it('starts a new pair run at a deletion after additions', () => {
    const rows = splitRows(parsePatch('@@ -1,2 +1,2 @@\n-a\n+b\n-c\n+d\n')[0]!.lines);
    expect(rows.map((r) => [r.left?.text ?? null, r.right?.text ?? null])).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('pairs a run of deletions with the additions after it, in order', () => {
    const rows = splitRows(parsePatch(PATCH)[0]!.lines);
    expect(rows.map((r) => [r.left?.text ?? null, r.right?.text ?? null])).toEqual([
      ['one', 'one'],
      ['two', 'TWO'],
      ['three', 'three and more'],
      [null, 'four'],
      ['five', 'five'],
    ]);
  });
});

describe('word diff', () => {
  it('marks only the words each side has', () => {
    expect(wordDiff('three', 'three and more')).toEqual({
      old: [{ text: 'three', changed: false }],
      new: [
        { text: 'three', changed: false },
        { text: ' and more', changed: true },
      ],
    });
  });

  it('pairs changed lines with their counterpart; unpaired and context lines have none', () => {
    const lines = parsePatch(PATCH)[0]!.lines;
    const p = pairs(lines);
    // one, two, three, TWO, three and more, four, five
    expect(lines.map((l) => p.get(l) ?? null)).toEqual([
      null,
      'TWO',
      'three and more',
      'two',
      'three',
      null,
      null,
    ]);
  });
});

describe('newText', () => {
  it('gives the new-side text of a range, the start of a suggestion', () => {
    expect(newText(parsePatch(PATCH), 2, 3)).toBe('TWO\nthree and more');
  });
});

describe('firstLines', () => {
  it('cuts the hunks after n lines in all, keeping whole hunks before the cut', () => {
    const hunks = parsePatch('@@ -0,0 +1,2 @@\n+a\n+b\n@@ -10 +11,2 @@\n-x\n+y\n+z\n');
    expect(lineCount(hunks)).toBe(5);
    const cut = firstLines(hunks, 3);
    expect(cut.map((h) => h.lines.map((l) => l.text))).toEqual([['a', 'b'], ['x']]);
    expect(cut[0]).toBe(hunks[0]);
    expect(firstLines(hunks, 2)).toEqual([hunks[0]]);
    expect(firstLines(hunks, 99)).toEqual(hunks);
  });
});
