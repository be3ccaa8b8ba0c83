import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  capReason,
  capStop,
  clockedSetup,
  closeClocked,
  ended,
  eventOf,
  ofType,
} from './helpers/engine-clock.js';
import { events, fileItem, post, until, type Served } from './helpers/engine.js';
import { cleanupAll, http, tempHome } from './helpers/server.js';
import { holdUntil } from './helpers/hold.js';

/** Ends what a test left running (its tasks outlive the server by design), then the servers. */
const leftovers: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  try {
    for (const f of leftovers.splice(0)) await f();
    await closeClocked();
  } finally {
    await cleanupAll();
  }
});

/*
 * The wall clocks of an item waiting at a gate (engine-wall-clock.test.ts has the running and queued
 * ones). In-process servers on a ManualClock: a clock runs out when the test moves it, once the item
 * waits at the gate.
 */

/** build writes the spec (a fake agent), the gate reviews it, finish runs `finishRun`. */
const gated = (gate: string, finishRun = `'true'`, chainPolicy = '') => `
${chainPolicy}nodes:
  - id: build
    kind: exec
    tasks:
      - id: write
        kind: agent
        harness: claude
        produces: spec
        prompt: Write the spec.
  - id: review
    kind: gate
    message: Read the spec
    artifact: spec
${gate}  - id: finish
    kind: exec
    tasks:
      - id: last
        kind: subprocess
        run: ${finishRun}
`;

/** The fake agents as harnesses; the writer answers done with a one-line spec. */
const gateSetup = (chains: Record<string, string>, opts: { home?: string } = {}) =>
  clockedSetup(chains, {
    ...opts,
    agents: true,
    env: { FAKE_AGENT_MODE: 'done', FAKE_AGENT_ARTIFACT: '# Spec\n' },
  });

const atGate = (i: any) => i.status === 'stopped' && i.stop?.kind === 'gate';

async function expectGateOpen(jig: Served, id: string): Promise<void> {
  const doc = await http(`${jig.url}/api/work-items/${id}/artifact`);
  expect(doc.status, doc.text).toBe(200);
  expect(doc.json).toEqual({
    gate: 'review',
    kind: 'spec',
    path: expect.stringMatching(/spec\.md$/),
    text: '# Spec\n',
    // sha256 of '# Spec\n': what an approval may pin.
    digest: '603c828a03383f98b82bf9c6787deeb5c40c02871a1b8d6ba14b0d538020a02b',
  });
}

