// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { anItem } from '../fixtures.js';
import { boardTest, type Answers } from '../test-kit.js';
import { Brief } from './brief.js';
import { GatePanel } from './gate-panel.js';

/*
 * A gate waiting for a person asks only for what exists (issue 48): the document when the item says
 * a task wrote one, the changes once its worktree is cut, so the browser's console shows no 404 or
 * 409. Its message, like a brief, is Markdown rendered safely.
 */

const atGate = (over: Parameters<typeof anItem>[0] = {}) =>
  anItem({
    status: 'stopped',
    display_status: 'needs_you',
    started_at: '2026-11-24T10:00:00.000Z',
    current_node: 'review',
    gate_request: 7,
    gate_document: null,
    stop: {
      kind: 'gate',
      reason: 'Make your change (`jig repo path <id>` prints it), then approve.',
      suggested_action: null,
    },
    ...over,
  });

const server = (more: Answers = {}): Answers => ({
  itemDocuments: () => ({ documents: [] }),
  listItemThreads: () => ({ threads: [] }),
  ...more,
});

describe('the gate panel', () => {
  it('asks for no document and no diff the item does not have, and renders its message', async () => {
    const t = boardTest(server());
    t.render(<GatePanel item={atGate()} gate="review" targets={[]} rejectTo={null} agents={false} />);
    await screen.findByText('This gate shows no document.');
    expect(screen.getByRole('status').textContent).toBe('Waiting for your review at review');
    const code = await screen.findByText('jig repo path <id>', { selector: '.gate-message code' });
    expect(code.closest('.markdown')?.textContent?.trim()).toBe(
      'Make your change (jig repo path <id> prints it), then approve.',
    );
    await screen.findByRole('button', { name: 'Approve' });
    expect(t.api.calls.map((c) => c.route).sort()).toEqual(['itemDocuments', 'listItemThreads']);
  });

  it('reads the document the item names, and the changes once the worktree is cut', async () => {
    const t = boardTest(
      server({
        gateArtifact: () => ({
          gate: 'review',
          kind: 'spec',
          path: '/w/spec.md',
          text: '# The spec',
          digest: 'd',
        }),
        itemDiff: () => new Response(JSON.stringify({ detail: 'x' }), { status: 409 }),
      }),
    );
    t.render(
      <GatePanel
        item={atGate({ gate_document: 'spec', has_worktree: true })}
        gate="review"
        targets={[]}
        rejectTo={null}
        agents={false}
      />,
    );
    await screen.findByText('The spec', { selector: '.document .markdown, .document .markdown *' });
    expect(t.api.of('gateArtifact')).toHaveLength(1);
    expect(t.api.of('itemDiff')).toHaveLength(1);
  });
});

// What the sanitizer drops is checked in Chromium (test/board-first-hour.test.ts): happy-dom's parser
// lets DOMPurify keep what a browser's would not.
describe('the brief', () => {
  it('renders Markdown: code and emphasis, not backticks and asterisks', async () => {
    const { container } = boardTest({}).render(
      <Brief item={anItem({ description: 'Fix `login()` **now**.' })} />,
    );
    await screen.findByText('login()', { selector: 'code' });
    expect(screen.getByText('now', { selector: 'strong' })).toBeTruthy();
    expect(container.textContent).not.toContain('`');
  });

  it('shows HTML in it as the text it is', async () => {
    const { container } = boardTest({}).render(
      <Brief item={anItem({ description: 'Keep <b>this</b> as typed.\n\n<div onclick="x()">raw</div>' })} />,
    );
    await screen.findByText(/Keep <b>this<\/b> as typed\./);
    expect(container.querySelector('.brief b, .brief div[onclick]')).toBeNull();
    expect(container.textContent).toContain('<div onclick="x()">raw</div>');
  });
});
