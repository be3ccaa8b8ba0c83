// @vitest-environment happy-dom
import { act, fireEvent, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AnswerOf } from '../../api.js';
import { aDraft } from '../../fixtures.js';
import { boardTest, refusal, type Answers } from '../../test-kit.js';
import { ChainEditor } from './editor.js';
import { useChainEditor } from './use-chain-editor.js';

/*
 * The chain editor on its draft (useChainEditor and the screen): the draft's nodes drawn in walk
 * order, its problems each a way to its node, and every change an op whose answer redraws it.
 */

const params = { area: 'chains', key: 'build' };
const file = 'chains/build.yaml';
type Node = Record<string, unknown>;
const plan: Node = { id: 'plan', tasks: [{ id: 'author', kind: 'agent' }] };
const review: Node = { id: 'review', kind: 'gate', reject_to: 'plan' };
const lint: Node = { id: 'lint', kind: 'exec', tasks: [] };

/** The draft of chain `build` with these nodes as written, and one problem in `plan`. */
const chainDraft = (nodes: Node[]) =>
  aDraft(
    'chains',
    { key: 'build', draft: true, updated_at: `2026-11-24T10:0${nodes.length}:00.000Z` },
    {
      model: { [file]: { description: 'Builds it', nodes } },
      changes: [{ path: 'plan', kind: 'add', summary: 'node added' }],
      problems: [
        {
          path: 'plan.main.author',
          field: 'prompt',
          message: 'an agent task needs a prompt',
          file,
          line: 3,
          col: 5,
        },
      ],
    },
  );

const component = (section: 'tasks' | 'nodes', name: string) => ({
  ref: `${section}.${name}`,
  section,
  name,
  written: {},
  resolved: {},
  used_by: { chains: [], repos: [] },
  problems: [],
});
const library = (): AnswerOf<'getLibrary'> => ({
  file: 'library.yaml',
  model: null,
  components: [component('tasks', 'implementer'), component('nodes', 'verify')],
  problems: [],
  warnings: [],
});

const editor = (more: Answers = {}): Answers => ({
  getDraft: () => chainDraft([plan, review]),
  getLibrary: library,
  draftOps: () => chainDraft([plan, lint, review]),
  ...more,
});

describe('useChainEditor', () => {
  it('reads the draft as parts; an op goes as one change, and a new node is selected where it was put', async () => {
    const t = boardTest(editor());
    const { result } = t.hook(() => useChainEditor('build'));
    await vi.waitFor(() => expect(result.current.libNames('tasks')).toEqual(['implementer']));

    const e = result.current;
    expect([e.file, e.parts.map((p) => `${p.kind} ${p.id}`), [...e.counts], e.insertAt]).toEqual([
      file,
      ['exec plan', 'gate review'],
      [
        ['plan', 1],
        ['review', 0],
      ],
      2,
    ]);
    act(() => result.current.select('plan'));
    expect([result.current.node?.id, result.current.at, result.current.insertAt]).toEqual(['plan', 0, 1]);

    const ops = [{ op: 'add_node', at: 1, id: 'lint', kind: 'exec' } as const];
    expect(await act(() => result.current.run([...ops]))).toBe(true);
    expect([result.current.selected, result.current.parts.map((p) => p.id), result.current.error]).toEqual([
      'lint',
      ['plan', 'lint', 'review'],
      null,
    ]);
    expect(t.api.of('draftOps')).toEqual([{ route: 'draftOps', params, body: { ops } }]);
    expect(t.api.of('getDraft')).toEqual([{ route: 'getDraft', params }]);
  });

  it('a refused op says why and leaves the selection; a discard goes back to the graph and says so', async () => {
    const t = boardTest(
      editor({ draftOps: () => refusal(422, 'draft_op_refused', 'a node lint is in the chain already') }),
    );
    const { result } = t.hook(() => useChainEditor('build'));
    await vi.waitFor(() => expect(result.current.parts).toHaveLength(2));
    act(() => {
      result.current.select('review');
      result.current.setView('yaml');
    });

    expect(await act(() => result.current.run([{ op: 'rename', path: 'review', id: 'lint' }]))).toBe(false);
    expect([result.current.error, result.current.selected]).toEqual([
      'a node lint is in the chain already',
      'review',
    ]);
    act(() => result.current.published(null));
    expect([result.current.view, result.current.done]).toEqual(['graph', 'Draft discarded.']);
  });
});

describe('ChainEditor', () => {
  const at = { url: '/templates/chains/build', path: '/templates/chains/:id' };

  it("draws the draft's state and its nodes in walk order, a problem leading to its node", async () => {
    const user = userEvent.setup();
    const t = boardTest(editor(), at);
    const { container } = t.render(<ChainEditor />);

    await screen.findByRole('region', { name: 'Chain build' });
    expect(screen.getByText('draft · 1 change · 1 problem')).toBeTruthy();
    // The graph: each node where the layout stands it, a gate's diamond centred on the row.
    const drawn = [...container.querySelectorAll<HTMLElement>('.react-flow__node')];
    expect(drawn.map((n) => [n.getAttribute('aria-label'), n.style.transform])).toEqual([
      ['node plan: 1 problem', 'translate(0px,0px)'],
      ['gate review', 'translate(200px,-2px)'],
    ]);
    expect(screen.getByRole('complementary', { name: 'Chain build itself' })).toBeTruthy();

    const problems = screen.getByText('1 problem (a publish refuses them)').parentElement!;
    expect(within(problems).getByRole('listitem').textContent).toBe(
      'plan.main.author prompt: an agent task needs a prompt · line 3',
    );
    await user.click(within(problems).getByRole('button', { name: 'plan.main.author' }));
    const inspector = screen.getByRole('complementary', { name: 'Node plan' });
    expect(within(inspector).getByRole('combobox', { name: 'Library base of plan' }).textContent).toBe(
      '(library node)verify',
    );

    // A click on a node of the graph selects it too.
    fireEvent.click(drawn[1]!);
    expect(screen.getByRole('complementary', { name: 'Node review' })).toBeTruthy();
    expect(t.api.calls.map((c) => c.route).sort()).toEqual(['getDraft', 'getLibrary']);
  });

  it('adds a node after the one selected, and the answer redraws the chain', async () => {
    const user = userEvent.setup();
    const t = boardTest(editor(), at);
    const { container } = t.render(<ChainEditor />);
    await user.click(await screen.findByRole('button', { name: 'plan.main.author' }));

    await user.type(screen.getByRole('textbox', { name: 'New node id' }), ' lint ');
    await user.click(screen.getByRole('button', { name: 'Add node after plan' }));

    await screen.findByRole('button', { name: 'Add node after lint' });
    expect(screen.getByRole('textbox', { name: 'New node id' })).toHaveProperty('value', '');
    expect(
      [...container.querySelectorAll('.react-flow__node')].map((n) => n.getAttribute('data-id')),
    ).toEqual(['plan', 'lint', 'review']);
    expect(t.api.of('draftOps')).toEqual([
      { route: 'draftOps', params, body: { ops: [{ op: 'add_node', at: 1, id: 'lint', kind: 'exec' }] } },
    ]);
  });

  it('says there is no such chain, with the way back to the list', async () => {
    const t = boardTest(editor({ getDraft: () => refusal(404, 'not_found', 'no chain nope') }), {
      url: '/templates/chains/nope',
      path: at.path,
    });
    t.render(<ChainEditor />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('No chain nope. All chains');
    expect(within(alert).getByRole('link', { name: 'All chains' }).getAttribute('href')).toBe(
      '/templates/chains',
    );
  });
});
