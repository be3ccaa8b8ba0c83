// @vitest-environment happy-dom
import { fireEvent, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AnswerOf } from '../../api.js';
import { aDraft, aRepo } from '../../fixtures.js';
import { boardTest, held, refusal, type Answers } from '../../test-kit.js';
import { ChainTestPanel } from './chain-test-panel.js';
import type { ChainTestReport } from './chain-test-report.js';

/*
 * Test before publishing (Review & publish): the starter script written from the draft's chain, a
 * script that does not parse kept from the server, the run with the draft flag and the repository,
 * the wait, and the report or the refusal.
 */

const FILE = 'chains/shipping.yaml';
const agent = (id: string) => ({ id, kind: 'agent', prompt: 'Do it.' });
const draft = (open = true) =>
  aDraft(
    'chains',
    { key: 'shipping', draft: open },
    {
      model: {
        [FILE]: {
          nodes: [
            { id: 'build', kind: 'exec', tasks: [agent('code')], fix_loop: { tasks: [agent('repair')] } },
            { id: 'release', kind: 'gate', reject_to: 'build' },
          ],
        },
      },
    },
  );

const repos = (...list: AnswerOf<'connectRepo'>[]): AnswerOf<'listRepos'> => ({
  repos: list,
  workspaces: [],
  suggested: null,
  warnings: [],
});

const passed: ChainTestReport = {
  chain: 'shipping',
  ok: true,
  status: 'completed',
  stop: null,
  ended: 'completed',
  path: [
    { type: 'node_started', node: 'build', detail: 'started' },
    { type: 'node_completed', node: 'build', detail: 'completed' },
    { type: 'gate_requested', node: 'release', detail: 'gate waits' },
    { type: 'gate_approved', node: 'release', detail: 'gate approved' },
    { type: 'work_item_completed', node: null, detail: 'item completed' },
  ],
  sessions: [
    { task: 'build.main.code', attempt: 1, status: 'done', cost_usd: 0.25, tokens: 1100, note: null },
  ],
  spent_usd: 0.25,
  spent_tokens: 1100,
  expectations: [{ expect: 'completes: true', ok: true, actual: 'completed' }],
  divergences: [],
};

const failed: ChainTestReport = {
  ...passed,
  ok: false,
  status: 'stopped',
  stop: { kind: 'budget', reason: 'the item’s dollar budget: 11.00 USD used of 10.00 USD' },
  ended: 'stopped (budget)',
  path: [],
  sessions: [
    {
      task: 'build.main.code',
      attempt: 1,
      status: 'failed',
      cost_usd: null,
      tokens: 0,
      note: 'the script has no answer for build.main.code',
    },
  ],
  spent_usd: 0,
  spent_tokens: 0,
  expectations: [{ expect: 'completes: true', ok: false, actual: 'stopped (budget)' }],
  divergences: [
    {
      kind: 'unused',
      task: 'build.main.check',
      detail: 'build.main.check: the recording answers 1 session(s), the replay asked for 0',
    },
  ],
};

const panel = (answers: Answers, open = true) => {
  const t = boardTest({ listRepos: () => repos(aRepo()), ...answers });
  t.render(<ChainTestPanel draft={draft(open)} />);
  return t;
};
const script = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Script (YAML or JSON)' });
const rows = (name: string) =>
  within(screen.getByRole('table', { name }))
    .getAllByRole('row')
    .slice(1)
    .map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );

