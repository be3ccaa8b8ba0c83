import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentSetup } from './helpers/agents.js';
import { engineSetup, events, fileItem, isAlive, post, until } from './helpers/engine.js';
import { cleanupAll, http, startJig, tempHome, type JigProcess } from './helpers/server.js';

/** Ends what a test left running (its tasks outlive the server by design), then the servers. */
const leftovers: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const f of leftovers.splice(0)) await f();
  await cleanupAll();
});

/*
 * `total_time_cap_minutes` is wall clock less holds, checked by a sweep once a second. Caps here are
 * a few seconds; the tests never assert how long anything took, only what stopped and why. Where a
 * clock must NOT run out, the margin is several times the sweep and the work to be done.
 */

const ended = (i: any) => i.status !== 'running' && i.status !== 'queued';
const capStop = (i: any) => i.status === 'stopped' && i.stop?.kind === 'cap';
const ofType = (ev: any[], type: string) => ev.filter((e) => e.type === type);
const nap = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `reason` for a wall clock that ran out, with the minutes used left open (they are measured). */
const capReason = (where: string, limit: string, gate = '') =>
  new RegExp(
    `^total_time_cap_minutes of ${where} reached: \\d+\\.\\d of ${limit} minutes of wall clock, less pauses${gate} \\(raise it with the item's policy_override\\)$`,
  );

/** A task that starts a long `sleep` in its process group and writes the sleep's pid to `sleep.pid`. */
const SLEEPER = `run: 'sleep 30 & echo $! > sleep.pid; wait'`;

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, tries = 300): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await probe();
    if (v !== undefined) return v;
    await nap(100);
  }
  throw new Error(`never saw ${what}`);
}

const eventOf = (jig: JigProcess, id: string, type: string, n = 1) =>
  waitFor(`${n} ${type} event(s)`, async () => {
    const found = ofType(await events(jig, id), type);
    return found.length >= n ? found[n - 1] : undefined;
  });

/** The pid the sleeper wrote in the item's worktree. */
function sleepPid(jig: JigProcess, item: any): Promise<number> {
  const file = join(jig.home, 'run', 'worktrees', item.id, 'sleep.pid');
  return waitFor('sleep.pid', async () => {
    try {
      const n = Number(readFileSync(file, 'utf8').trim());
      return n > 0 ? n : undefined;
    } catch {
      return undefined;
    }
  });
}

async function fileWith(
  jig: JigProcess,
  repo: string,
  chain: string,
  policy_override: unknown,
): Promise<any> {
  const r = await http(`${jig.url}/api/work-items`, {
    method: 'POST',
    body: { title: `Run ${chain}`, repo, chain, start: true, policy_override },
  });
  expect(r.status, r.text).toBe(201);
  return r.json;
}

/**
 * The item stops on its wall clock while a task runs: checks the stop, the two events in order right
 * after the session started, the process group ended, the session ended as paused (refunded, not a
 * failure) and that the walk did nothing more. Answers the `time_cap_reached` payload.
 */
async function expectRunningCapStop(
  jig: JigProcess,
  item: any,
  pid: number,
  reason: RegExp,
  crossed: { scope: string; path: string; limit_minutes: number; node: string },
): Promise<any> {
  const stopped = await until(jig, item.id, capStop);
  expect(stopped.stop).toEqual({
    kind: 'cap',
    reason: expect.stringMatching(reason),
    suggested_action: null,
  });
  expect(stopped.current_node).toBe(crossed.node);
  await until(jig, item.id, () => !isAlive(pid));
  // The session of the capped task (the last one started) ends as paused: refunded, not failed.
  const session = (await events(jig, item.id)).findLast((e) => e.type === 'worker_session_started');
  const exited = await waitFor('the capped session to end', async () =>
    (await events(jig, item.id)).find(
      (e) => e.type === 'worker_session_exited' && e.payload.session === session.payload.session,
    ),
  );
  expect(exited.payload.status).toBe('paused');
  const ev = await events(jig, item.id);
  const started = ev.findIndex(
    (e) => e.type === 'worker_session_started' && e.payload.session === session.payload.session,
  );
  expect(ev.slice(started).map((e) => e.type)).toEqual([
    'worker_session_started',
    'time_cap_reached',
    'work_item_needs_human',
    'worker_session_exited',
  ]);
  const [reached, human] = [ev[started + 1], ev[started + 2]];
  expect(reached).toMatchObject({ by: 'jig', node: crossed.node });
  expect(reached.payload).toEqual({
    clock: 'total',
    scope: crossed.scope,
    path: crossed.path,
    key: 'total_time_cap_minutes',
    limit_minutes: crossed.limit_minutes,
    elapsed_minutes: expect.any(Number),
    from: 'running',
  });
  expect(reached.payload.elapsed_minutes).toBeGreaterThanOrEqual(crossed.limit_minutes);
  expect(human).toMatchObject({ by: 'jig', node: crossed.node });
  expect(human.payload).toEqual({ kind: 'cap', reason: stopped.stop.reason });
  // A cap is not a code failure: no fix cycle, no measurement, and the walk stays where it stopped.
  for (const t of ['fix_cycle_started', 'findings_measured', 'node_stuck']) expect(ofType(ev, t)).toEqual([]);
  expect(ofType(ev, 'node_completed').filter((e) => e.payload.node === crossed.node)).toEqual([]);
  const after = (await http(`${jig.url}/api/work-items/${item.id}`)).json;
  expect(after.status).toBe('stopped');
  expect(after.stop).toEqual(stopped.stop);
  return reached.payload;
}

