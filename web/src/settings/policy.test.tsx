// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AnswerOf } from '../api.js';
import { aDraft } from '../fixtures.js';
import { boardTest } from '../test-kit.js';
import { PolicyPage } from './policy.js';
import { aPolicy } from './policy-fixture.js';
import { PolicyPreview } from './policy-preview.js';
import type { PolicyResolved } from './policy-types.js';

/*
 * Settings › Policy on its draft (usePolicy and the table of fields): each field shows policy.yaml's
 * value, sends one `set_value` op, and shows the problems the server finds at its key; the preview
 * shows the draft's caps on a chain.
 */

const params = { area: 'policy', key: 'policy' };
type Problem = AnswerOf<'getDraft'>['result']['problems'][number];
const problem = (path: string, field: string | null, message: string): Problem => ({
  path,
  field,
  message,
  file: 'policy.yaml',
  line: 4,
  col: 3,
});

/** The policy draft answering `resolved` (null: policy.yaml does not load) and its problems. */
const policyDraft = (
  resolved: PolicyResolved | null,
  problems: Problem[] = [],
  updatedAt: string | null = null,
) => aDraft('policy', { draft: updatedAt !== null, updated_at: updatedAt }, { resolved, problems });

/** aPolicy with the daily budget at `usd`. */
function withDaily(usd: number): PolicyResolved {
  const r = aPolicy();
  return { ...r, limits: { ...r.limits, daily_usd: { value: usd, source: 'policy' } } };
}

const field = (label: string) => screen.getByLabelText<HTMLInputElement>(label);
const fieldBox = (label: string) => field(label).closest('.field') as HTMLElement;

describe('PolicyPage', () => {
  it("shows each field's value and where it comes from; a field sends one set_value op and shows its problem", async () => {
    const user = userEvent.setup();
    const tooMuch = problem('budget', 'daily_usd', 'must be at most 10 × budget.work_item_usd');
    const t = boardTest({
      getDraft: () => policyDraft(aPolicy()),
      listChains: () => ({ chains: [] }),
      draftOps: () => policyDraft(withDaily(500), [tooMuch], '2026-11-24T10:00:00.000Z'),
    });
    t.render(<PolicyPage />);

    await screen.findByRole('heading', { name: 'Budget and attempts' });
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Caps per scope',
      'Budget and attempts',
      'Fix loops',
      'Escalation and retries',
      'Housekeeping',
      'Sandbox',
      'Preview on a chain',
    ]);
    // aPolicy numbers its values in order: 32 in the caps grid, then the budgets.
    expect(
      ['Budget per work item ($)', 'Budget per day ($)', 'Items running at once'].map((l) => field(l).value),
    ).toEqual(['33', '34', '47']);
    expect(within(fieldBox('Budget per day ($)')).getByText('set').className).toBe('source source-policy');
    expect(field('Archive ended items after (days)').placeholder).toBe('never');
    expect(screen.getByText('No unpublished changes: this is the published policy.yaml.')).toBeTruthy();

    await user.clear(field('Budget per day ($)'));
    await user.type(field('Budget per day ($)'), '500{Enter}');
    await within(fieldBox('Budget per day ($)')).findByRole('alert');
    expect(within(fieldBox('Budget per day ($)')).getByRole('alert').textContent).toBe(tooMuch.message);
    expect(field('Budget per day ($)').value).toBe('500');
    expect(screen.getByRole('region', { name: 'Draft' }).textContent).toContain('Draft: 0 changes, 1 to fix');
    // Leaving the field after Enter sends nothing more.
    await user.tab();
    expect(t.api.calls).toEqual([
      { route: 'getDraft', params },
      { route: 'getSandbox' },
      { route: 'listChains' },
      {
        route: 'draftOps',
        params,
        body: { ops: [{ op: 'set_value', scope: 'limits', key: 'budget.daily_usd', value: 500 }] },
      },
    ]);
  });

  it('keeps the value typed while the draft does not load, the problems no field shows listed apart; Undo puts it back', async () => {
    const user = userEvent.setup();
    const t = boardTest({
      getDraft: () => policyDraft(aPolicy()),
      undoDraft: () => policyDraft(aPolicy()),
      listChains: () => ({ chains: [] }),
      draftOps: () =>
        policyDraft(
          null,
          [
            problem('budget', 'daily_usd', 'must not be negative'),
            problem('triggers', null, 'triggers: moved to intake.yaml'),
          ],
          '2026-11-24T10:00:00.000Z',
        ),
    });
    t.render(<PolicyPage />);
    await user.clear(await screen.findByLabelText('Budget per day ($)'));
    await user.type(field('Budget per day ($)'), '-5{Enter}');

    await screen.findByText("The draft's policy.yaml does not load until its problems are fixed (or Undo).");
    expect(field('Budget per day ($)').value).toBe('-5');
    expect(within(fieldBox('Budget per day ($)')).getByRole('alert').textContent).toBe(
      'must not be negative',
    );
    expect(field('Budget per work item ($)').value).toBe('33');
    const other = screen.getByRole('heading', { name: 'Other problems' }).parentElement!;
    expect(
      within(other)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['triggers: moved to intake.yaml']);
    expect(screen.getByText("No preview while the draft's policy.yaml does not load.")).toBeTruthy();

    // Undo back to the published file puts the field back, though the file and its values are as before.
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await screen.findByText('No unpublished changes: this is the published policy.yaml.');
    expect(field('Budget per day ($)').value).toBe('34');
    expect(screen.queryByRole('heading', { name: 'Other problems' })).toBeNull();
    expect(t.api.calls.map((c) => c.route)).toEqual([
      'getDraft',
      'getSandbox',
      'listChains',
      'draftOps',
      'undoDraft',
      'getDraft',
    ]);
  });

  it('a box sends its value at once: a finding severity keeps the file order', async () => {
    const user = userEvent.setup();
    const t = boardTest({
      getDraft: () => policyDraft(aPolicy()),
      listChains: () => ({ chains: [] }),
      draftOps: () => policyDraft(aPolicy(), [], '2026-11-24T10:00:00.000Z'),
    });
    t.render(<PolicyPage />);
    await user.click(await screen.findByRole('checkbox', { name: 'Escalate stuck items automatically set' }));
    await user.click(screen.getByRole('checkbox', { name: 'important' }));

    await vi.waitFor(() => expect(t.api.of('draftOps')).toHaveLength(2));
    expect(t.api.of('draftOps').map((c) => c.body)).toEqual([
      { ops: [{ op: 'set_value', scope: 'escalation', key: 'auto_escalate_stuck', value: false }] },
      // aPolicy has `critical`; ticking `important` adds it after, as the file lists them.
      {
        ops: [
          {
            op: 'set_value',
            scope: 'findings',
            key: 'findings.loop_severities',
            value: ['critical', 'important'],
          },
        ],
      },
    ]);
  });
});

