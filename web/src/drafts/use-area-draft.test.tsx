// @vitest-environment happy-dom
import { act, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { aDraft } from '../fixtures.js';
import { boardTest, refusal } from '../test-kit.js';
import { DraftBar } from './draft-bar.js';
import { useAreaDraft } from './use-area-draft.js';

/*
 * A settings area's draft (the hook Policy, Auto-intake and Harnesses share) and its bar: each op
 * answers the whole draft, the bar's moves go to the server, and what the screen says is what the
 * server answered.
 */

const params = { area: 'policy', key: 'policy' };
const change = { path: 'budget.daily_usd', kind: 'change' as const, summary: '10 → 20', file: 'policy.yaml' };
const problem = {
  path: 'budget',
  field: 'daily_usd',
  message: 'must be at most budget.work_item_usd × 10',
  file: 'policy.yaml',
  line: 3,
  col: 3,
};
const open = (over: Parameters<typeof aDraft>[2] = {}) =>
  aDraft('policy', { draft: true, updated_at: '2026-11-24T10:00:00.000Z' }, { changes: [change], ...over });
const stale = () =>
  refusal(409, 'draft_stale', 'policy.yaml changed on disk since this draft began', {
    files: { 'policy.yaml': { diff: '--- a\n+++ b\n-daily_usd: 10\n+daily_usd: 15' } },
  });

describe('useAreaDraft', () => {
  it("sends ops as one step and shows the server's answer; a refused op says why and keeps the draft", async () => {
    let opAnswer: Response | null = null;
    const t = boardTest({ getDraft: () => aDraft('policy'), draftOps: () => opAnswer ?? open() });
    const { result } = t.hook(() => useAreaDraft('policy'));
    await vi.waitFor(() => expect(result.current.draft?.draft).toBe(false));

    const ops = [{ op: 'set_value', scope: 'limits', key: 'budget.daily_usd', value: 20 }];
    expect(await act(() => result.current.apply(ops))).toBe(true);
    expect(result.current.draft).toEqual(open());
    expect(result.current.refusal).toBeNull();

    opAnswer = refusal(422, 'draft_op_refused', 'budget.daily_usd: not a number');
    expect(await act(() => result.current.apply([{ ...ops[0]!, value: 'x' }]))).toBe(false);
    expect(result.current.refusal).toBe('budget.daily_usd: not a number');
    expect(result.current.draft).toEqual(open());
    expect(t.api.calls).toEqual([
      { route: 'getDraft', params },
      { route: 'draftOps', params, body: { ops } },
      { route: 'draftOps', params, body: { ops: [{ ...ops[0], value: 'x' }] } },
    ]);
  });

  it('a publish reads the draft and the reads it names again; a stale one is a choice, not an error', async () => {
    let publish: () => Response | null = stale;
    const t = boardTest({
      getDraft: () => open(),
      publishDraft: () =>
        publish() ?? { published: ['policy.yaml'], changes: [change], result: open().result },
    });
    t.client.setQueryData(['policy'], { published: true });
    const { result } = t.hook(() => useAreaDraft('policy', { after: [['policy']] }));
    await vi.waitFor(() => expect(result.current.draft).toBeDefined());

    expect(await act(() => result.current.publish())).toBe(false);
    expect([result.current.error, result.current.stale]).toEqual([
      null,
      {
        detail: 'policy.yaml changed on disk since this draft began',
        files: [{ file: 'policy.yaml', diff: '--- a\n+++ b\n-daily_usd: 10\n+daily_usd: 15' }],
      },
    ]);
    expect(t.client.getQueryState(['policy'])?.isInvalidated).toBe(false);

    publish = () => null;
    expect(await act(() => result.current.publish())).toBe(true);
    expect([result.current.error, result.current.stale]).toEqual([null, null]);
    expect(t.client.getQueryState(['policy'])?.isInvalidated).toBe(true);
    expect(t.api.calls.map((c) => c.route)).toEqual(['getDraft', 'publishDraft', 'publishDraft', 'getDraft']);
  });
});

/** The policy draft's bar, on the hook, as Settings › Policy draws it. */
function PolicyBar() {
  return <DraftBar d={useAreaDraft('policy')} label="policy.yaml" />;
}

describe('DraftBar', () => {
  it('Review & publish lists the changes and what to fix; Publish stays off while there are problems', async () => {
    const user = userEvent.setup();
    const t = boardTest({ getDraft: () => open({ problems: [problem] }) });
    t.render(<PolicyBar />);
    expect((await screen.findByRole('status')).textContent).toBe('Draft: 1 change, 1 to fix');
    expect(screen.getByRole('region', { name: 'Draft' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Review & publish' }));
    const review = screen.getByRole('region', { name: 'Review and publish' });
    expect(
      within(review)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'budget.daily_usd 10 → 20 (policy.yaml)',
      'budget.daily_usd must be at most budget.work_item_usd × 10',
    ]);
    expect(within(review).getByRole('button', { name: 'Publish' })).toHaveProperty('disabled', true);
    expect(t.api.calls.map((c) => c.route)).toEqual(['getDraft']);
  });

  it('publishes, says so, and then shows the published file with its moves off', async () => {
    const user = userEvent.setup();
    let draft = open();
    const t = boardTest({
      getDraft: () => draft,
      publishDraft: () => {
        draft = aDraft('policy');
        return { published: ['policy.yaml'], changes: [change], result: draft.result };
      },
    });
    t.render(<PolicyBar />);
    await user.click(await screen.findByRole('button', { name: 'Review & publish' }));
    expect(screen.getByText('Checked as a reload would: no problems.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Publish' }));

    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toBe('Published policy.yaml.'));
    expect(screen.queryByRole('region')).toBeNull();
    for (const name of ['Undo', 'Discard draft', 'Review & publish'])
      expect(screen.getByRole('button', { name })).toHaveProperty('disabled', true);
    expect(t.api.calls).toEqual([
      { route: 'getDraft', params },
      { route: 'publishDraft', params, body: {} },
      { route: 'getDraft', params },
    ]);
  });

  it('a stale publish shows what changed on disk, and Rebase sends a rebase', async () => {
    const user = userEvent.setup();
    const t = boardTest({ getDraft: () => open(), publishDraft: stale, rebaseDraft: () => open() });
    t.render(<PolicyBar />);
    await user.click(await screen.findByRole('button', { name: 'Review & publish' }));
    await user.click(screen.getByRole('button', { name: 'Publish' }));

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('policy.yaml changed on disk since this draft began')).toBeTruthy();
    expect(alert.querySelector('pre')?.textContent).toBe('--- a\n+++ b\n-daily_usd: 10\n+daily_usd: 15\n');
    await user.click(within(alert).getByRole('button', { name: 'Rebase on the file on disk' }));

    await vi.waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(t.api.calls).toEqual([
      { route: 'getDraft', params },
      { route: 'publishDraft', params, body: {} },
      { route: 'rebaseDraft', params, body: {} },
      { route: 'getDraft', params },
    ]);
  });

  it('Discard draft asks the server and says the draft is gone; Undo sends an undo', async () => {
    const user = userEvent.setup();
    let draft = open();
    const t = boardTest({
      getDraft: () => draft,
      undoDraft: () => open({ changes: [] }),
      discardDraft: () => {
        draft = aDraft('policy');
        return null;
      },
    });
    t.render(<PolicyBar />);
    await user.click(await screen.findByRole('button', { name: 'Undo' }));
    await user.click(screen.getByRole('button', { name: 'Discard draft' }));

    await vi.waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Draft discarded: this is the published policy.yaml.',
      ),
    );
    expect(t.api.calls.map((c) => c.route)).toEqual([
      'getDraft',
      'undoDraft',
      'getDraft',
      'discardDraft',
      'getDraft',
    ]);
  });
});