describe('total_time_cap_minutes on a running item', () => {
  it("the chain's cap on the work item ends the running task's process group and stops the item as cap", async () => {
    const { jig, repo } = await engineSetup({
      itemcap: `
policy:
  total_time_cap_minutes: 0.05
nodes:
  - id: work
    kind: exec
    tasks:
      - id: sleep
        kind: subprocess
        ${SLEEPER}
    fix_loop:
      tasks:
        - id: repair
          kind: subprocess
          run: 'true'
`,
    });
    const item = await fileItem(jig, repo, 'itemcap');
    const pid = await sleepPid(jig, item);
    const session = (await eventOf(jig, item.id, 'worker_session_started')).payload.pid;
    await expectRunningCapStop(jig, item, pid, capReason('the work item', '0.05'), {
      scope: 'work_item',
      path: 'work_item',
      limit_minutes: 0.05,
      node: 'work',
    });
    expect(isAlive(session)).toBe(false);
  });

  it('a clock keeps running across a kill -9 of the server: after the restart the adopted task is ended as cap', async () => {
    const home = tempHome();
    const { jig, repo } = await engineSetup(
      {
        across: `
policy:
  total_time_cap_minutes: 0.1
nodes:
  - id: work
    kind: exec
    tasks:
      - id: sleep
        kind: subprocess
        ${SLEEPER}
`,
      },
      { home },
    );
    const item = await fileItem(jig, repo, 'across');
    const pid = await sleepPid(jig, item);
    await jig.stop('SIGKILL');
    // The task outlives the server by design; the restarted server adopts it and its clock.
    expect(isAlive(pid)).toBe(true);
    const again = await startJig({ home });
    const stopped = await until(again, item.id, capStop);
    expect(stopped.stop.reason).toMatch(capReason('the work item', '0.1'));
    await waitFor('the sleep to end', async () => (isAlive(pid) ? undefined : true));
    const ev = await events(again, item.id);
    expect(ofType(ev, 'time_cap_reached').map((e) => [e.payload.scope, e.payload.from])).toEqual([
      ['work_item', 'running'],
    ]);
    expect(
      ofType(ev, 'session_reattached').length + ofType(ev, 'session_resolved_after_restart').length,
    ).toBe(1);
  });

  it("a node's own cap stops the item in that node, its clock starting at the node's entry", async () => {
    const { jig, repo } = await engineSetup({
      nodecap: `
nodes:
  - id: prep
    kind: exec
    tasks:
      - id: quick
        kind: subprocess
        run: 'true'
  - id: work
    kind: exec
    policy:
      total_time_cap_minutes: 0.05
    tasks:
      - id: sleep
        kind: subprocess
        ${SLEEPER}
`,
    });
    const item = await fileItem(jig, repo, 'nodecap');
    const pid = await sleepPid(jig, item);
    await expectRunningCapStop(jig, item, pid, capReason('node work', '0.05'), {
      scope: 'node',
      path: 'work',
      limit_minutes: 0.05,
      node: 'work',
    });
    const ev = await events(jig, item.id);
    expect(ofType(ev, 'node_started').map((e) => e.payload.node)).toEqual(['prep', 'work']);
  });

  it("an item's policy_override sets a task's cap (flat spelling) and beats the chain's node cap", async () => {
    const { jig, repo } = await engineSetup({
      free: `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: sleep
        kind: subprocess
        ${SLEEPER}
`,
      // Six seconds of work under a three-second node cap: only the override lets it finish.
      tight: `
nodes:
  - id: work
    kind: exec
    policy:
      total_time_cap_minutes: 0.05
    tasks:
      - id: nap
        kind: subprocess
        run: 'sleep 6'
`,
    });
    const raised = await fileWith(jig, repo, 'tight', { work: { total_time_cap_minutes: 60 } });
    const capped = await fileWith(jig, repo, 'free', { 'work.main.sleep.total_time_cap_minutes': 0.05 });
    expect(capped.policy_override).toEqual({ 'work.main.sleep.total_time_cap_minutes': 0.05 });
    const pid = await sleepPid(jig, capped);
    await expectRunningCapStop(jig, capped, pid, capReason('task work.main.sleep', '0.05'), {
      scope: 'task',
      path: 'work.main.sleep',
      limit_minutes: 0.05,
      node: 'work',
    });
    const done = await until(jig, raised.id, ended);
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    expect(ofType(await events(jig, raised.id), 'time_cap_reached')).toEqual([]);
  });

  it('time paused is not counted: a pause longer than every cap, then resume, and the item completes', async () => {
    const home = tempHome();
    const counter = join(home, 'runs');
    // Every scope capped at 9 s. The first run blocks until the pause ends it; the rerun after resume
    // finishes at once.
    const { jig, repo } = await engineSetup(
      {
        held: `
policy:
  total_time_cap_minutes: 0.15
nodes:
  - id: work
    kind: exec
    policy:
      total_time_cap_minutes: 0.15
    steps:
      - id: only
        policy:
          total_time_cap_minutes: 0.15
        tasks:
          - id: once
            kind: subprocess
            policy:
              total_time_cap_minutes: 0.15
            run: |
              n=$(( $(cat ${counter} 2>/dev/null || echo 0) + 1 )); echo $n > ${counter}
              if [ $n -eq 1 ]; then sleep 30; fi
`,
      },
      { home },
    );
    const item = await fileItem(jig, repo, 'held');
    await eventOf(jig, item.id, 'worker_session_started');
    const paused = await post(jig, `/api/work-items/${item.id}/pause`);
    expect(paused.status, paused.text).toBe(200);
    expect(paused.json.status).toBe('paused');
    expect((await eventOf(jig, item.id, 'worker_session_exited')).payload.status).toBe('paused');
    // Held for well past the 9 s cap of every scope (a bounded wait, not a timing assertion).
    await nap(14_000);
    const still = (await http(`${jig.url}/api/work-items/${item.id}`)).json;
    expect(still.status).toBe('paused');
    const resumed = await post(jig, `/api/work-items/${item.id}/resume`);
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.json.status).toBe('running');
    const done = await until(jig, item.id, ended);
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    const ev = await events(jig, item.id);
    expect(ofType(ev, 'time_cap_reached')).toEqual([]);
    expect(ofType(ev, 'work_item_needs_human')).toEqual([]);
    expect(ofType(ev, 'worker_session_started')).toHaveLength(2);
    expect(ev.map((e) => e.type).filter((t) => /paused|resumed|completed$/.test(t))).toEqual([
      'work_item_paused',
      'work_item_resumed',
      'node_completed',
      'work_item_completed',
    ]);
    expect(readFileSync(counter, 'utf8').trim()).toBe('2');
  });

  it('a stop for a person (a failed task) is a hold too: a retry after a long stop is not capped', async () => {
    const home = tempHome();
    const flag = join(home, 'flag');
    const { jig, repo } = await engineSetup(
      {
        flaky: `
policy:
  total_time_cap_minutes: 0.15
nodes:
  - id: check
    kind: exec
    tasks:
      - id: needs_flag
        kind: subprocess
        argv: [test, -f, ${flag}]
`,
      },
      { home },
    );
    const item = await fileItem(jig, repo, 'flaky');
    const stopped = await until(jig, item.id, ended);
    expect(stopped.stop.kind).toBe('failed');
    // Stopped for well past the 9 s cap (a bounded wait, not a timing assertion).
    await nap(13_000);
    expect((await http(`${jig.url}/api/work-items/${item.id}`)).json.stop.kind).toBe('failed');
    writeFileSync(flag, '');
    expect((await post(jig, `/api/work-items/${item.id}/retry`)).status).toBe(200);
    const done = await until(jig, item.id, ended);
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    expect(ofType(await events(jig, item.id), 'time_cap_reached')).toEqual([]);
  });

  it('a queue wait counts: a resumed item waiting for a slot is stopped there as cap', async () => {
    const { jig, repo } = await engineSetup(
      {
        waits: `
policy:
  total_time_cap_minutes: 0.1
nodes:
  - id: work
    kind: exec
    tasks:
      - id: sleep
        kind: subprocess
        ${SLEEPER}
`,
        hog: `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: sleep
        kind: subprocess
        run: 'sleep 60'
`,
      },
      { policy: 'max_concurrent: 1\n' },
    );
    const item = await fileItem(jig, repo, 'waits');
    await eventOf(jig, item.id, 'worker_session_started');
    expect((await post(jig, `/api/work-items/${item.id}/pause`)).json.status).toBe('paused');
    await eventOf(jig, item.id, 'worker_session_exited');
    const hog = await fileItem(jig, repo, 'hog');
    leftovers.push(() => post(jig, `/api/work-items/${hog.id}/cancel`));
    expect(hog.status).toBe('running');
    const resumed = await post(jig, `/api/work-items/${item.id}/resume`);
    expect(resumed.json.status).toBe('queued');
    const stopped = await until(jig, item.id, capStop);
    expect(stopped.stop.reason).toMatch(capReason('the work item', '0.1'));
    const ev = await events(jig, item.id);
    const reached = ofType(ev, 'time_cap_reached');
    expect(reached.map((e) => e.payload)).toEqual([
      {
        clock: 'total',
        scope: 'work_item',
        path: 'work_item',
        key: 'total_time_cap_minutes',
        limit_minutes: 0.1,
        elapsed_minutes: expect.any(Number),
        from: 'queued',
      },
    ]);
    expect(ev.map((e) => e.type).slice(-4)).toEqual([
      'work_item_queued',
      'work_item_resumed',
      'time_cap_reached',
      'work_item_needs_human',
    ]);
    // It never ran again, and the other item keeps its slot.
    expect(ofType(ev, 'worker_session_started')).toHaveLength(1);
    expect((await http(`${jig.url}/api/work-items/${hog.id}`)).json.status).toBe('running');
  });
});

