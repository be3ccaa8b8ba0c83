import { afterEach, describe, expect, it } from 'vitest';
import { findingTag } from '../../core/findings/identity.js';
import { updateItem } from '../../store/work-items.js';
import { bench, type Bench } from '../../../test/helpers/step-host.js';
import { WalkFenced } from './claims.js';
import { NodeRunner } from './node-runner.js';

/*
 * The node runner, phase by phase, on a step host with canned launches (test/helpers/step-host.ts):
 * what `run` answers, the walk it leaves in the store and the events it records. The engine's own
 * events (node_started, node_completed, the sessions') are not the runner's and do not appear.
 */

let b: Bench;
afterEach(() => b?.close());

const T0 = Date.parse('2026-03-02T09:00:00.000Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const run = () => new NodeRunner(b.host).run(b.id, b.chain, b.node, b.repo);

/** The finding Jig makes for a task that failed without reporting one. */
const synthetic = (task: string, command: string) => {
  const f = { severity: 'critical', message: `${task} failed: ${command}`, source_plugin: 'jig', file: task };
  return { tag: findingTag(f), severity: f.severity, message: f.message, file: task, task, synthetic: true };
};

const TWO_STEPS = `
nodes:
  - id: build
    kind: exec
    steps:
      - id: write
        tasks:
          - id: a
            kind: subprocess
            run: 'true'
          - id: b
            kind: subprocess
            argv: [make, b]
      - id: check
        tasks:
          - id: c
            kind: subprocess
            run: 'true'
`;

/** `verify` runs `test`; `loop` is appended to the node (a fix loop, a recovery plan, an escalation). */
const verify = (loop = '') => `
nodes:
  - id: verify
    kind: exec
    tasks:
      - id: test
        kind: subprocess
        run: make test
${loop}`;

const REPAIR = `    fix_loop:
      tasks:
        - id: repair
          kind: subprocess
          run: make fix
`;

describe('the node runner', () => {
  it('runs the steps in order, their tasks together, and completes without recording anything', async () => {
    b = await bench(TWO_STEPS);
    b.script('build.write.a', { status: 'done' });
    b.script('build.write.b', { status: 'done' });
    b.script('build.check.c', { status: 'done' });
    const start = await b.walk();
    expect(await run()).toEqual({ kind: 'completed', payload: {} });
    expect(b.launches).toEqual([
      { task: 'build.write.a', node: 'build', argv: ['/bin/sh', '-c', 'true'], capS: null, brief: undefined },
      { task: 'build.write.b', node: 'build', argv: ['make', 'b'], capS: null, brief: undefined },
      { task: 'build.check.c', node: 'build', argv: ['/bin/sh', '-c', 'true'], capS: null, brief: undefined },
    ]);
    expect(await b.walk()).toEqual({
      ...start,
      step: 2,
      step_at: null,
      only_task: null,
      read_only_before: null,
      // The second step's clock started once the first step's two launches were made.
      step_clock: { at: at(2), paused_ms: 0, path: 'build.check' },
      measured: ['s0001', 's0002', 's0003'],
    });
    expect(await b.recorded()).toEqual([]);
  });

  it('a walk whose item another process took over changes nothing and ends (WalkFenced)', async () => {
    b = await bench(TWO_STEPS);
    b.script('build.write.a', { status: 'done' });
    b.script('build.write.b', { status: 'done' });
    const start = await b.walk();
    b.host.fence.heldIn = async () => false;
    await expect(run()).rejects.toThrow(new WalkFenced(b.id));
    expect(await b.walk()).toEqual(start);
    expect(await b.recorded()).toEqual([]);
  });

  it('with a fix loop, a clean measurement is recorded as a round and the loop stays closed', async () => {
    b = await bench(verify(REPAIR));
    b.script('verify.main.test', { status: 'done' });
    expect(await run()).toEqual({ kind: 'completed', payload: {} });
    expect(await b.recorded()).toEqual([
      {
        type: 'findings_measured',
        node: 'verify',
        by: 'jig',
        payload: {
          node: 'verify',
          entry: 1,
          round: 1,
          findings: [],
          dropped: 0,
          failed: [],
          loop_severities: ['critical', 'important'],
          loop_open: false,
        },
      },
    ]);
    expect((await b.walk()).rounds).toEqual([{ round: 1, cycle: 0, after_repair: false, findings: [] }]);
    expect((await b.walk()).phase).toBe('node');
  });

  it('a failing step with no fix loop stops the item as failed, naming the task and its session; later steps do not run', async () => {
    b = await bench(TWO_STEPS);
    b.script('build.write.a', { status: 'failed' });
    b.script('build.write.b', { status: 'done' });
    expect(await run()).toEqual({
      kind: 'stop',
      stop: 'failed',
      reason: 'build.write.a ended failed (session s0001; jig view logs)',
      session: 's0001',
    });
    expect(b.launches.map((l) => l.task)).toEqual(['build.write.a', 'build.write.b']);
    expect(await b.walk()).toMatchObject({ step: 2, failed_step: 0, measured: ['s0001', 's0002'] });
    expect(await b.recorded()).toEqual([
      {
        type: 'findings_measured',
        node: 'build',
        by: 'jig',
        payload: {
          node: 'build',
          entry: 1,
          round: 1,
          findings: [synthetic('build.write.a', 'true')],
          dropped: 0,
          failed: ['build.write.a'],
          loop_severities: ['critical', 'important'],
          loop_open: false,
        },
      },
    ]);
  });

  it('a failing step opens the fix loop: the repair runs with its brief, the node is measured again and passes', async () => {
    b = await bench(verify(REPAIR));
    b.script('verify.main.test', { status: 'failed' }, { status: 'done' });
    b.script('verify.fix_loop.main.repair', { status: 'done' });
    expect(await run()).toEqual({ kind: 'completed', payload: {} });
    expect(b.launches.map((l) => l.task)).toEqual([
      'verify.main.test',
      'verify.fix_loop.main.repair',
      'verify.main.test',
    ]);
    const brief = b.launches[1]!.brief!;
    expect(brief).toContain('# Fix brief: verify, cycle 1 of 3');
    expect(brief).toContain('- `verify.main.test` ended failed: `make test`');
    const finding = synthetic('verify.main.test', 'make test');
    expect(await b.recorded()).toEqual([
      {
        type: 'findings_measured',
        node: 'verify',
        by: 'jig',
        payload: {
          node: 'verify',
          entry: 1,
          round: 1,
          findings: [finding],
          dropped: 0,
          failed: ['verify.main.test'],
          loop_severities: ['critical', 'important'],
          loop_open: true,
        },
      },
      {
        type: 'fix_cycle_started',
        node: 'verify',
        by: 'jig',
        payload: { node: 'verify', cycle: 1, attempts: 3, wall_clock_s: 3600, findings: [finding.tag] },
      },
      {
        type: 'findings_measured',
        node: 'verify',
        by: 'jig',
        payload: {
          node: 'verify',
          entry: 1,
          round: 2,
          findings: [],
          dropped: 0,
          failed: [],
          loop_severities: ['critical', 'important'],
          loop_open: false,
        },
      },
    ]);
    const { severity, message, task, tag } = finding;
    expect(await b.walk()).toMatchObject({
      phase: 'node',
      cycles: 1,
      measured: ['s0003'],
      loop_started_at: expect.any(String),
      rounds: [
        { round: 1, cycle: 0, after_repair: false, findings: [{ tag, severity, message, task }] },
        { round: 2, cycle: 1, after_repair: true, findings: [] },
      ],
    });
  });

  it('a failed task runs its on_failure plan once, then the whole node reruns', async () => {
    b = await bench(
      verify(`    on_failure:
      tasks:
        - id: relabel
          kind: subprocess
          run: make labels
`),
    );
    b.script('verify.main.test', { status: 'failed' }, { status: 'done' });
    b.script('verify.on_failure.main.relabel', { status: 'done' });
    expect(await run()).toEqual({ kind: 'completed', payload: {} });
    expect(b.launches.map((l) => l.task)).toEqual([
      'verify.main.test',
      'verify.on_failure.main.relabel',
      'verify.main.test',
    ]);
    expect(await b.recorded()).toEqual([
      {
        type: 'node_recovery_started',
        node: 'verify',
        by: 'jig',
        payload: { node: 'verify', plan: 'verify.on_failure', failed: ['verify.main.test'], entry: 1 },
      },
    ]);
    expect(await b.walk()).toMatchObject({
      phase: 'node',
      recovery: 'verify.on_failure',
      measured: ['s0003'],
    });
  });

  it('a stuck node runs its escalation once; when it passes, the node is entered afresh', async () => {
    b = await bench(
      verify(`    fix_loop:
      max_attempts: 1
      tasks:
        - id: repair
          kind: subprocess
          run: make fix
    escalation:
      id: senior
      kind: subprocess
      run: make senior
`),
    );
    const says = (message: string) => ({
      status: 'failed' as const,
      result: { status: 'failed', findings: [{ severity: 'important', message }] },
    });
    b.script('verify.main.test', says('first'), says('second'), { status: 'done' });
    b.script('verify.fix_loop.main.repair', { status: 'done' });
    b.script('verify.escalation.senior', { status: 'done' });
    expect(await run()).toEqual({ kind: 'completed', payload: {} });
    const reason = 'verify.fix_loop exhausted after 1 fix cycle(s)';
    const ev = await b.recorded();
    expect(ev.map((e) => e.type)).toEqual([
      'findings_measured',
      'fix_cycle_started',
      'findings_measured',
      'node_stuck',
      'stuck_escalation_started',
      'stuck_escalation_finished',
      'node_started',
      'findings_measured',
    ]);
    expect(ev.slice(3, 7).map((e) => e.payload)).toEqual([
      { node: 'verify', reason, escalation: 'verify.escalation.senior' },
      { node: 'verify', task: 'verify.escalation.senior', reason },
      {
        node: 'verify',
        task: 'verify.escalation.senior',
        status: 'done',
        session: 's0004',
        fresh_entry: true,
      },
      { node: 'verify', step: 0, entry: 2 },
    ]);
    expect(ev[7]!.payload).toMatchObject({ entry: 2, round: 1, findings: [], loop_open: false });
    expect(await b.walk()).toMatchObject({
      entry: 2,
      escalated: true,
      cycles: 0,
      measured: ['s0005'],
      rounds: [{ round: 1, cycle: 0, after_repair: false, findings: [] }],
    });
  });
});

describe('when the node runner halts', () => {
  it('halts at once when the item no longer runs, and touches nothing', async () => {
    b = await bench(TWO_STEPS);
    await updateItem(b.store.db, b.id, { status: 'paused' });
    const before = await b.walk();
    expect(await run()).toEqual({ kind: 'halt' });
    expect(b.launches).toEqual([]);
    expect(await b.walk()).toEqual(before);
    expect(await b.recorded()).toEqual([]);
  });

  it('a pause during a step halts after its launches; the walk keeps the step and its start for the resume', async () => {
    b = await bench(TWO_STEPS);
    b.script('build.write.a', { status: 'paused' });
    b.script('build.write.b', { status: 'paused' });
    b.onLaunch = () => updateItem(b.store.db, b.id, { status: 'paused' });
    expect(await run()).toEqual({ kind: 'halt' });
    expect(b.launches.map((l) => l.task)).toEqual(['build.write.a', 'build.write.b']);
    const w = await b.walk();
    expect(w).toMatchObject({ step: 0, step_at: at(0), step_clock: { at: at(0), path: 'build.write' } });
    expect(w.measured).toBeUndefined();
    expect(await b.recorded()).toEqual([]);
  });

  it('the wall clock is checked before a launch: a clock already run out stops the item as cap and nothing launches', async () => {
    b = await bench(`policy:\n  total_time_cap_minutes: 1\n${TWO_STEPS}`);
    b.clock.jumpTo(T0 + 2 * 60_000);
    expect(await run()).toEqual({ kind: 'halt' });
    expect(b.launches).toEqual([]);
    const reason =
      "total_time_cap_minutes of the work item reached: 2.0 of 1 minutes of wall clock, less pauses (raise it with the item's policy_override)";
    expect(await b.item()).toMatchObject({ status: 'stopped', stop_kind: 'cap', stop_reason: reason });
    expect(await b.recorded()).toEqual([
      {
        type: 'time_cap_reached',
        node: 'build',
        by: 'jig',
        payload: {
          clock: 'total',
          scope: 'work_item',
          path: 'work_item',
          key: 'total_time_cap_minutes',
          limit_minutes: 1,
          elapsed_minutes: 2,
          from: 'running',
        },
      },
      { type: 'work_item_needs_human', node: 'build', by: 'jig', payload: { kind: 'cap', reason } },
    ]);
    // Stopped for a person: the clocks hold from now, and the item's sessions were asked to end.
    expect(await b.walk()).toMatchObject({ step: 0, paused_at: at(120), parked_until: null });
    expect(b.ended).toEqual([b.id]);
  });
});