describe('wall clocks at a gate', () => {
  it("a gate's timeout stops the item as cap with gate_timed_out; the gate stays open and approving it completes the item", async () => {
    const { jig, repo, clock } = await gateSetup({ timed: gated('    timeout: 2s\n') });
    const item = await fileItem(jig, repo, 'timed');
    await until(jig, item.id, atGate);
    await clock.advance(3_000);
    const stopped = await until(jig, item.id, capStop);
    expect(stopped).toMatchObject({ current_node: 'review', display_status: 'needs_you' });
    expect(stopped.stop).toEqual({
      kind: 'cap',
      reason: expect.stringMatching(
        /^gate review timed out \(\d+\.\d of 0\.03 minutes\); it stays open: approve or reject it$/,
      ),
      suggested_action: null,
    });
    const ev = await events(jig, item.id);
    expect(ev.map((e) => e.type).slice(-3)).toEqual([
      'gate_requested',
      'gate_timed_out',
      'work_item_needs_human',
    ]);
    const [requested, timedOut, human] = ev.slice(-3);
    expect(requested.payload).toEqual({ gate: 'review', message: 'Read the spec' });
    expect(timedOut).toMatchObject({ by: 'jig', node: 'review' });
    expect(timedOut.payload).toEqual({
      clock: 'total',
      scope: 'gate',
      path: 'review',
      key: 'timeout',
      limit_minutes: 2 / 60,
      elapsed_minutes: expect.any(Number),
      from: 'stopped:gate',
    });
    expect(timedOut.payload.elapsed_minutes).toBeGreaterThanOrEqual(2 / 60);
    expect(human.payload).toEqual({ kind: 'cap', reason: stopped.stop.reason });
    expect(ofType(ev, 'time_cap_reached')).toEqual([]);

    await expectGateOpen(jig, item.id);
    // A gate that timed out is still decided, not retried.
    const retried = await post(jig, `/api/work-items/${item.id}/retry`);
    expect(retried.status).toBe(409);
    expect(retried.json).toEqual({
      detail: 'the item waits at gate review: approve or reject it',
      code: 'item_at_gate',
      status: 'stopped',
      gate: 'review',
    });
    const approved = await post(jig, `/api/work-items/${item.id}/gates/review/approve`);
    expect(approved.status, approved.text).toBe(200);
    const done = await until(jig, item.id, ended);
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    const after = await events(jig, item.id);
    expect(ofType(after, 'gate_timed_out')).toHaveLength(1);
    expect(after.map((e) => e.type).slice(after.findIndex((e) => e.seq === human.seq) + 1)).toEqual([
      'gate_approved',
      'node_started',
      'worker_session_started',
      'worker_session_exited',
      'node_completed',
      'work_item_completed',
    ]);
  });

  it("a gate's own total cap stops the item with the gate open; approving it completes the item", async () => {
    const { jig, repo, clock } = await gateSetup({
      gatecap: gated('    policy:\n      total_time_cap_minutes: 0.05\n'),
    });
    const item = await fileItem(jig, repo, 'gatecap');
    await until(jig, item.id, atGate);
    await clock.advance(4_000);
    const stopped = await until(jig, item.id, capStop);
    expect(stopped.current_node).toBe('review');
    expect(stopped.stop.reason).toMatch(capReason('gate review', '0.05', '; the gate stays open'));
    const reached = ofType(await events(jig, item.id), 'time_cap_reached');
    expect(reached.map((e) => e.payload)).toEqual([
      {
        clock: 'total',
        scope: 'gate',
        path: 'review',
        key: 'total_time_cap_minutes',
        limit_minutes: 0.05,
        elapsed_minutes: expect.any(Number),
        from: 'stopped:gate',
      },
    ]);
    await expectGateOpen(jig, item.id);
    expect((await post(jig, `/api/work-items/${item.id}/gates/review/approve`)).status).toBe(200);
    const done = await until(jig, item.id, ended);
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
  });

  it('the work item cap reached at a gate keeps the gate open; approval is accepted, the spent clock stops the next node, and a raised override lets a retry finish', async () => {
    const home = tempHome();
    const flag = join(home, 'raised');
    // The finish task waits until the test has raised the cap.
    const finish = `'${holdUntil(flag)}'`;
    leftovers.push(() => writeFileSync(flag, ''));
    const { jig, repo, clock } = await gateSetup(
      { itemcap: gated('', finish, 'policy:\n  total_time_cap_minutes: 0.1\n') },
      { home },
    );
    const item = await fileItem(jig, repo, 'itemcap');
    await until(jig, item.id, atGate);
    // Six seconds of cap for the whole item; seven pass at the gate.
    await clock.advance(7_000);
    const stopped = await until(jig, item.id, capStop);
    expect(stopped.current_node).toBe('review');
    expect(stopped.stop.reason).toMatch(capReason('the work item', '0.1'));
    let ev = await events(jig, item.id);
    expect(ev.map((e) => e.type).slice(-3)).toEqual([
      'gate_requested',
      'time_cap_reached',
      'work_item_needs_human',
    ]);
    expect(ev.at(-2).payload).toMatchObject({ scope: 'work_item', limit_minutes: 0.1, from: 'stopped:gate' });
    await expectGateOpen(jig, item.id);

    // Approved: the gate passes, but the item's clock is spent, so the next node is stopped at once.
    const approved = await post(jig, `/api/work-items/${item.id}/gates/review/approve`);
    expect(approved.status, approved.text).toBe(200);
    ev = await events(jig, item.id);
    // The approval names the request it answered: the gate's one request, open through the cap stop.
    expect(ofType(ev, 'gate_approved').map((e) => e.payload)).toEqual([
      { gate: 'review', request: ofType(ev, 'gate_requested')[0].seq },
    ]);
    // Whoever notices first (the sweep, or the check before a launch), the stop is the same.
    await eventOf(jig, item.id, 'work_item_needs_human', 2);
    const again = await until(jig, item.id, capStop);
    expect(again.stop.reason).toMatch(capReason('the work item', '0.1'));
    ev = await events(jig, item.id);
    expect(ofType(ev, 'time_cap_reached').map((e) => [e.payload.scope, e.payload.from])).toEqual([
      ['work_item', 'stopped:gate'],
      ['work_item', 'running'],
    ]);
    expect(ofType(ev, 'work_item_needs_human')).toHaveLength(2);

    // Raised for this item, a retry runs the node again and the item completes.
    const patched = await http(`${jig.url}/api/work-items/${item.id}`, {
      method: 'PATCH',
      body: { policy_override: { work_item: { total_time_cap_minutes: 600 } } },
    });
    expect(patched.status, patched.text).toBe(200);
    writeFileSync(flag, '');
    const retried = await post(jig, `/api/work-items/${item.id}/retry`);
    expect(retried.status, retried.text).toBe(200);
    const done = await until(jig, item.id, ended);
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    expect(ofType(await events(jig, item.id), 'time_cap_reached')).toHaveLength(2);
  });
});