describe('the first start queued', () => {
  it('a wait for a slot at the first start counts: the item is stopped as cap while still queued', async () => {
    const { jig, repo } = await engineSetup(
      {
        waits: `
policy:
  total_time_cap_minutes: 0.05
nodes:
  - id: work
    kind: exec
    tasks:
      - id: quick
        kind: subprocess
        run: 'true'
`,
        hog: `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: sleep
        kind: subprocess
        run: 'sleep 60'
`,
      },
      { policy: 'max_concurrent: 1\n' },
    );
    const hog = await fileItem(jig, repo, 'hog');
    leftovers.push(() => post(jig, `/api/work-items/${hog.id}/cancel`));
    await eventOf(jig, hog.id, 'worker_session_started');
    const item = await fileItem(jig, repo, 'waits');
    expect(item.status).toBe('queued');
    // The clock starts at the first start (docs/chains.md, "Time caps"), and a wait for a slot
    // counts: three seconds of cap, ten or more of waiting.
    const stopped = await until(jig, item.id, ended, 100);
    expect(stopped.status).toBe('stopped');
    expect(stopped.stop).toEqual({
      kind: 'cap',
      reason: expect.stringMatching(capReason('the work item', '0.05')),
      suggested_action: null,
    });
    const reached = ofType(await events(jig, item.id), 'time_cap_reached');
    expect(reached.map((e) => e.payload)).toEqual([
      {
        clock: 'total',
        scope: 'work_item',
        path: 'work_item',
        key: 'total_time_cap_minutes',
        limit_minutes: 0.05,
        elapsed_minutes: expect.any(Number),
        from: 'queued',
      },
    ]);
  });
});

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
  agentSetup(chains, { ...opts, env: { FAKE_AGENT_MODE: 'done', FAKE_AGENT_ARTIFACT: '# Spec\n' } });

