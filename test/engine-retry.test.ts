import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { engineSetup, events, fileItem, until } from './helpers/engine.js';
import {
  approve,
  completed,
  ofType,
  payloads,
  ran,
  retry,
  row,
  sessionsOf,
  stoppedAs,
} from './helpers/retry-rebase.js';
import { cleanupAll, runJig, type JigProcess } from './helpers/server.js';
import { cleanupButShared, shareServerPerFile } from './helpers/shared-home.js';

// The tests need nothing of a server but their chains, policy and repository: they share one.
shareServerPerFile();

// Each test's own servers go after it; the shared one after the file.
afterEach(cleanupButShared);
afterAll(cleanupAll);

/** prep, a gate, a three-step build whose second step fails until `go` is in the worktree, finish. */
const STEPS = `
nodes:
  - id: prep
    kind: exec
    tasks:
      - id: note
        kind: subprocess
        run: 'true'
  - id: ok
    kind: gate
    message: prep looks right
  - id: build
    kind: exec
    steps:
      - id: one
        tasks:
          - id: a
            kind: subprocess
            run: 'true'
      - id: two
        tasks:
          - id: x
            kind: subprocess
            run: 'true'
          - id: y
            kind: subprocess
            argv: [test, -f, go]
      - id: three
        tasks:
          - id: z
            kind: subprocess
            run: 'true'
  - id: finish
    kind: exec
    tasks:
      - id: last
        kind: subprocess
        run: 'true'
`;

const Y_FAILED = /^build\.two\.y ended failed \(session s[0-9a-f]+; jig view logs\)$/;

/** Files an item on STEPS and walks it to its first stop on build.two.y. */
async function stoppedOnBuild(jig: JigProcess, repo: string): Promise<any> {
  const item = await fileItem(jig, repo, 'steps');
  await until(jig, item.id, stoppedAs('gate'));
  expect((await approve(jig, item.id, 'ok')).status).toBe(200);
  const s = await until(jig, item.id, stoppedAs('failed'));
  expect(s.current_node).toBe('build');
  expect(s.stop.reason).toMatch(Y_FAILED);
  return item;
}

