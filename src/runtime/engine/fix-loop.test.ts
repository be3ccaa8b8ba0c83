import { afterEach, describe, expect, it } from 'vitest';
import type { Walk } from '../../contract/walk.js';
import { findingTag } from '../../core/findings/identity.js';
import { updateItem } from '../../store/work-items.js';
import { bench, type Bench, type Canned } from '../../../test/helpers/step-host.js';
import { decide, judge, judged, repair } from './fix-loop.js';
import { NodeRunner } from './node-runner.js';
import type { NodeOutcome } from './node-outcome.js';

/*
 * The fix loop one phase at a time (decide → judge → judged → repair), each called on a walk put in
 * that phase, on a step host with canned launches (test/helpers/step-host.ts): what the phase
 * answers, the walk it leaves and the events it records.
 */

let b: Bench;
afterEach(() => b?.close());

const chain = (loop: string, task = 'kind: subprocess\n        run: make test') => `
nodes:
  - id: verify
    kind: exec
    tasks:
      - id: test
        ${task}
    fix_loop:
${loop}      tasks:
        - id: repair
          kind: subprocess
          run: make fix
`;
const JUDGE = `      judge:
        id: judge
        kind: subprocess
        run: make judge
`;

/** A failed test that reported one important finding. */
const failing = (message: string): Canned => ({
  status: 'failed',
  result: { status: 'failed', findings: [{ severity: 'important', message }] },
});
const tagOf = (message: string) => findingTag({ message });
const round = (n: number, cycle: number, ...messages: string[]) => ({
  round: n,
  cycle,
  after_repair: n > 1,
  findings: messages.map((m) => ({
    tag: tagOf(m),
    severity: 'important',
    message: m,
    task: 'verify.main.test',
  })),
});

type LoopPhase = 'decide' | 'judge' | 'judged' | 'repair';
// The variant of the walk with no field of its own (conflict, recovery and escalation have one).
type LoopWalk = Exclude<Walk, { phase: 'conflict' | 'recovery' | 'escalation' }>;

/**
 * Puts the walk at the start of `phase` (no step launched yet), with the test's session (as given)
 * as the measurement in progress.
 */
async function measured(phase: LoopPhase, test: Canned, extra: Omit<Partial<LoopWalk>, 'phase'> = {}) {
  const s = await b.finished('verify.main.test', test);
  await b.setWalk((w) => ({ ...w, phase, step: 0, step_at: null, measured: [s.id], ...extra }));
  return { rec: await b.item(), session: s.id };
}

/** What the node runner's `stuck` is handed, answered as a stop for a person. */
const stuckWith: string[] = [];
const stuck = async (reason: string): Promise<NodeOutcome> => {
  stuckWith.push(reason);
  return { kind: 'stop', stop: 'stuck', reason, session: null };
};
afterEach(() => {
  stuckWith.length = 0;
});

describe('decide', () => {
  it('a failure of builtin tasks only, with no finding reported, stops as failed: no commit can fix it', async () => {
    b = await bench(chain('', 'kind: builtin\n        ref: jig.verify_changed_test_scopes'));
    const { rec, session } = await measured('decide', { status: 'failed' });
    expect(await decide(b.ctx, rec)).toEqual({
      kind: 'stop',
      stop: 'failed',
      reason:
        'verify: only builtin task(s) failed (verify.main.test) and no findings were reported; no commit can fix that',
      session,
    });
    expect((await b.walk()).phase).toBe('decide');
    expect(await b.recorded()).toEqual([]);
  });

  it("goes to judged on an entry's first cycle, and to the judge after a repair; old concerns are cleared", async () => {
    b = await bench(chain(JUDGE));
    const first = await measured('decide', failing('x'), { cycles: 0, concerns: 'old' });
    expect(await decide(b.ctx, first.rec)).toBeNull();
    expect(await b.walk()).toMatchObject({ phase: 'judged', step: 0, step_at: null, concerns: null });
    const later = await measured('decide', failing('x'), { cycles: 1, concerns: 'old' });
    expect(await decide(b.ctx, later.rec)).toBeNull();
    expect(await b.walk()).toMatchObject({ phase: 'judge', step: 0, step_at: null, concerns: null });
    expect(b.launches).toEqual([]);
    expect(await b.recorded()).toEqual([]);
  });
});