async function expectGateOpen(jig: JigProcess, id: string): Promise<void> {
  const doc = await http(`${jig.url}/api/work-items/${id}/artifact`);
  expect(doc.status, doc.text).toBe(200);
  expect(doc.json).toEqual({
    gate: 'review',
    kind: 'spec',
    path: expect.stringMatching(/spec\.md$/),
    text: '# Spec\n',
  });
}

describe('wall clocks at a gate', () => {
  it("a gate's timeout stops the item as cap with gate_timed_out; the gate stays open and approving it completes the item", async () => {
    const { jig, repo } = await gateSetup({ timed: gated('    timeout: 2s\n') });
    const item = await fileItem(jig, repo, 'timed');
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
      code: 'move_refused',
      status: 'stopped',
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
    const { jig, repo } = await gateSetup({
      gatecap: gated('    policy:\n      total_time_cap_minutes: 0.05\n'),
    });
    const item = await fileItem(jig, repo, 'gatecap');
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
    const finish = `'while [ ! -f ${flag} ]; do sleep 0.1; done'`;
    leftovers.push(() => writeFileSync(flag, ''));
    const { jig, repo } = await gateSetup(
      { itemcap: gated('', finish, 'policy:\n  total_time_cap_minutes: 0.1\n') },
      { home },
    );
    const item = await fileItem(jig, repo, 'itemcap');
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
    expect(ofType(ev, 'gate_approved').map((e) => e.payload)).toEqual([{ gate: 'review' }]);
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