describe('retry with a path', () => {
  it('node, node.step and node.step.task rerun from that point; an earlier node asks its gates again', async () => {
    const { jig, repo, home } = await engineSetup({ steps: STEPS });
    const item = await fileItem(jig, repo, 'steps');
    await until(jig, item.id, stoppedAs('gate'));

    // Stopped at a gate: the gate is decided, not retried.
    const atGate = await retry(jig, item.id, { path: 'prep' });
    expect(atGate.status).toBe(409);
    expect(atGate.json).toEqual({
      detail: 'the item waits at gate ok: approve or reject it',
      code: 'item_at_gate',
      status: 'stopped',
      gate: 'ok',
    });

    expect((await approve(jig, item.id, 'ok')).status).toBe(200);
    await until(jig, item.id, stoppedAs('failed'));
    expect(ran(await events(jig, item.id))).toEqual({
      'prep.main.note': 1,
      'build.one.a': 1,
      'build.two.x': 1,
      'build.two.y': 1,
    });

    // `build`: the whole node from its first step.
    const r1 = await retry(jig, item.id, { path: 'build' });
    expect(r1.status).toBe(200);
    expect(r1.json).toMatchObject({ status: 'running', current_node: 'build', stop: null });
    await until(jig, item.id, stoppedAs('failed'));
    expect(ran(await events(jig, item.id))).toEqual({
      'prep.main.note': 1,
      'build.one.a': 2,
      'build.two.x': 2,
      'build.two.y': 2,
    });

    // `build.two`: that step and on; step one is not rerun.
    expect((await retry(jig, item.id, { path: 'build.two' })).status).toBe(200);
    await until(jig, item.id, stoppedAs('failed'));
    expect(ran(await events(jig, item.id))).toEqual({
      'prep.main.note': 1,
      'build.one.a': 2,
      'build.two.x': 3,
      'build.two.y': 3,
    });

    // `prep`: an earlier node; the gate after it must be approved again.
    const r3 = await retry(jig, item.id, { path: 'prep' });
    expect(r3.status).toBe(200);
    expect(r3.json.current_node).toBe('prep');
    const again = await until(jig, item.id, stoppedAs('gate'));
    expect(again.current_node).toBe('ok');
    expect((await approve(jig, item.id, 'ok')).status).toBe(200);
    await until(jig, item.id, stoppedAs('failed'));
    expect(ran(await events(jig, item.id))).toEqual({
      'prep.main.note': 2,
      'build.one.a': 3,
      'build.two.x': 4,
      'build.two.y': 4,
    });

    // `build.two.y`: only that task of the step reruns; the later steps and nodes run as usual.
    writeFileSync(join((await row(home, item.id)).worktree_path, 'go'), '');
    const r4 = await retry(jig, item.id, { path: 'build.two.y', steer: 'only y needed the file' });
    expect(r4.status).toBe(200);
    await until(jig, item.id, completed);
    const ev = await events(jig, item.id);
    expect(ran(ev)).toEqual({
      'prep.main.note': 2,
      'build.one.a': 3,
      'build.two.x': 4,
      'build.two.y': 5,
      'build.three.z': 1,
      'finish.main.last': 1,
    });
    expect(payloads(ev, 'work_item_retried')).toEqual([
      { node: 'build', from: 'build', step: 'build.one', task: null },
      { node: 'build', from: 'build', step: 'build.two', task: null },
      { node: 'prep', from: 'build', step: 'prep.main', task: null },
      {
        node: 'build',
        from: 'build',
        step: 'build.two',
        task: 'build.two.y',
        steer: 'only y needed the file',
      },
    ]);
    expect(ofType(ev, 'work_item_retried').map((e) => [e.by, e.node])).toEqual([
      ['human', 'build'],
      ['human', 'build'],
      ['human', 'prep'],
      ['human', 'build'],
    ]);
    expect(payloads(ev, 'gate_requested').map((p) => p.gate)).toEqual(['ok', 'ok']);
    expect(ofType(ev, 'gate_approved')).toHaveLength(2);
    // No agent launched, so the steer is still stored for the next one.
    expect((await row(home, item.id)).steer).toBe('only y needed the file');
    expect(ev.map((e) => e.type).slice(-2)).toEqual(['node_completed', 'work_item_completed']);

    // A completed item is not retried.
    const done = await retry(jig, item.id);
    expect(done.status).toBe(409);
    expect(done.json).toEqual({
      detail: 'the item is completed; only a stopped item can be retried',
      code: 'item_wrong_status',
      status: 'completed',
      allowed: ['stopped'],
    });
  });

  it('refuses a path that is ahead, a gate, or names nothing, and an item that is not stopped', async () => {
    const { jig, repo } = await engineSetup({ steps: STEPS });
    const paused = await fileItem(jig, repo, 'steps', false);
    const notStopped = await retry(jig, paused.id, { path: 'prep' });
    expect(notStopped.status).toBe(409);
    expect(notStopped.json).toEqual({
      detail: 'the item is paused; only a stopped item can be retried',
      code: 'item_wrong_status',
      status: 'paused',
      allowed: ['stopped'],
    });

    const item = await stoppedOnBuild(jig, repo);
    const before = await events(jig, item.id);
    const refused: [string, string][] = [
      [
        'finish',
        'path: finish comes after the node the item stopped on; a retry goes back (use skip to go forward)',
      ],
      ['ok', 'path: ok is a gate; a retry reruns an exec node'],
      ['nope', "path: no node nope in the item's chain"],
      ['build.four', "path: no step four among build's own steps (one, two, three)"],
      ['build.fix_loop', "path: no step fix_loop among build's own steps (one, two, three)"],
      ['build.two.w', 'path: no task w in build.two'],
      ['prep.other', "path: no step other among prep's own steps (main)"],
    ];
    for (const [path, detail] of refused) {
      const r = await retry(jig, item.id, { path });
      expect(r.status, path).toBe(422);
      expect(r.json, path).toEqual({ detail, code: 'validation_failed' });
    }
    // Not a path at all: the body is refused before the engine sees it.
    const notPath = 'is not a path like node, node.step or node.step.task';
    for (const path of ['Build', 'build.two.y.more', 'build..two', '']) {
      const r = await retry(jig, item.id, { path });
      expect(r.status, path).toBe(422);
      expect(r.json, path).toEqual({
        detail: `body.path: ${notPath}`,
        code: 'validation_failed',
        issues: [{ field: 'body.path', message: notPath }],
      });
    }
    const extra = await retry(jig, item.id, { path: 'build', where: 'x' });
    expect(extra.status).toBe(422);
    expect(extra.json).toEqual({
      detail: 'body: Unrecognized key: "where"',
      code: 'validation_failed',
      issues: [{ field: 'body', message: 'Unrecognized key: "where"' }],
    });
    const after = await until(jig, item.id, stoppedAs('failed'));
    expect(after.stop.reason).toMatch(Y_FAILED);
    const ev = await events(jig, item.id);
    expect(ev).toEqual(before);
    expect(ofType(ev, 'work_item_retried')).toEqual([]);
  });

  // The other tasks of the step keep their last result: a sibling that failed still fails the step.
  it("node.step.task keeps the failed result of the step's other tasks", async () => {
    const { jig, repo, home } = await engineSetup({
      pair: `
nodes:
  - id: build
    kind: exec
    steps:
      - id: two
        tasks:
          - id: x
            kind: subprocess
            run: 'false'
          - id: y
            kind: subprocess
            argv: [test, -f, go]
      - id: three
        tasks:
          - id: z
            kind: subprocess
            run: 'true'
`,
    });
    const item = await fileItem(jig, repo, 'pair');
    const first = await until(jig, item.id, stoppedAs('failed'));
    expect(first.stop.reason).toMatch(/^build\.two\.x ended failed/);
    writeFileSync(join((await row(home, item.id)).worktree_path, 'go'), '');
    expect((await retry(jig, item.id, { path: 'build.two.y' })).status).toBe(200);
    const after = await until(jig, item.id, (i) => i.status !== 'running' && i.status !== 'queued');
    // Observed instead: status 'completed', build.three.z ran, x's failure never counted.
    expect(after.status).toBe('stopped');
    expect(after.stop.reason).toMatch(/^build\.two\.x ended failed/);
    expect(ran(await events(jig, item.id))).toEqual({ 'build.two.x': 1, 'build.two.y': 2 });
  });

  it('a one-task retry reruns a sibling that never finished; a step past the failing one is refused', async () => {
    const { jig, repo, home } = await engineSetup({
      capped: `
nodes:
  - id: work
    kind: exec
    steps:
      - id: two
        tasks:
          - id: x
            kind: subprocess
            run: 'test -f go || sleep 30'
            policy:
              time_cap_minutes: 0.05
          - id: y
            kind: subprocess
            run: 'true'
      - id: three
        tasks:
          - id: z
            kind: subprocess
            run: 'true'
`,
    });
    const item = await fileItem(jig, repo, 'capped');
    const stopped = await until(jig, item.id, stoppedAs('cap'));
    expect(stopped.current_node).toBe('work');
    const ahead = await retry(jig, item.id, { path: 'work.three' });
    expect(ahead.status).toBe(422);
    expect(ahead.json).toEqual({
      detail:
        'path: work.three comes after work.two, which did not pass; a retry goes back (use skip to go forward)',
      code: 'validation_failed',
    });
    writeFileSync(join((await row(home, item.id)).worktree_path, 'go'), '');
    expect((await retry(jig, item.id, { path: 'work.two.y' })).status).toBe(200);
    await until(jig, item.id, completed);
    // x was capped (no result), so it ran again with y; a finished sibling would have been kept.
    expect(ran(await events(jig, item.id))).toEqual({ 'work.two.x': 2, 'work.two.y': 2, 'work.three.z': 1 });
  });

  it('jig item retry sends --path and --steer; a refused path prints the detail', async () => {
    const { jig, repo, home } = await engineSetup({ steps: STEPS });
    const item = await stoppedOnBuild(jig, repo);
    const env = { JIG_HOME: home };

    const bad = await runJig(['item', 'retry', item.id, '--path', 'finish'], env);
    expect(bad).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'jig: path: finish comes after the node the item stopped on; a retry goes back (use skip to go forward) (HTTP 422, validation_failed)\n',
    });
    expect(ofType(await events(jig, item.id), 'work_item_retried')).toEqual([]);

    const cli = await runJig(
      ['item', 'retry', item.id, '--path', 'build.two', '--steer', 'try step two again'],
      env,
    );
    expect(cli).toMatchObject({ code: 0, stdout: `retried ${item.id} (running)\n` });
    await until(jig, item.id, stoppedAs('failed'));
    const ev = await events(jig, item.id);
    expect(ofType(ev, 'work_item_retried').map((e) => e.payload)).toEqual([
      { node: 'build', from: 'build', step: 'build.two', task: null, steer: 'try step two again' },
    ]);
    expect(sessionsOf(ev, 'build.one.a')).toHaveLength(1);
    expect(sessionsOf(ev, 'build.two.y')).toHaveLength(2);
    expect((await row(home, item.id)).steer).toBe('try step two again');

    const json = await runJig(['item', 'retry', item.id, '--json'], env);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: item.id, status: 'running', current_node: 'build' });
    await until(jig, item.id, stoppedAs('failed'));
    expect(payloads(await events(jig, item.id), 'work_item_retried').at(-1)).toEqual({
      node: 'build',
      from: 'build',
      step: 'build.one',
      task: null,
    });

    // --model and --effort travel as task_config and become the node's override.
    const model = await runJig(['item', 'retry', item.id, '--model', 'gpt-5-codex', '--effort', 'high'], env);
    expect(model.code, model.stderr).toBe(0);
    expect(payloads(await events(jig, item.id), 'node_overrides_changed')).toEqual([
      { value: { build: { model: 'gpt-5-codex', effort: 'high' } } },
    ]);
    await until(jig, item.id, stoppedAs('failed'));
    const badModel = await runJig(['item', 'retry', item.id, '--model', 'a b'], env);
    expect(badModel.code).toBe(2);
    expect(badModel.stderr).toContain('task_config.model: "a b" is not a model id');
  });
});