describe('judged', () => {
  it('within its limits starts a cycle with the last round’s findings; the item’s override sets the limits', async () => {
    b = await bench(chain(''), { override: { verify: { max_attempts: 5, timeout_minutes: 10 } } });
    // The loop's wall clock reads real time today (fix-loop.ts), so it opened just now in real time.
    const { rec } = await measured('judged', failing('x'), {
      cycles: 0,
      loop_started_at: new Date(b.clock.now()).toISOString(),
      rounds: [round(1, 0, 'x')],
    });
    expect(await judged(b.ctx, rec, stuck)).toBeNull();
    expect(stuckWith).toEqual([]);
    expect(await b.recorded()).toEqual([
      {
        type: 'fix_cycle_started',
        node: 'verify',
        by: 'jig',
        payload: { node: 'verify', cycle: 1, attempts: 5, wall_clock_s: 600, findings: [tagOf('x')] },
      },
    ]);
    expect(await b.walk()).toMatchObject({ phase: 'repair', cycles: 1, step: 0, step_at: null });
  });

  it('out of attempts, the loop is exhausted and the node is stuck', async () => {
    b = await bench(chain(''));
    const { rec } = await measured('judged', failing('z'), {
      cycles: 3,
      rounds: [round(1, 0, 'x'), round(2, 1, 'y'), round(3, 2, 'w'), round(4, 3, 'z')],
    });
    const before = await b.walk();
    expect(await judged(b.ctx, rec, stuck)).toEqual({
      kind: 'stop',
      stop: 'stuck',
      reason: 'verify.fix_loop exhausted after 3 fix cycle(s)',
      session: null,
    });
    expect(stuckWith).toEqual(['verify.fix_loop exhausted after 3 fix cycle(s)']);
    expect(await b.walk()).toEqual(before);
    expect(await b.recorded()).toEqual([]);
  });

  it('out of wall clock, the loop is exhausted too', async () => {
    b = await bench(chain(''));
    const { rec } = await measured('judged', failing('x'), {
      cycles: 1,
      loop_started_at: new Date(b.clock.now() - 2 * 3600_000).toISOString(),
      rounds: [round(1, 0, 'w'), round(2, 1, 'x')],
    });
    expect(await judged(b.ctx, rec, stuck)).toMatchObject({ kind: 'stop', stop: 'stuck' });
    expect(stuckWith).toEqual(['verify.fix_loop exhausted after 1 fix cycle(s)']);
  });

  it('the same findings back after a repair: stuck, with their tags', async () => {
    b = await bench(chain(''));
    const { rec } = await measured('judged', failing('x'), {
      cycles: 1,
      loop_started_at: new Date(b.clock.now()).toISOString(),
      rounds: [round(1, 0, 'x'), round(2, 1, 'x')],
    });
    await judged(b.ctx, rec, stuck);
    expect(stuckWith).toEqual([
      `verify.fix_loop is stuck: the same findings came back after a repair (${tagOf('x')})`,
    ]);
    expect(await b.recorded()).toEqual([]);
  });
});

describe('judge', () => {
  const verdict = (v: string, concerns?: string): Canned => ({
    status: 'done',
    result: { status: 'done', verdict: v, ...(concerns ? { concerns } : {}) },
  });

  it('continue: the judge reads the brief, its concerns go to the repair, and the cycle goes on', async () => {
    b = await bench(chain(JUDGE));
    const { rec } = await measured('judge', failing('x'), { cycles: 1, rounds: [round(1, 0, 'x')] });
    b.script('verify.fix_loop.judge', verdict('continue', 'try the parser'));
    expect(await judge(b.ctx, rec, stuck)).toBeNull();
    expect(b.launches).toHaveLength(1);
    expect(b.launches[0]!.brief).toContain('# Fix brief: verify, cycle 1 of 3');
    expect(await b.recorded()).toEqual([
      {
        type: 'judge_verdict',
        node: 'verify',
        by: 'jig',
        payload: {
          node: 'verify',
          cycle: 1,
          verdict: 'continue',
          applied: 'continue',
          concerns: 'try the parser',
          session: 's0002',
        },
      },
    ]);
    expect(await b.walk()).toMatchObject({ phase: 'judged', step: 0, concerns: 'try the parser' });
    expect(stuckWith).toEqual([]);
  });

  it('stop_downgrade completes the node with its findings unresolved, unless a task failed', async () => {
    b = await bench(chain(JUDGE));
    const findings = {
      status: 'done' as const,
      result: { status: 'done', findings: [{ severity: 'important', message: 'y' }] },
    };
    const { rec } = await measured('judge', findings, { cycles: 1 });
    b.script('verify.fix_loop.judge', verdict('stop_downgrade', 'cosmetic'), verdict('stop_downgrade'));
    expect(await judge(b.ctx, rec, stuck)).toEqual({
      kind: 'completed',
      payload: { downgraded: true, unresolved: [tagOf('y')], concerns: 'cosmetic' },
    });
    // The walk stays where the judge stopped it: the node is done.
    expect((await b.walk()).phase).toBe('judge');
    // A failed task is not downgraded: the loop goes on.
    const failed = await measured('judge', failing('x'), { cycles: 1 });
    expect(await judge(b.ctx, failed.rec, stuck)).toBeNull();
    const verdicts = (await b.recorded()).map((e) => e.payload);
    expect(verdicts).toEqual([
      {
        node: 'verify',
        cycle: 1,
        verdict: 'stop_downgrade',
        applied: 'stop_downgrade',
        concerns: 'cosmetic',
        session: 's0002',
      },
      {
        node: 'verify',
        cycle: 1,
        verdict: 'stop_downgrade',
        applied: 'continue',
        concerns: null,
        session: 's0004',
      },
    ]);
  });

  it('stop_needs_human makes the node stuck with the judge’s concerns', async () => {
    b = await bench(chain(JUDGE));
    const { rec } = await measured('judge', failing('x'), { cycles: 2 });
    b.script('verify.fix_loop.judge', verdict('stop_needs_human', 'the spec is wrong'));
    expect(await judge(b.ctx, rec, stuck)).toMatchObject({ kind: 'stop', stop: 'stuck' });
    expect(stuckWith).toEqual(['verify.fix_loop: the judge asked for a person: the spec is wrong']);
    expect((await b.recorded()).map((e) => [e.type, (e.payload as { applied: string }).applied])).toEqual([
      ['judge_verdict', 'stop_needs_human'],
    ]);
    expect((await b.walk()).phase).toBe('judge');
  });
});

