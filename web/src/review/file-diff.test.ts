import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { DiffFile } from '../../../src/contract/review.js';
import type { ReviewThread } from '../../../src/contract/threads.js';
import { FileDiff, type FileDiffProps } from './file-diff.js';

const file: DiffFile = {
  path: 'a.txt',
  old_path: null,
  status: 'modified',
  additions: 1,
  deletions: 1,
  binary: false,
  viewed: false,
  patch: ['@@ -1,3 +1,3 @@', ' one', '-two', '+TWO', ' three'].join('\n'),
  truncated: false,
};

const thread: ReviewThread = {
  id: 't1',
  file_path: 'a.txt',
  start_line: 2,
  end_line: 2,
  side: 'new',
  label: 'must-fix',
  suggestion: null,
  state: 'open',
  anchor_sha: null,
  lines_now: { start: 2, end: 2 },
  outdated: false,
  claim: null,
  comments: [{ id: 'c1', by: 'human', body: 'Lower case, please.', claim: null, created_at: '' }],
  created_at: '',
  updated_at: '',
};

const props = (over: Partial<FileDiffProps>): FileDiffProps => ({
  itemId: 'ab12cd34',
  file,
  split: false,
  words: true,
  commentable: true,
  threads: [],
  pending: [],
  onAdd: () => undefined,
  onRemove: () => undefined,
  onViewed: () => undefined,
  viewedBusy: false,
  ...over,
});

const render = (p: FileDiffProps) =>
  renderToStaticMarkup(
    createElement(QueryClientProvider, { client: new QueryClient() }, createElement(FileDiff, p)),
  );

describe('FileDiff', () => {
  it('draws the lines with their numbers, the changed words marked, a thread under its line', () => {
    const html = render(props({ threads: [thread] }));
    expect(html).toContain('aria-label="Comment on new line 2"');
    expect(html).toContain('<mark>TWO</mark>');
    const row = html.indexOf('rv-below');
    expect(row).toBeGreaterThan(html.indexOf('TWO'));
    expect(html.indexOf('thread on a.txt, line 2')).toBeGreaterThan(row);
  });

  it('shows the thread above the lines when comments do not go on lines here, and folds a viewed file', () => {
    const html = render(props({ threads: [thread], commentable: false }));
    expect(html.indexOf('rv-loose')).toBeLessThan(html.indexOf('rv-lines'));
    expect(html).not.toContain('Comment on new line 2');
    const viewed = render(props({ file: { ...file, viewed: true } }));
    expect(viewed).toContain('aria-label="Unfold a.txt"');
    expect(viewed).not.toContain('rv-lines');
  });

  it('says why a file shows no lines', () => {
    expect(render(props({ file: { ...file, binary: true, patch: null } }))).toContain(
      'A binary file: not shown.',
    );
    expect(render(props({ file: { ...file, status: 'renamed', patch: '' } }))).toContain(
      'No lines changed (renamed only).',
    );
  });
});
