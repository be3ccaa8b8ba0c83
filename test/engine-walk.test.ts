import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { eventually } from './helpers/eventually.js';
import { git } from './helpers/git.js';
import { clockedSetup, closeClocked, eventOf } from './helpers/engine-clock.js';
import { engineSetup, events, fileItem, isAlive, post, until } from './helpers/engine.js';
import { cleanupAll, http, tempHome } from './helpers/server.js';
import { dbAll, dbRun } from './helpers/test-store.js';
import { cleanupButShared, shareServerPerFile } from './helpers/shared-home.js';
import { holdUntil } from './helpers/hold.js';

// The tests need nothing of a server but their chains, policy and repository: they share one.
shareServerPerFile();

/*
 * The walks run on in-process servers (helpers/engine-clock.ts): nothing here waits for a wall clock,
 * so the ManualClock is never moved. A task's own `time_cap_minutes` is timed by the session runner
 * in real time, so that test waits its 1.2 s. The restarts stop a real `jig serve` (SIGKILL,
 * SIGTERM) and start it again.
 */
afterEach(async () => {
  try {
    await closeClocked();
  } finally {
    // Each test's own servers go after it; the shared one after the file.
    await cleanupButShared();
  }
});
afterAll(cleanupAll);

const gated = `
description: build, review, finish
nodes:
  - id: build
    kind: exec
    steps:
      - id: write
        tasks:
          - id: touch
            kind: subprocess
            run: echo built >> out.txt && git add out.txt && git commit -qm built
      - id: check
        tasks:
          - id: exists
            kind: subprocess
            argv: [test, -f, out.txt]
          - id: reports
            kind: subprocess
            run: 'printf %s "{\\"status\\":\\"done\\"}" > "$JIG_RESULT_PATH"'
  - id: review
    kind: gate
    message: Look at out.txt
    reject_to: build
  - id: finish
    kind: exec
    tasks:
      - id: last
        kind: subprocess
        run: echo finished
`;

