import { describe, expect, it } from 'vitest';
import type { ReviewThread } from '../../../src/contract/threads.js';
import { isSelected, keysOf, pick, placeComments, shownKeys } from './file-diff-model.js';
import type { Pending } from './review-data.js';
import { parsePatch } from './unified.js';

const patch = ['@@ -1,3 +1,3 @@', ' one', '-two', '+TWO', ' three'].join('\n');

const thread = (over: Partial<ReviewThread>): ReviewThread =>
  ({
    id: 't1',
    file_path: 'a.txt',
    side: 'new',
    start_line: 2,
    end_line: 2,
    lines_now: { start: 2, end: 2 },
    outdated: false,
    ...over,
  }) as ReviewThread;

const pending: Pending = {
  key: 'p1',
  file_path: 'a.txt',
  side: 'old',
  start_line: 2,
  end_line: 2,
  body: 'why?',
  label: null,
  suggestion: null,
};

describe('file diff model', () => {
  it('keys each drawn line by its side and number', () => {
    const [h] = parsePatch(patch);
    expect(keysOf(h!.lines)).toEqual(['old:1', 'new:1', 'old:2', '', '', 'new:2', 'old:3', 'new:3']);
    expect([...shownKeys(parsePatch(patch))].sort()).toEqual([
      'new:1',
      'new:2',
      'new:3',
      'old:1',
      'old:2',
      'old:3',
    ]);
  });

  it('selects a line, and with shift a range on the same side', () => {
    const one = pick(null, 'new', 5, false);
    expect(one).toEqual({ side: 'new', start: 5, end: 5 });
    expect(pick(one, 'new', 2, true)).toEqual({ side: 'new', start: 2, end: 5 });
    expect(pick(one, 'old', 2, true)).toEqual({ side: 'old', start: 2, end: 2 });
    expect([isSelected(one, 'new', 5), isSelected(one, 'old', 5), isSelected(one, 'new', null)]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('puts a comment under the line it ends on, and above the file when that line is not drawn', () => {
    const shown = shownKeys(parsePatch(patch));
    const far = thread({ id: 't2', lines_now: { start: 40, end: 41 } });
    const general = thread({ id: 't3', start_line: null, end_line: null, lines_now: null });
    const { at, loose } = placeComments([thread({}), far, general], [pending], shown, true);
    expect([...at.keys()]).toEqual(['new:2', 'old:2']);
    expect(at.get('new:2')).toEqual([{ kind: 'thread', thread: thread({}) }]);
    expect(at.get('old:2')).toEqual([{ kind: 'pending', pending }]);
    expect(loose.map((p) => (p.kind === 'thread' ? p.thread.id : p.pending.key))).toEqual(['t2', 't3']);
  });

  it('keeps every comment above the file when the compare does not end at the worktree', () => {
    const { at, loose } = placeComments([thread({})], [pending], shownKeys(parsePatch(patch)), false);
    expect(at.size).toBe(0);
    expect(loose).toHaveLength(2);
  });
});