describe('PolicyPreview', () => {
  const chain = (id: string) => ({
    id,
    file: `chains/${id}.yaml`,
    description: null,
    nodes: 2,
    gates: 1,
    resolves: true,
    running: true,
    problems: [],
  });
  const cap = (value: number | null, maximum: number | null = null) => ({
    value,
    source: 'policy',
    maximum: maximum === null ? null : { value: maximum, level: 'work_item' },
    exceeds: value !== null && maximum !== null && value > maximum,
  });

  it("shows the draft's caps on the first chain, and asks again for the chain chosen", async () => {
    const user = userEvent.setup();
    const t = boardTest({
      listChains: () => ({ chains: [chain('default'), chain('quick')] }),
      policyPreview: ({ query }) => ({
        chain: query!.chain!,
        scopes: [
          {
            path: query!.chain!,
            kind: 'chain',
            level: 'work_item',
            caps: {
              time_cap_minutes: cap(90, 60),
              total_time_cap_minutes: cap(null),
              token_budget: cap(200000),
              budget_usd: cap(5, 10),
            },
          },
        ],
      }),
    });
    t.render(<PolicyPreview updatedAt="2026-11-24T10:00:00.000Z" loads busy={false} />);

    const table = await screen.findByRole('table', { name: 'Caps of chain default' });
    expect(
      within(table)
        .getAllByRole('row')
        .map((r) => [...r.children].map((c) => c.textContent)),
    ).toEqual([
      ['Scope', 'Time cap (min)', 'Total time cap (min)', 'Tokens', 'Budget ($)'],
      [
        'default chain',
        '90 policy≤ 60 (work_item) — exceeds',
        '—',
        '200000 policy',
        '5 policy≤ 10 (work_item)',
      ],
    ]);
    await user.selectOptions(screen.getByLabelText('Chain'), 'quick');
    await screen.findByRole('table', { name: 'Caps of chain quick' });
    expect(t.api.calls).toEqual([
      { route: 'listChains' },
      { route: 'policyPreview', params: { key: 'policy' }, query: { chain: 'default' } },
      { route: 'policyPreview', params: { key: 'policy' }, query: { chain: 'quick' } },
    ]);
  });

  it('is not asked while an op is in flight: the op may stop the draft loading before the preview is answered', async () => {
    const t = boardTest({
      listChains: () => ({ chains: [chain('default')] }),
      policyPreview: ({ query }) => ({ chain: query!.chain!, scopes: [] }),
    });
    const view = t.render(<PolicyPreview updatedAt={null} loads busy />);
    // The chains arrive while the op is in flight: the chain is chosen, the preview still waits.
    expect(await screen.findByRole('option', { name: 'default' })).toBeTruthy();
    expect(t.api.calls).toEqual([{ route: 'listChains' }]);
    expect(screen.queryByRole('table')).toBeNull();
    // The op answered, the draft still loads: the preview is asked with the answer's key.
    view.rerender(<PolicyPreview updatedAt="2026-11-24T10:00:00.000Z" loads busy={false} />);
    await screen.findByRole('table', { name: 'Caps of chain default' });
    expect(t.api.calls).toEqual([
      { route: 'listChains' },
      { route: 'policyPreview', params: { key: 'policy' }, query: { chain: 'default' } },
    ]);
  });
});