describe('repair', () => {
  it("runs the loop's steps with the brief, then the node is measured again from its first step", async () => {
    b = await bench(chain(''));
    const { rec } = await measured('repair', failing('x'), {
      cycles: 1,
      concerns: 'look at x',
      failed_step: 0,
    });
    b.script('verify.fix_loop.main.repair', { status: 'done' });
    expect(await repair(b.ctx, rec)).toBeNull();
    expect(b.launches.map((l) => l.task)).toEqual(['verify.fix_loop.main.repair']);
    expect(b.launches[0]!.brief).toContain('look at x');
    expect(await b.walk()).toMatchObject({
      phase: 'node',
      step: 0,
      step_at: null,
      measured: [],
      concerns: null,
      failed_step: null,
      cycles: 1,
    });
    expect(await b.recorded()).toEqual([]);
  });

  it('a pause during the repair halts and refunds the cycle', async () => {
    b = await bench(chain(''));
    const { rec } = await measured('repair', failing('x'), { cycles: 1 });
    b.script('verify.fix_loop.main.repair', { status: 'paused' });
    b.onLaunch = () => updateItem(b.store.db, b.id, { status: 'paused' });
    expect(await repair(b.ctx, rec)).toEqual({ kind: 'halt' });
    expect(await b.recorded()).toEqual([
      {
        type: 'fix_cycle_refunded',
        node: 'verify',
        by: 'jig',
        payload: { node: 'verify', cycle: 1, reason: 'paused' },
      },
    ]);
    expect(await b.walk()).toMatchObject({ phase: 'judged', cycles: 0, step: 0, step_at: null });
  });

  it('a repair whose agent cannot launch refunds the cycle and stops for a person', async () => {
    b = await bench(`
nodes:
  - id: verify
    kind: exec
    tasks:
      - id: test
        kind: subprocess
        run: make test
    fix_loop:
      tasks:
        - id: repair
          kind: agent
          harness: claude
          prompt: Fix it.
`);
    const { rec } = await measured('repair', failing('x'), { cycles: 2 });
    b.script('verify.fix_loop.main.repair', {
      refuse: { stop: 'config', reason: 'claude is not installed' },
    });
    expect(await repair(b.ctx, rec)).toEqual({
      kind: 'stop',
      stop: 'config',
      reason: 'claude is not installed',
      session: null,
    });
    expect((await b.recorded()).map((e) => e.payload)).toEqual([
      { node: 'verify', cycle: 2, reason: 'refused to start: claude is not installed' },
    ]);
    expect(await b.walk()).toMatchObject({ phase: 'judged', cycles: 1 });
  });
});

describe('the loop through the node runner', () => {
  it('exhausts its cycles and stops the item as stuck when the node has no escalation', async () => {
    b = await bench(chain('      max_attempts: 2\n'));
    b.script('verify.main.test', failing('a'), failing('b'), failing('c'));
    b.script('verify.fix_loop.main.repair', { status: 'done' }, { status: 'done' });
    const reason = 'verify.fix_loop exhausted after 2 fix cycle(s)';
    expect(await new NodeRunner(b.host).run(b.id, b.chain, b.node, b.repo)).toEqual({
      kind: 'stop',
      stop: 'stuck',
      reason,
      session: null,
    });
    const ev = await b.recorded();
    expect(ev.map((e) => e.type)).toEqual([
      'findings_measured',
      'fix_cycle_started',
      'findings_measured',
      'fix_cycle_started',
      'findings_measured',
      'node_stuck',
    ]);
    expect(ev.at(-1)!.payload).toEqual({ node: 'verify', reason, escalation: null });
    expect(ev.filter((e) => e.type === 'fix_cycle_started').map((e) => e.payload)).toEqual([
      { node: 'verify', cycle: 1, attempts: 2, wall_clock_s: 3600, findings: [tagOf('a')] },
      { node: 'verify', cycle: 2, attempts: 2, wall_clock_s: 3600, findings: [tagOf('b')] },
    ]);
    expect(await b.walk()).toMatchObject({
      phase: 'judged',
      cycles: 2,
      rounds: [round(1, 0, 'a'), round(2, 1, 'b'), round(3, 2, 'c')],
    });
  });
});
