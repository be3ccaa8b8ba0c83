// @vitest-environment happy-dom
import { act, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { DiffFile } from '../../../src/contract/review.js';
import { boardTest } from '../test-kit.js';
import { FileDiff, type FileDiffProps } from './file-diff.js';
import { CHUNK, useFileDiff } from './use-file-diff.js';

/*
 * One file of the review's diff (useFileDiff and FileDiff): drawn a chunk at a time, folded once
 * viewed, and a line number (shift-click for a range) starts a comment the page keeps until the
 * review is finished.
 */

const file: DiffFile = {
  path: 'a.txt',
  old_path: null,
  status: 'modified',
  additions: 2,
  deletions: 1,
  binary: false,
  viewed: false,
  patch: ['@@ -1,3 +1,4 @@', ' one', '-two', '+TWO', '+TWO and a half', ' three'].join('\n'),
  truncated: false,
};

/** A new file of `n` lines. */
const long = (n: number): DiffFile => ({
  ...file,
  path: 'big.txt',
  status: 'added',
  additions: n,
  deletions: 0,
  patch: [`@@ -0,0 +1,${n} @@`, ...Array.from({ length: n }, (_, i) => `+line ${i + 1}`)].join('\n'),
});

const props = (over: Partial<FileDiffProps> = {}): FileDiffProps => ({
  itemId: 'ab12cd34',
  file,
  split: false,
  words: true,
  commentable: true,
  threads: [],
  pending: [],
  onAdd: vi.fn(),
  onRemove: vi.fn(),
  onViewed: vi.fn(),
  viewedBusy: false,
  ...over,
});

describe('useFileDiff', () => {
  it('draws a long file a chunk at a time, folds a viewed one, and selects a range on one side', () => {
    const t = boardTest({});
    const lines = (h: { lines: unknown[] }[]) => h.reduce((n, x) => n + x.lines.length, 0);
    const { result } = t.hook(() => useFileDiff(long(1000), [], [], true));
    expect([result.current.total, result.current.limit, lines(result.current.drawn)]).toEqual([
      1000,
      CHUNK,
      400,
    ]);
    act(() => result.current.showMore());
    expect([result.current.limit, lines(result.current.drawn)]).toEqual([CHUNK * 6, 1000]);

    act(() => result.current.pick('new', 5, false));
    act(() => result.current.pick('new', 2, true));
    expect(result.current.sel).toEqual({ side: 'new', start: 2, end: 5 });
    // Shift on the other side starts anew there.
    act(() => result.current.pick('old', 3, true));
    expect(result.current.sel).toEqual({ side: 'old', start: 3, end: 3 });
    act(() => result.current.clearSelection());
    expect(result.current.sel).toBeNull();

    const viewed = t.hook(() => useFileDiff({ ...file, viewed: true }, [], [], true));
    expect(viewed.result.current.shown).toBe(false);
    act(() => viewed.result.current.setOpen(true));
    expect(viewed.result.current.shown).toBe(true);
  });
});

describe('FileDiff', () => {
  it('a line number starts a comment, shift-click makes it a range, and Add hands it to the page', async () => {
    const user = userEvent.setup();
    const p = props();
    boardTest({}).render(<FileDiff {...p} />);

    await user.click(screen.getByRole('button', { name: 'Comment on new line 1' }));
    await user.keyboard('{Shift>}');
    await user.click(screen.getByRole('button', { name: 'Comment on new line 3' }));
    await user.keyboard('{/Shift}');
    const form = screen.getByRole('form', { name: 'Comment on a.txt, new lines 1–3' });
    await user.type(within(form).getByRole('textbox', { name: 'Comment' }), 'Say it once.');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Label' }), 'nit');
    await user.click(within(form).getByRole('checkbox', { name: 'Suggest a change' }));
    expect(within(form).getByRole('textbox', { name: 'Suggested lines' })).toHaveProperty(
      'value',
      'one\nTWO\nTWO and a half',
    );
    await user.click(within(form).getByRole('button', { name: 'Add to your review' }));

    expect(p.onAdd).toHaveBeenCalledExactlyOnceWith({
      file_path: 'a.txt',
      side: 'new',
      start_line: 1,
      end_line: 3,
      body: 'Say it once.',
      label: 'nit',
      suggestion: 'one\nTWO\nTWO and a half',
    });
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('Viewed tells the page and folds the file; the fold button opens it again', async () => {
    const user = userEvent.setup();
    const p = props();
    boardTest({}).render(<FileDiff {...p} />);
    expect(screen.getByRole('region', { name: 'diff of a.txt' }).querySelector('header')?.textContent).toBe(
      '▾a.txtmodified+2 −1 Viewed',
    );

    await user.click(screen.getByRole('checkbox', { name: 'Viewed' }));
    expect(p.onViewed).toHaveBeenCalledExactlyOnceWith(true);
    const fold = screen.getByRole('button', { name: 'Unfold a.txt' });
    expect(fold.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('table')).toBeNull();

    await user.click(fold);
    expect(screen.getByRole('button', { name: 'Fold a.txt' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /^Comment on new line/ }).map((b) => b.textContent)).toEqual(
      ['1', '2', '3', '4'],
    );
  });

  it('draws a long file a chunk at a time, with Show more for the rest', async () => {
    const user = userEvent.setup();
    const { container } = boardTest({}).render(<FileDiff {...props({ file: long(450) })} />);
    const drawn = () => container.querySelectorAll('td.rv-code').length;
    expect(drawn()).toBe(400);
    expect(container.querySelector('.rv-more')?.textContent).toBe(
      'Show 50 more lines 50 of 450 not drawn yet',
    );

    await user.click(screen.getByRole('button', { name: 'Show 50 more lines' }));
    expect(drawn()).toBe(450);
    expect(container.querySelector('.rv-more')).toBeNull();
  });
});
