// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { anItem } from '../fixtures.js';
import { boardTest, refusal, type Answers } from '../test-kit.js';
import { hasAgentTask } from './chain-agents.js';
import { GatePanel } from './gate-panel.js';

/*
 * The gate panel's Reject: where a reject has somewhere to go it asks for the note (an agent's steer
 * only on a chain with an agent); at a gate with nothing before it (the manual chain's first), it
 * says so and offers Cancel instead, as the server refuses that reject.
 */

const atGate = (over: Parameters<typeof anItem>[0] = {}) =>
  anItem({
    chain: 'manual',
    status: 'stopped',
    display_status: 'needs_you',
    current_node: 'change',
    gate_request: 7,
    stop: { kind: 'gate', reason: 'waiting', suggested_action: null },
    started_at: '2026-11-24T10:01:00.000Z',
    ...over,
  });

const quiet: Answers = {
  gateArtifact: () => refusal(404, 'not_found', 'no document'),
  itemDocuments: () => ({ documents: [] }),
  listItemThreads: () => ({ threads: [] }),
  itemDiff: () => refusal(409, 'item_not_started', 'no worktree'),
};

describe('GatePanel', () => {
  it('offers Cancel, not Reject, at a gate with nothing before it, and cancels with the reason given', async () => {
    const item = atGate({ gate_reject_to: null });
    const t = boardTest({
      ...quiet,
      cancelItem: () => ({ ...item, status: 'cancelled', display_status: 'cancelled', stop: null }),
    });
    t.render(<GatePanel item={item} gate="change" targets={[]} rejectTo={null} agents={false} />);

    expect(screen.queryByRole('button', { name: 'Reject…' })).toBeNull();
    expect(screen.getByRole('note').textContent).toContain(
      'Nothing runs before this gate, so a reject has nowhere to send the item back to',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Cancel item…' }));
    await userEvent.type(screen.getByLabelText(/Why you cancel it/), 'not needed');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel item' }));
    await vi.waitFor(() =>
      expect(t.api.of('cancelItem')).toEqual([
        { route: 'cancelItem', params: { id: item.id }, body: { reason: 'not needed' } },
      ]),
    );
    expect(t.api.of('rejectGate')).toEqual([]);
  });

  it("asks for the reject's note as an agent's steer only when an agent runs in the chain", async () => {
    const item = atGate({ gate_reject_to: 'implement' });
    const t = boardTest(quiet);
    const view = t.render(
      <GatePanel item={item} gate="change" targets={['implement']} rejectTo={null} agents={false} />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Reject…' }));
    expect(screen.getByLabelText(/What should change/).id).toBe('reject-note');
    expect(screen.queryByText(/next agent/)).toBeNull();
    expect(screen.getByText('What should change (kept on the item with the rejection)')).toBeTruthy();

    view.rerender(
      <GatePanel item={item} gate="change" targets={['implement']} rejectTo={null} agents={true} />,
    );
    expect(screen.getByText('What should change (the next agent reads this)')).toBeTruthy();
  });

  it('tells a chain with an agent task from one without', () => {
    const task = (kind: 'agent' | 'subprocess') => ({ id: 't', path: 'n.main.t', kind }) as never;
    const exec = (kinds: ('agent' | 'subprocess')[]) =>
      ({ id: 'n', kind: 'exec', steps: [{ id: 'main', path: 'n.main', tasks: kinds.map(task) }] }) as never;
    expect(hasAgentTask([exec(['subprocess'])])).toBe(false);
    expect(hasAgentTask([exec(['subprocess', 'agent'])])).toBe(true);
    expect(hasAgentTask([])).toBe(false);
  });
});
