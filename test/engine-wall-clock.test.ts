import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bootClocked,
  capReason,
  capStop,
  clockedSetup,
  closeClocked,
  ended,
  eventOf,
  ofType,
} from './helpers/engine-clock.js';
import { eventually } from './helpers/eventually.js';
import { engineSetup, events, fileItem, isAlive, post, until, type Served } from './helpers/engine.js';
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
 * `total_time_cap_minutes` is wall clock less holds, checked by a sweep once a second of the engine's
 * clock. The servers run in-process on a ManualClock (helpers/engine-clock.ts): a cap runs out when
 * the test moves the clock past it, and a clock that must NOT run out is one the test moves past the
 * cap while the clock should hold. The tasks are real processes; the tests wait for them by polling,
 * never on time.
 */

/** A task that starts a long `sleep` in its process group and writes the sleep's pid to `sleep.pid`. */
const SLEEPER = `run: 'sleep 30 & echo $! > sleep.pid; wait'`;

/** The pid the sleeper wrote in the item's worktree. */
function sleepPid(jig: { home: string }, item: any): Promise<number> {
  const file = join(jig.home, 'run', 'worktrees', item.id, 'sleep.pid');
  return eventually(
    () => {
      const n = Number(readFileSync(file, 'utf8').trim());
      return n > 0 && n;
    },
    { what: `the sleeper's pid in ${file}` },
  );
}