describe('ChainTestPanel', () => {
  it("starts from the draft's chain; runs the draft on the only repository, says it runs, then shows the report", async () => {
    const user = userEvent.setup();
    const answer = held<ChainTestReport>();
    const t = panel({ testChain: () => answer.promise });
    expect(screen.getByRole('region', { name: 'Test before publishing' })).toBeTruthy();
    expect(script().value).toContain(
      'tasks:\n  build.main.code: {}\n  build.fix_loop.main.repair: {}\ngates:\n  release: approve\nexpect:\n  completes: true\n',
    );
    await vi.waitFor(() => expect(t.api.of('listRepos')).toHaveLength(1));
    expect(screen.queryByRole('combobox', { name: 'Repository' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Run test' }));
    const running = await screen.findByRole('button', { name: 'Running…' });
    expect(running).toHaveProperty('disabled', true);
    expect(screen.getByRole('status').textContent).toMatch(
      /^Running the test of shipping: a server of its own/,
    );
    expect(t.api.of('testChain')).toEqual([
      {
        route: 'testChain',
        params: { id: 'shipping' },
        body: {
          tasks: { 'build.main.code': {}, 'build.fix_loop.main.repair': {} },
          gates: { release: 'approve' },
          expect: { completes: true },
          draft: true,
        },
      },
    ]);

    answer.settle(passed);
    const report = await screen.findByRole('region', { name: 'Test report' });
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('button', { name: 'Run test' })).toHaveProperty('disabled', false);
    expect(report.querySelector('.ce-test-verdict')?.textContent).toBe('ok ended: completed');
    expect(rows('Path taken')).toEqual([
      ['build', 'started'],
      ['build', 'completed'],
      ['release', 'gate waits'],
      ['release', 'gate approved'],
      ['(item)', 'item completed'],
    ]);
    expect(rows('Sessions')).toEqual([['build.main.code #1', 'done', '$0.25', '1100']]);
    expect(within(report).getByText('Spent: $0.25, 1100 tokens')).toBeTruthy();
    expect(
      within(screen.getByRole('list', { name: 'Expectations' }))
        .getAllByRole('listitem')
        .map((l) => l.textContent),
    ).toEqual(['ok completes: true was completed']);
    expect(screen.queryByRole('list', { name: 'Divergences' })).toBeNull();
  });

  it('shows a FAILED report: the stop, a session’s note, the expectation that failed', async () => {
    const user = userEvent.setup();
    const t = panel({ testChain: () => failed }, false);
    await user.click(screen.getByRole('button', { name: 'Run test' }));
    const report = await screen.findByRole('region', { name: 'Test report' });
    // No draft open: the published chain is tested.
    expect(t.api.of('testChain').map((c) => c.body)).toMatchObject([{ draft: false }]);
    expect(report.querySelector('.ce-test-verdict')?.textContent).toBe(
      'FAILED ended: stopped (budget) — the item’s dollar budget: 11.00 USD used of 10.00 USD',
    );
    expect(within(report).getByText('Nothing happened: the item did not start.')).toBeTruthy();
    expect(rows('Sessions')).toEqual([
      ['build.main.code #1the script has no answer for build.main.code', 'failed', '—', '0'],
    ]);
    const expectation = within(screen.getByRole('list', { name: 'Expectations' })).getByRole('listitem');
    expect([expectation.textContent, expectation.querySelector('.chip')?.className]).toEqual([
      'failed completes: true was stopped (budget)',
      'chip ce-test-failed',
    ]);
    // A script that names a recording (`replay:`) gets a replay's divergences too.
    expect(
      within(screen.getByRole('list', { name: 'Divergences' }))
        .getAllByRole('listitem')
        .map((l) => l.textContent),
    ).toEqual(['unused build.main.check: the recording answers 1 session(s), the replay asked for 0']);
  });

  it('names the line of a script that does not parse, and sends nothing', async () => {
    const user = userEvent.setup();
    const t = panel({ testChain: () => passed });
    fireEvent.change(script(), { target: { value: 'gates:\n  release: approve\n  release: approve\n' } });
    await user.click(screen.getByRole('button', { name: 'Run test' }));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('Not sent: Line 3, column 3: Map keys must be unique');
    expect(script().getAttribute('aria-invalid')).toBe('true');
    expect(t.api.of('testChain')).toEqual([]);

    // Typing clears it; Start over writes the starter again.
    fireEvent.change(script(), { target: { value: 'gates: {}' } });
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Start over from the chain' }));
    expect(script().value).toContain('  release: approve\n');
  });

  it('offers the repositories when more than one is connected: this chain’s first, the one picked sent', async () => {
    const user = userEvent.setup();
    const t = panel({
      listRepos: () =>
        repos(
          aRepo({ path: '/src/a', name: 'a' }),
          aRepo({ path: '/src/b', name: 'b', default_chain: 'shipping' }),
        ),
      testChain: () => passed,
    });
    const pick = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Repository' });
    expect([pick.value, [...pick.options].map((o) => o.textContent)]).toEqual([
      '/src/b',
      ['a (/src/a)', 'b (/src/b)'],
    ]);
    await user.selectOptions(pick, '/src/a');
    await user.click(screen.getByRole('button', { name: 'Run test' }));
    await screen.findByRole('region', { name: 'Test report' });
    expect(t.api.of('testChain').map((c) => c.body)).toMatchObject([{ repo: '/src/a', draft: true }]);
  });

  it('shows a refusal with the API’s detail: one test at a time, a draft that does not check', async () => {
    const user = userEvent.setup();
    const answers = [
      refusal(
        409,
        'chain_test_running',
        'a chain test is running (default); one runs at a time: try again when it ends',
      ),
      refusal(422, 'validation_failed', 'tasks.build.main.code.status: Invalid option', {
        problems: [{ path: 'build', message: 'a node needs a step', line: 4 }],
      }),
    ];
    panel({ testChain: () => answers.shift()! });
    await user.click(screen.getByRole('button', { name: 'Run test' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Not run: a chain test is running (default); one runs at a time: try again when it ends (HTTP 409)',
    );
    await user.click(screen.getByRole('button', { name: 'Run test' }));
    await vi.waitFor(() =>
      expect([...screen.getByRole('alert').querySelectorAll('p')].map((p) => p.textContent)).toEqual([
        'Not run: tasks.build.main.code.status: Invalid option (HTTP 422)',
        'build a node needs a step (line 4)',
      ]),
    );
    expect(screen.queryByRole('region', { name: 'Test report' })).toBeNull();
  });
});