describe('Settings › Policy › Sandbox', () => {
  it('shows the instance default, and sends the whole block as one set_value; what it does not show is kept', async () => {
    const user = userEvent.setup();
    const set: PolicyResolved = {
      ...aPolicy(),
      sandbox: {
        value: { kind: 'bubblewrap', network: { allow: ['api.anthropic.com'], deny: ['x.test'] } },
        source: 'policy',
      },
    };
    const bad = problem(
      'sandbox',
      'image',
      'a bubblewrap sandbox runs no image; remove it or use kind: podman',
    );
    const t = boardTest({
      getDraft: () => policyDraft(set),
      listChains: () => ({ chains: [] }),
      draftOps: () => policyDraft(set, [bad], '2026-11-24T10:00:00.000Z'),
      getSandbox: () => ({
        kinds: [
          { kind: 'bubblewrap' as const, works: true, why: null },
          { kind: 'podman' as const, works: true, why: null },
          { kind: 'docker' as const, works: false, why: 'docker is not installed' },
        ],
        best: 'bubblewrap' as const,
        instance_default: 'bubblewrap',
        checked_at: '2026-11-24T10:00:00.000Z',
      }),
    });
    t.render(<PolicyPage />);
    expect((await screen.findByTestId('sandbox-now')).textContent).toBe(
      'bubblewrap; network: api.anthropic.com.',
    );
    expect((await screen.findByTestId('sandbox-here')).textContent).toBe(
      'Works on this machine: bubblewrap, podman.',
    );
    await user.selectOptions(screen.getByLabelText('Kind'), 'podman');
    await user.type(screen.getByLabelText('Image'), 'localhost/dev:1');
    await user.type(screen.getByLabelText('Memory limit'), '4g');
    await user.type(
      screen.getByLabelText('Hosts tasks may reach, one per line (host, host:port or *.domain)'),
      '{Enter}registry.npmjs.org',
    );
    await user.click(screen.getByRole('button', { name: 'Set the default sandbox' }));
    await screen.findByText(bad.message);
    expect(t.api.calls.at(-1)).toEqual({
      route: 'draftOps',
      params,
      body: {
        ops: [
          {
            op: 'set_value',
            scope: 'sandbox',
            key: 'sandbox',
            value: {
              kind: 'podman',
              image: 'localhost/dev:1',
              resources: { memory: '4g' },
              network: { allow: ['api.anthropic.com', 'registry.npmjs.org'], deny: ['x.test'] },
            },
          },
        ],
      },
    });
    await user.click(screen.getByRole('button', { name: 'Remove it' }));
    expect(t.api.calls.at(-1)).toMatchObject({
      body: { ops: [{ op: 'set_value', scope: 'sandbox', key: 'sandbox', value: null }] },
    });
  });

  it('with none set it says tasks run with the server’s reach', async () => {
    boardTest({ getDraft: () => policyDraft(aPolicy()), listChains: () => ({ chains: [] }) }).render(
      <PolicyPage />,
    );
    expect((await screen.findByTestId('sandbox-now')).textContent).toBe(
      'None set: tasks of repositories that set none run with the server’s reach.',
    );
    expect(screen.queryByRole('button', { name: 'Remove it' })).toBeNull();
  });
});