async function fileWith(jig: Served, repo: string, chain: string, policy_override: unknown): Promise<any> {
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
  jig: Served,
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
  const exited = await eventually(
    async () =>
      (await events(jig, item.id)).find(
        (e) => e.type === 'worker_session_exited' && e.payload.session === session.payload.session,
      ),
    { what: 'the capped session to end' },
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
    const { jig, repo, clock } = await clockedSetup({
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
    // Three seconds of cap; four pass while the task runs.
    await clock.advance(4_000);
    await expectRunningCapStop(jig, item, pid, capReason('the work item', '0.05'), {
      scope: 'work_item',
      path: 'work_item',
      limit_minutes: 0.05,
      node: 'work',
    });
    expect(isAlive(session)).toBe(false);
  });

  // The first server is a real `jig serve` killed with SIGKILL (no in-process server can die that
  // way); the restarted one runs in-process, so its clock can be moved past the cap.
  it('a clock keeps running across a kill -9 of the server: after the restart the adopted task is ended as cap', async () => {
    const home = tempHome();
    const { jig, repo } = await engineSetup(
      {
        across: `
policy:
  total_time_cap_minutes: 0.5
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
    const again = await bootClocked(home);
    // Thirty seconds of cap on a clock started before the kill (long enough that the first server,
    // on the real clock, cannot reach it under load before the kill): 31 more pass after the restart.
    await again.clock.advance(31_000);
    const stopped = await until(again, item.id, capStop);
    expect(stopped.stop.reason).toMatch(capReason('the work item', '0.5'));
    await eventually(() => !isAlive(pid), { what: 'the sleep to end' });
    const ev = await events(again, item.id);
    expect(ofType(ev, 'time_cap_reached').map((e) => [e.payload.scope, e.payload.from])).toEqual([
      ['work_item', 'running'],
    ]);
    expect(
      ofType(ev, 'session_reattached').length + ofType(ev, 'session_resolved_after_restart').length,
    ).toBe(1);
  });

  it("a node's own cap stops the item in that node, its clock starting at the node's entry", async () => {
    const { jig, repo, clock } = await clockedSetup({
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
    await clock.advance(4_000);
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
    const home = tempHome();
    const done = join(home, 'done');
    leftovers.push(() => writeFileSync(done, ''));
    const { jig, repo, clock } = await clockedSetup(
      {
        free: `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: sleep
        kind: subprocess
        ${SLEEPER}
`,
        // Six seconds of work under a three-second node cap: only the override lets it finish. The
        // work lasts until the test has moved the clock and says it is done.
        tight: `
nodes:
  - id: work
    kind: exec
    policy:
      total_time_cap_minutes: 0.05
    tasks:
      - id: nap
        kind: subprocess
        run: '${holdUntil(done)}'
`,
      },
      { home },
    );
    const raised = await fileWith(jig, repo, 'tight', { work: { total_time_cap_minutes: 60 } });
    const capped = await fileWith(jig, repo, 'free', { 'work.main.sleep.total_time_cap_minutes': 0.05 });
    expect(capped.policy_override).toEqual({ 'work.main.sleep.total_time_cap_minutes': 0.05 });
    const pid = await sleepPid(jig, capped);
    await eventOf(jig, raised.id, 'worker_session_started');
    await clock.advance(6_000);
    await expectRunningCapStop(jig, capped, pid, capReason('task work.main.sleep', '0.05'), {
      scope: 'task',
      path: 'work.main.sleep',
      limit_minutes: 0.05,
      node: 'work',
    });
    writeFileSync(done, '');
    const finished = await until(jig, raised.id, ended);
    expect(finished.status, JSON.stringify(finished.stop)).toBe('completed');
    expect(ofType(await events(jig, raised.id), 'time_cap_reached')).toEqual([]);
  });

  it('time paused is not counted: a pause longer than every cap, then resume, and the item completes', async () => {
    const home = tempHome();
    const counter = join(home, 'runs');
    const go = join(home, 'go');
    leftovers.push(() => writeFileSync(go, ''));
    // Every scope capped at 9 s. The first run blocks until the pause ends it; the rerun after resume
    // runs until the test has moved the clock with it running.
    const { jig, repo, clock } = await clockedSetup(
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
              if [ $n -eq 1 ]; then sleep 30; else ${holdUntil(go)}; fi
`,
      },
      { home },
    );
    const item = await fileItem(jig, repo, 'held');
    await eventOf(jig, item.id, 'worker_session_started');
    // The session starts before its shell has counted the run: pause only once it has.
    await expect.poll(() => existsSync(counter), { timeout: 20_000 }).toBe(true);
    const paused = await post(jig, `/api/work-items/${item.id}/pause`);
    expect(paused.status, paused.text).toBe(200);
    expect(paused.json.status).toBe('paused');
    expect((await eventOf(jig, item.id, 'worker_session_exited')).payload.status).toBe('paused');
    // Held for well past the 9 s cap of every scope.
    await clock.advance(14_000);
    const still = (await http(`${jig.url}/api/work-items/${item.id}`)).json;
    expect(still.status).toBe('paused');
    const resumed = await post(jig, `/api/work-items/${item.id}/resume`);
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.json.status).toBe('running');
    // The sweep looks at every clock while the rerun runs: the hold is not in any of them.
    await eventOf(jig, item.id, 'worker_session_started', 2);
    await clock.advance(2_000);
    writeFileSync(go, '');
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
    const { jig, repo, clock } = await clockedSetup(
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
    // Stopped for well past the 9 s cap.
    await clock.advance(13_000);
    expect((await http(`${jig.url}/api/work-items/${item.id}`)).json.stop.kind).toBe('failed');
    writeFileSync(flag, '');
    expect((await post(jig, `/api/work-items/${item.id}/retry`)).status).toBe(200);
    const done = await until(jig, item.id, ended);
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    expect(ofType(await events(jig, item.id), 'time_cap_reached')).toEqual([]);
  });

  it('a queue wait counts: a resumed item waiting for a slot is stopped there as cap', async () => {
    const { jig, repo, clock } = await clockedSetup(
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
    // Six seconds of cap; seven pass in the queue.
    await clock.advance(7_000);
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
    const { jig, repo, clock } = await clockedSetup(
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
    // counts: three seconds of cap, four of waiting.
    await clock.advance(4_000);
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