describe('walking a chain', () => {
  it('runs steps in order and tasks in parallel, stops at the gate, and completes once approved', async () => {
    const { jig, repo } = await engineSetup({ gated });
    const item = await fileItem(jig, repo, 'gated');
    const atGate = await until(jig, item.id, (i) => i.status === 'stopped');
    expect(atGate).toMatchObject({
      display_status: 'needs_you',
      current_node: 'review',
      stop: { kind: 'gate', reason: 'Look at out.txt' },
    });
    expect(git(repo, 'log', '--format=%s', item.branch)).toBe('built\ninitial');
    expect(git(repo, 'log', '--format=%s', 'main')).toBe('initial');

    const approved = await post(jig, `/api/work-items/${item.id}/gates/review/approve`);
    expect(approved.status).toBe(200);
    const done = await until(jig, item.id, (i) => i.status === 'completed');
    expect(done.display_status).toBe('done');
    // Approving again answers the item as it is.
    const again = await post(jig, `/api/work-items/${item.id}/gates/review/approve`);
    expect(again.status).toBe(200);
    expect(again.json.status).toBe('completed');

    const types = (await events(jig, item.id)).map((e) => `${e.type}${e.node ? `@${e.node}` : ''}`);
    // The check step's two tasks run at once: one may end before the other has started.
    const parallel = types.slice(6, 10);
    expect([...parallel].sort()).toEqual([
      'worker_session_exited@build',
      'worker_session_exited@build',
      'worker_session_started@build',
      'worker_session_started@build',
    ]);
    expect(parallel[0]).toBe('worker_session_started@build');
    expect([...types.slice(0, 6), ...types.slice(10)]).toEqual([
      'work_item_created',
      'work_item_started',
      'worktree_prepared',
      'node_started@build',
      'worker_session_started@build',
      'worker_session_exited@build',
      'node_completed@build',
      'gate_requested@review',
      'gate_approved@review',
      'node_started@finish',
      'worker_session_started@finish',
      'worker_session_exited@finish',
      'node_completed@finish',
      'work_item_completed',
    ]);
  });

  it('a rejection re-enters reject_to with the note as a steer, and the walk comes back to the gate', async () => {
    const { jig, repo } = await engineSetup({ gated });
    const item = await fileItem(jig, repo, 'gated');
    const waiting = await until(jig, item.id, (i) => i.stop?.kind === 'gate');
    // The item says where a reject sends it, so a client need not work it out from the chain.
    expect(waiting.gate_reject_to).toBe('build');
    const noNote = await post(jig, `/api/work-items/${item.id}/gates/review/reject`, {});
    expect(noNote.status).toBe(422);
    const r = await post(jig, `/api/work-items/${item.id}/gates/review/reject`, { note: 'write it twice' });
    expect(r.status).toBe(200);
    await until(
      jig,
      item.id,
      (i) =>
        i.stop?.kind === 'gate' && git(repo, 'log', '--format=%s', item.branch).startsWith('built\nbuilt'),
    );
    const ev = await events(jig, item.id);
    // The rejection names the gate request it answered: the seq of the first gate_requested.
    const asked = ev.filter((e) => e.type === 'gate_requested').map((e) => e.seq);
    expect(asked).toHaveLength(2);
    expect(ev.find((e) => e.type === 'gate_rejected').payload).toEqual({
      gate: 'review',
      note: 'write it twice',
      reject_to: 'build',
      count: 1,
      request: asked[0],
    });
    expect((await http(`${jig.url}/api/work-items/${item.id}`)).json.gate_request).toBe(asked[1]);
    // A misspelt gate, or a node that is no gate, is answered with the gate that waits (issue 28).
    const wrongGate = await post(jig, `/api/work-items/${item.id}/gates/reveiw/approve`);
    expect([wrongGate.status, wrongGate.json]).toEqual([
      404,
      {
        code: 'gate_unknown',
        detail: "reveiw is no gate of this item's chain; the item waits at gate review",
      },
    ]);
    const notAGate = await post(jig, `/api/work-items/${item.id}/gates/build/reject`, { note: 'x' });
    expect(notAGate.json.detail).toBe("build is no gate of this item's chain; the item waits at gate review");
  });

  it('stops a failing step for a person, and retry reruns the node once the cause is fixed', async () => {
    const flag = join(tempHome(), 'flag');
    const { jig, repo, home } = await engineSetup({
      flaky: `
nodes:
  - id: check
    kind: exec
    tasks:
      - id: needs_flag
        kind: subprocess
        argv: [test, -f, ${flag}]
`,
    });
    const item = await fileItem(jig, repo, 'flaky');
    const stopped = await until(jig, item.id, (i) => i.status === 'stopped');
    expect(stopped.stop.kind).toBe('failed');
    expect(stopped.stop.reason).toMatch(/^check\.main\.needs_flag ended failed \(session s[0-9a-f]+/);
    writeFileSync(flag, '');
    expect((await post(jig, `/api/work-items/${item.id}/retry`)).status).toBe(200);
    await until(jig, item.id, (i) => i.status === 'completed');
    expect((await events(jig, item.id)).map((e) => e.type)).toContain('work_item_retried');
    expect(existsSync(join(home, 'run', 'worktrees', item.id))).toBe(true);
  });

  it('a task that needs context stops with its question; skip moves past the node', async () => {
    const { jig, repo } = await engineSetup({
      ask: `
nodes:
  - id: ask
    kind: exec
    tasks:
      - id: q
        kind: subprocess
        run: 'printf %s "{\\"status\\":\\"needs_context\\",\\"question\\":\\"Which API version?\\"}" > "$JIG_RESULT_PATH"'
  - id: after
    kind: exec
    tasks:
      - id: ok
        kind: subprocess
        run: 'true'
`,
    });
    const item = await fileItem(jig, repo, 'ask');
    const stopped = await until(jig, item.id, (i) => i.status === 'stopped');
    expect(stopped.stop).toEqual({
      kind: 'question',
      reason: 'ask.main.q asks: Which API version?',
      suggested_action: null,
    });
    expect((await post(jig, `/api/work-items/${item.id}/skip`, { note: 'use v2' })).status).toBe(200);
    await until(jig, item.id, (i) => i.status === 'completed');
    expect((await events(jig, item.id)).find((e) => e.type === 'node_skipped').payload).toEqual({
      node: 'ask',
      note: 'use v2',
    });
  });

  it('stops with a config stop when the agent CLI is not installed, naming it', async () => {
    const { jig, repo } = await engineSetup({});
    const item = await fileItem(jig, repo, 'default');
    const stopped = await until(jig, item.id, (i) => i.status === 'stopped');
    expect(stopped.stop).toMatchObject({
      kind: 'config',
      reason:
        'spec.main.author: no launch could start: claude: executable claude is not installed here (not on PATH)',
    });
  });
});

describe('caps, pause and slots', () => {
  const sleeper = (seconds: number, capMinutes?: number) => `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: sleep
        kind: subprocess
        run: 'echo $$ > "$JIG_RESULT_PATH.pid"; sleep ${seconds}'
${capMinutes ? `        policy:\n          time_cap_minutes: ${capMinutes}\n` : ''}`;

  const sleeperPid = async (jig: any, id: string): Promise<number> =>
    (await eventOf(jig, id, 'worker_session_started')).payload.pid;

  it('a time cap stops a running task at once, as a cap and not a failure', async () => {
    const { jig, repo, clock } = await clockedSetup({ capped: sleeper(60, 0.02) });
    const item = await fileItem(jig, repo, 'capped');
    const pid = await sleeperPid(jig, item.id);
    // The task's cap (1.2 s) is a timer on the server's clock: moved past it, not waited for.
    await clock.advance(1_300);
    const stopped = await until(jig, item.id, (i) => i.status === 'stopped');
    expect(stopped.stop.kind).toBe('cap');
    expect(isAlive(pid)).toBe(false);
    const types = (await events(jig, item.id)).map((e) => e.type);
    expect(types).toContain('time_cap_reached');
    expect((await events(jig, item.id)).find((e) => e.type === 'worker_session_exited').payload.status).toBe(
      'capped_out',
    );
  });

  it('pause ends the task process group; resume reruns the step', async () => {
    const { jig, repo } = await engineSetup({ slow: sleeper(60) });
    const item = await fileItem(jig, repo, 'slow');
    const pid = await sleeperPid(jig, item.id);
    const paused = await post(jig, `/api/work-items/${item.id}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.json.status).toBe('paused');
    await until(jig, item.id, () => !isAlive(pid));
    const exited = (await events(jig, item.id)).find((e) => e.type === 'worker_session_exited');
    expect(exited.payload.status).toBe('paused');
    const resumed = await post(jig, `/api/work-items/${item.id}/resume`, { note: 'carry on' });
    expect(resumed.json.status).toBe('running');
    const starts = () =>
      events(jig, item.id).then((ev) => ev.filter((e) => e.type === 'worker_session_started').length);
    await eventually(async () => (await starts()) >= 2, { what: 'a second session' });
    expect(await starts()).toBe(2);
    await post(jig, `/api/work-items/${item.id}/cancel`, { reason: 'enough' });
  });

  it('cancel of a running item ends its processes and keeps worktree and branch', async () => {
    const { jig, repo, home } = await engineSetup({ slow: sleeper(60) });
    const item = await fileItem(jig, repo, 'slow');
    const pid = await sleeperPid(jig, item.id);
    const r = await post(jig, `/api/work-items/${item.id}/cancel`, { reason: 'not now' });
    expect(r.json.status).toBe('cancelled');
    await until(jig, item.id, () => !isAlive(pid));
    expect(existsSync(join(home, 'run', 'worktrees', item.id))).toBe(true);
    expect(git(repo, 'branch', '--list', item.branch)).toContain(item.branch);
    // The killed session says the cancel ended it, not a pause (issue 28).
    const exited = await eventOf(jig, item.id, 'worker_session_exited');
    expect(exited.payload.status).toBe('cancelled');
    const sessions = (await http(`${jig.url}/api/work-items/${item.id}/sessions`)).json.sessions;
    expect(sessions.map((s: any) => s.status)).toEqual(['cancelled']);
  });

  it('max_concurrent queues the third of three items at 2, and starts it when a slot frees', async () => {
    const { jig, repo } = await engineSetup(
      { slow: sleeper(60) },
      { policy: 'max_concurrent: 2\ndefault:\n  attempts: 3\n  wall_clock_s: 3600\nloops: {}\n' },
    );
    const a = await fileItem(jig, repo, 'slow');
    const b = await fileItem(jig, repo, 'slow');
    const c = await fileItem(jig, repo, 'slow');
    expect([a.status, b.status, c.status]).toEqual(['running', 'running', 'queued']);
    expect((await events(jig, c.id)).map((e) => e.type)).toContain('work_item_queued');
    await post(jig, `/api/work-items/${a.id}/pause`);
    await until(jig, c.id, (i) => i.status === 'running');
    for (const x of [b, c]) await post(jig, `/api/work-items/${x.id}/cancel`);
  });
});

describe('restarts', () => {
  // The task waits for a go-file, so the test decides when it ends: no race with the restart.
  const chain = `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: wait
        kind: subprocess
        run: '${holdUntil('"$JIG_RESULT_PATH.go"')}; echo done > slept.txt'
  - id: after
    kind: exec
    tasks:
      - id: check
        kind: subprocess
        argv: [test, -f, slept.txt]
`;
  async function firstSession(jig: any, id: string): Promise<{ session: string; pid: number }> {
    const started = await eventOf(jig, id, 'worker_session_started');
    return { session: started.payload.session, pid: started.payload.pid };
  }

  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    it(`after ${signal} of the server, the running task is adopted, finishes, and the item moves on`, async () => {
      const { jig, repo, home } = await engineSetup({ nap: chain });
      const item = await fileItem(jig, repo, 'nap');
      const { session, pid } = await firstSession(jig, item.id);
      await jig.stop(signal);
      expect(isAlive(pid)).toBe(true); // the task outlives the server, whatever the signal
      const { startJig } = await import('./helpers/server.js');
      const again = await startJig({ home });
      const health = (await http(`${again.url}/api/health`)).json;
      expect(health.reattach_summary).toEqual({
        scanned: 1,
        adopted: 1,
        resolved_from_file: 0,
        unknown: 0,
        resumed_work_items: 1,
      });
      writeFileSync(join(home, 'run', 'results', `${session}.json.go`), '');
      await until(again, item.id, (i) => i.status === 'completed');
      const ev = await events(again, item.id);
      const seqs = ev.map((e) => e.seq);
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
      expect(new Set(seqs).size).toBe(seqs.length);
      const types = ev.map((e) => e.type);
      expect(types).toContain('session_reattached');
      expect(types.filter((t) => t === 'worker_session_exited')).toHaveLength(2);
      expect(types.at(-1)).toBe('work_item_completed');
    });
  }

  it('a task that ended while the server was down is resolved from its files, and the item moves on', async () => {
    const { jig, repo, home } = await engineSetup({ nap: chain });
    const item = await fileItem(jig, repo, 'nap');
    const { session, pid } = await firstSession(jig, item.id);
    await jig.stop('SIGKILL');
    writeFileSync(join(home, 'run', 'results', `${session}.json.go`), '');
    await eventually(() => !isAlive(pid), { what: `the task (pid ${pid}) to end` });
    const { startJig } = await import('./helpers/server.js');
    const again = await startJig({ home });
    const health = (await http(`${again.url}/api/health`)).json;
    expect(health.reattach_summary).toEqual({
      scanned: 1,
      adopted: 0,
      resolved_from_file: 1,
      unknown: 0,
      resumed_work_items: 1,
    });
    await until(again, item.id, (i) => i.status === 'completed');
    const exited = (await events(again, item.id)).filter((e) => e.type === 'worker_session_exited');
    expect(exited[0].payload).toMatchObject({ session, status: 'done', exit_code: 0 });
  });

  // The session's row is written before its process starts and the pid after: a crash between the
  // two leaves a row without a pid. The restart finds the process by its command line and adopts
  // it, so the node is not launched a second time beside it.
  it('a task whose pid never reached the database before a kill -9 is found and adopted, not run twice', async () => {
    const { jig, repo, home } = await engineSetup({ nap: chain });
    const item = await fileItem(jig, repo, 'nap');
    const { session, pid } = await firstSession(jig, item.id);
    await jig.stop('SIGKILL');
    await dbRun(home, 'UPDATE worker_sessions SET pid = NULL, pid_start = NULL WHERE id = ?', [session]);
    const { startJig } = await import('./helpers/server.js');
    const again = await startJig({ home });
    const health = (await http(`${again.url}/api/health`)).json;
    expect(health.reattach_summary).toEqual({
      scanned: 1,
      adopted: 1,
      resolved_from_file: 0,
      unknown: 0,
      resumed_work_items: 1,
    });
    const rows = await dbAll<{ pid: number }>(home, 'SELECT pid FROM worker_sessions WHERE id = ?', [
      session,
    ]);
    expect(rows.map((r) => Number(r.pid))).toEqual([pid]);
    writeFileSync(join(home, 'run', 'results', `${session}.json.go`), '');
    await until(again, item.id, (i) => i.status === 'completed');
    const ev = await events(again, item.id);
    expect(ev.filter((e) => e.type === 'session_reattached').map((e) => e.payload)).toEqual([
      { session, pid },
    ]);
    expect(ev.filter((e) => e.type === 'worker_session_started').map((e) => e.payload.task)).toEqual([
      'work.main.wait',
      'after.main.check',
    ]);
  });
});
