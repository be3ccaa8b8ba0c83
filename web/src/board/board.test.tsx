// @vitest-environment happy-dom
import { act, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnswerOf, Item } from '../api.js';
import { anItem, aRepo } from '../fixtures.js';
import { boardTest, type Answers } from '../test-kit.js';
import { Board } from './board.js';
import type { Entry } from './entries.js';
import { useBoard } from './use-board.js';
import { useFilters } from './use-filters.js';

/*
 * The board (useBoard and the screen it draws): the items grouped by what they wait for, the
 * filters in the URL, the first-run wizard's decision, and a row's action sent to the server.
 */

const failing = anItem({
  id: 'aaaa1111',
  title: 'Fix login',
  status: 'stopped',
  display_status: 'needs_you',
  current_node: 'build',
  stop: { kind: 'failed', reason: 'exit 1', suggested_action: null },
  started_at: '2026-11-24T10:01:00.000Z',
});
const docs = anItem({ id: 'cccc3333', title: 'Write docs', repo: '/src/docs' });

const theme = (openIn: 'peek' | 'full' = 'peek'): AnswerOf<'getTheme'> => ({
  mode: 'system',
  surface: 'neutral',
  accent: 'indigo',
  colour_amount: 40,
  density: 'comfortable',
  board: { group_by: 'status', show_done: 5, open_in: openIn },
  problem: null,
});
const repos = (list: AnswerOf<'connectRepo'>[]): AnswerOf<'listRepos'> => ({
  repos: list,
  workspaces: [],
  suggested: null,
  warnings: [],
});

/** The server of a board showing `items`, one repository connected. */
const board = (items: Item[], more: Answers = {}): Answers => ({
  listItems: () => ({ items, next_cursor: null, total: items.length }),
  listRepos: () => repos([aRepo()]),
  getTheme: () => theme(),
  resolvedChain: ({ params }) => ({
    id: params!.id!,
    resolved: { nodes: [{ id: 'plan' }, { id: 'build' }] },
    sources: {},
    warnings: [],
    running: true,
  }),
  ...more,
});

/** The list as words: `# Needs you 1` for a header, an item's id for its row. */
const shape = (entries: readonly Entry[]) =>
  entries.map((e) =>
    e.kind === 'header' ? `# ${e.title} ${e.total}` : e.kind === 'row' ? e.item.id : e.kind,
  );

describe('useBoard', () => {
  it('groups the items by what they wait for, and puts an item a move answers in place without reading the list again', async () => {
    const started = { ...docs, status: 'running', display_status: 'running', started_at: 'now' } as const;
    const t = boardTest(board([failing, docs], { resumeItem: () => started }));
    const { result } = t.hook(() => useBoard(false));
    await vi.waitFor(() => expect(result.current.chainNodes.get('default')).toEqual(['plan', 'build']));

    expect(shape(result.current.entries)).toEqual([
      '# Needs you 1',
      'aaaa1111',
      '# Running 0',
      'empty',
      '# Not started 1',
      'cccc3333',
      '# Done 0',
      'empty',
    ]);
    expect([
      result.current.needing,
      result.current.chains,
      result.current.repos,
      result.current.wizard,
    ]).toEqual([1, ['default'], ['/r', '/src/docs'], null]);

    await act(() => result.current.act(docs, 'resume'));
    await vi.waitFor(() => expect(result.current.entries[3]).toMatchObject({ kind: 'row' }));
    expect(shape(result.current.entries)).toEqual([
      '# Needs you 1',
      'aaaa1111',
      '# Running 1',
      'cccc3333',
      '# Not started 0',
      'empty',
      '# Done 0',
      'empty',
    ]);
    expect(t.api.of('listItems')).toEqual([
      { route: 'listItems', query: { archived: 'false', limit: '500' } },
    ]);
    expect(t.api.of('resumeItem')).toEqual([{ route: 'resumeItem', params: { id: 'cccc3333' }, body: {} }]);
  });

  it('offers the first-run wizard while no repository is connected, until skipped; the archived list never asks', async () => {
    const t = boardTest(board([], { listRepos: () => repos([]) }));
    const { result } = t.hook(() => useBoard(false));
    await vi.waitFor(() => expect(result.current.wizard).toEqual(repos([])));
    act(() => result.current.skipWizard());
    expect(result.current.wizard).toBeNull();

    const archived = t.hook(() => useBoard(true));
    await vi.waitFor(() => expect(archived.result.current.items.isSuccess).toBe(true));
    expect(archived.result.current.wizard).toBeNull();
    expect(t.api.of('listRepos')).toHaveLength(1);
    expect(t.api.of('listItems').map((c) => c.query?.archived)).toEqual(['false', 'true']);
  });
});

describe('useFilters', () => {
  it('reads the filters from the URL, a value it does not know as the default, and writes them back', () => {
    const t = boardTest({}, { url: '/?q=login&group=chain&sort=sideways&done=all' });
    const { result } = t.hook(() => useFilters('status'));
    const { set: _set, ...read } = result.current;
    expect(read).toEqual({
      q: 'login',
      chain: '',
      repo: '',
      group: 'chain',
      sort: 'attention',
      allDone: true,
      peek: null,
    });

    act(() => result.current.set('q', ''));
    act(() => result.current.set('repo', '/src/docs'));
    expect(t.location()).toBe('/?group=chain&sort=sideways&done=all&repo=%2Fsrc%2Fdocs');
    expect(t.api.calls).toEqual([]);
  });
});

describe('Board', () => {
  // happy-dom lays nothing out: the virtual list sees a 600 px tall window on the rows.
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
  });

  it('draws each group with its rows; the filter typed narrows them and stays in the URL', async () => {
    const user = userEvent.setup();
    const t = boardTest(board([failing, docs]));
    t.render(<Board />);

    await screen.findByText('Fix login');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Board1 NEED YOU');
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Needs you 1',
      'Running 0',
      'Not started 1',
      'Done 0',
    ]);
    expect(screen.getAllByRole('row').map((r) => r.getAttribute('data-item'))).toEqual([
      'aaaa1111',
      'cccc3333',
    ]);
    expect(within(screen.getAllByRole('row')[0]!).getByLabelText('at node 2 of 2')).toBeTruthy();

    await user.type(screen.getByRole('searchbox', { name: 'Filter by title or id' }), 'docs');
    await vi.waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(1));
    expect(screen.getByRole('row').getAttribute('data-item')).toBe('cccc3333');
    expect(t.location()).toBe('/?q=docs');
  });

  it("sends a row's action, and opens a row in the full page when Appearance says so", async () => {
    const user = userEvent.setup();
    const t = boardTest(
      board([failing, docs], {
        getTheme: () => theme('full'),
        retryItem: () => ({ ...failing, status: 'running', display_status: 'running', stop: null }),
      }),
    );
    t.render(<Board />);

    await user.click(await screen.findByRole('button', { name: 'Retry… Fix login' }));
    await vi.waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Board'));
    expect(t.api.of('retryItem')).toEqual([{ route: 'retryItem', params: { id: 'aaaa1111' }, body: {} }]);

    await user.click(screen.getByText('Write docs'));
    expect(t.location()).toBe('/work-items/cccc3333');
  });
});
