import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { engineSetup, events, fileItem, post, until } from './helpers/engine.js';
import { git, gitEnv } from './helpers/git.js';
import { cleanupAll, runJig, type JigProcess } from './helpers/server.js';

afterEach(cleanupAll);

const ofType = (ev: any[], type: string) => ev.filter((e) => e.type === type);
const payloads = (ev: any[], type: string) => ofType(ev, type).map((e) => e.payload);
const sessionsOf = (ev: any[], task: string) =>
  ev.filter((e) => e.type === 'worker_session_started' && e.payload.task === task);
/** How many sessions each task path started, in first-start order. */
const ran = (ev: any[]): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const e of ofType(ev, 'worker_session_started')) out[e.payload.task] = (out[e.payload.task] ?? 0) + 1;
  return out;
};
const stoppedAs = (kind: string) => (i: any) => i.status === 'stopped' && i.stop?.kind === kind;
const completed = (i: any) => i.status === 'completed';
const retry = (jig: JigProcess, id: string, body?: unknown) => post(jig, `/api/work-items/${id}/retry`, body);
const approve = (jig: JigProcess, id: string, gate: string) =>
  post(jig, `/api/work-items/${id}/gates/${gate}/approve`);

/** The store's columns the API does not show (base_ref, steer, worktree_path), read-only. */
function row(home: string, id: string): { base_ref: string; steer: string | null; worktree_path: string } {
  const db = new Database(join(home, 'run', 'jig.db'), { readonly: true });
  try {
    return db.prepare('SELECT base_ref, steer, worktree_path FROM work_items WHERE id = ?').get(id) as any;
  } finally {
    db.close();
  }
}

/** A commit on the repo's checked-out base branch (main), as a colleague merging would add. */
function moveBase(repo: string, file: string, text: string): string {
  writeFileSync(join(repo, file), text);
  git(repo, 'add', file);
  git(repo, 'commit', '-qm', `base: ${file}`);
  return git(repo, 'rev-parse', 'HEAD');
}

/** True when a rebase or merge is still open in the worktree. */
function inProgress(wt: string): string[] {
  return ['rebase-merge', 'rebase-apply', 'MERGE_HEAD'].filter((d) => {
    const p = git(wt, 'rev-parse', '--git-path', d);
    return existsSync(isAbsolute(p) ? p : join(wt, p));
  });
}

const contains = (wt: string, sha: string): boolean => {
  try {
    git(wt, 'merge-base', '--is-ancestor', sha, 'HEAD');
    return true;
  } catch {
    return false;
  }
};

// ---------------------------------------------------------------------------------------------
// retry with a path
// ---------------------------------------------------------------------------------------------

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
    writeFileSync(join(row(home, item.id).worktree_path, 'go'), '');
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
    expect(row(home, item.id).steer).toBe('only y needed the file');
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
    writeFileSync(join(row(home, item.id).worktree_path, 'go'), '');
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
    writeFileSync(join(row(home, item.id).worktree_path, 'go'), '');
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
    expect(row(home, item.id).steer).toBe('try step two again');

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

// ---------------------------------------------------------------------------------------------
// on_base_changed
// ---------------------------------------------------------------------------------------------

/** build commits `file` on the branch; a gate holds the walk so the test can move the base; then verify. */
const baseChain = (file: string, verify: string) => `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: write
        kind: subprocess
        run: echo branch >> ${file} && git add ${file} && git commit -qm 'branch ${file}'
  - id: hold
    kind: gate
    message: move the base now
  - id: verify
    kind: exec
${verify}`;

const CHECK = `    tasks:
      - id: check
        kind: subprocess
        run: 'true'
`;

describe('on_base_changed', () => {
  it('a base that moved cleanly is rebased onto, pinned, and the walk restarts at restart_from', async () => {
    const { jig, repo, home } = await engineSetup({
      moving: baseChain(
        'own.txt',
        `    on_base_changed:
      restart_from: build
${CHECK}`,
      ),
    });
    const item = await fileItem(jig, repo, 'moving');
    await until(jig, item.id, stoppedAs('gate'));
    const { base_ref: old, worktree_path: wt } = row(home, item.id);
    expect(old).toBe(git(repo, 'rev-parse', 'main'));
    const tip = moveBase(repo, 'base.txt', 'from main\n');
    expect((await approve(jig, item.id, 'hold')).status).toBe(200);

    // The restart runs build again and comes back to the gate, which must be approved again.
    const back = await until(jig, item.id, stoppedAs('gate'));
    expect(back.current_node).toBe('hold');
    let ev = await events(jig, item.id);
    expect(payloads(ev, 'base_change_detected')).toEqual([{ node: 'verify', from: old, to: tip }]);
    expect(payloads(ev, 'base_change_restart')).toEqual([
      { node: 'verify', from: old, to: tip, restart_from: 'build', count: 1, how: 'verify.on_base_changed' },
    ]);
    expect(sessionsOf(ev, 'verify.on_base_changed')).toHaveLength(1);
    expect(sessionsOf(ev, 'build.main.write')).toHaveLength(2);
    expect(sessionsOf(ev, 'verify.main.check')).toHaveLength(0);
    expect(row(home, item.id).base_ref).toBe(tip);
    expect(contains(wt, tip)).toBe(true);

    expect((await approve(jig, item.id, 'hold')).status).toBe(200);
    await until(jig, item.id, completed);
    ev = await events(jig, item.id);
    expect(ran(ev)).toEqual({
      'build.main.write': 2,
      'verify.on_base_changed': 1,
      'verify.main.check': 1,
    });
    expect(ofType(ev, 'base_change_detected')).toHaveLength(1);
    expect(ofType(ev, 'gate_approved')).toHaveLength(2);
    expect(readFileSync(join(wt, 'base.txt'), 'utf8')).toBe('from main\n');
    expect(readFileSync(join(wt, 'own.txt'), 'utf8')).toBe('branch\nbranch\n');
    expect(git(wt, 'status', '--porcelain')).toBe('');
  });

  it('a conflicting rebase without on_conflict stops as conflict and leaves the worktree as it was', async () => {
    const { jig, repo, home } = await engineSetup(
      { clash: baseChain('shared.txt', `    on_base_changed: {}\n${CHECK}`) },
      { repoFiles: { 'shared.txt': 'base\n' } },
    );
    const item = await fileItem(jig, repo, 'clash');
    await until(jig, item.id, stoppedAs('gate'));
    const { base_ref: old, worktree_path: wt } = row(home, item.id);
    const head = git(wt, 'rev-parse', 'HEAD');
    const tip = moveBase(repo, 'shared.txt', 'main changed it\n');
    expect((await approve(jig, item.id, 'hold')).status).toBe(200);

    const done = await until(jig, item.id, stoppedAs('conflict'));
    expect(done.current_node).toBe('verify');
    expect(done.stop).toEqual({
      kind: 'conflict',
      reason:
        `rebasing onto main (${tip.slice(0, 12)}) conflicts in shared.txt; ` +
        'resolve it in the worktree and retry, or give verify an on_base_changed.on_conflict plan',
      suggested_action: null,
    });
    const ev = await events(jig, item.id);
    const rebase = sessionsOf(ev, 'verify.on_base_changed');
    expect(rebase).toHaveLength(1);
    expect(payloads(ev, 'base_change_detected')).toEqual([{ node: 'verify', from: old, to: tip }]);
    expect(payloads(ev, 'rebase_conflict')).toEqual([
      {
        node: 'verify',
        task: 'verify.on_base_changed',
        session: rebase[0].payload.session,
        base_tip: tip,
        files: ['shared.txt'],
        plan: null,
      },
    ]);
    expect(ofType(ev, 'base_change_restart')).toEqual([]);
    expect(sessionsOf(ev, 'verify.main.check')).toHaveLength(0);
    // The builtin aborted its rebase: nothing open, nothing changed, the base still pinned where it was.
    expect(inProgress(wt)).toEqual([]);
    expect(git(wt, 'status', '--porcelain')).toBe('');
    expect(git(wt, 'rev-parse', 'HEAD')).toBe(head);
    expect(row(home, item.id).base_ref).toBe(old);
  });

  it('after a person rebases the worktree by hand, retry pins the new base and restarts the node on it', async () => {
    const { jig, repo, home } = await engineSetup(
      { clash: baseChain('shared.txt', `    on_base_changed: {}\n${CHECK}`) },
      { repoFiles: { 'shared.txt': 'base\n' } },
    );
    const item = await fileItem(jig, repo, 'clash');
    await until(jig, item.id, stoppedAs('gate'));
    const { base_ref: old, worktree_path: wt } = row(home, item.id);
    const tip = moveBase(repo, 'shared.txt', 'main changed it\n');
    expect((await approve(jig, item.id, 'hold')).status).toBe(200);
    await until(jig, item.id, stoppedAs('conflict'));

    // What the stop reason asks for: resolve it in the worktree, then retry.
    expect(() =>
      execFileSync('git', ['rebase', tip], { cwd: wt, env: { ...process.env, ...gitEnv }, stdio: 'pipe' }),
    ).toThrow();
    writeFileSync(join(wt, 'shared.txt'), 'resolved by hand\n');
    git(wt, 'add', 'shared.txt');
    git(wt, '-c', 'core.editor=true', 'rebase', '--continue');
    expect(contains(wt, tip)).toBe(true);
    const head = git(wt, 'rev-parse', 'HEAD');

    expect((await retry(jig, item.id)).status).toBe(200);
    await until(jig, item.id, completed);
    const ev = await events(jig, item.id);
    // The rebase finds nothing to do, but the code was never checked on this base: the node restarts.
    expect(payloads(ev, 'base_change_detected')).toEqual([
      { node: 'verify', from: old, to: tip },
      { node: 'verify', from: old, to: tip },
    ]);
    expect(payloads(ev, 'base_change_restart')).toEqual([
      { node: 'verify', from: old, to: tip, restart_from: 'verify', count: 1, how: 'verify.on_base_changed' },
    ]);
    expect(ofType(ev, 'rebase_conflict')).toHaveLength(1);
    expect(ran(ev)).toEqual({ 'build.main.write': 1, 'verify.on_base_changed': 2, 'verify.main.check': 1 });
    expect(row(home, item.id).base_ref).toBe(tip);
    expect(git(wt, 'rev-parse', 'HEAD')).toBe(head);
    expect(readFileSync(join(wt, 'shared.txt'), 'utf8')).toBe('resolved by hand\n');
  });

  it('an on_conflict plan that rebases is verified, the base pinned, the node restarted, and the item completes', async () => {
    const { jig, repo, home } = await engineSetup(
      {
        planned: baseChain(
          'shared.txt',
          `    on_base_changed:
      on_conflict:
        tasks:
          - id: resolve
            kind: subprocess
            run: |
              test -f "$JIG_FIX_BRIEF" || exit 9
              if ! git rebase main; then
                printf 'resolved\\n' > shared.txt
                git add shared.txt
                GIT_EDITOR=true git rebase --continue
              fi
${CHECK}`,
        ),
      },
      { repoFiles: { 'shared.txt': 'base\n' } },
    );
    const item = await fileItem(jig, repo, 'planned');
    await until(jig, item.id, stoppedAs('gate'));
    const { base_ref: old, worktree_path: wt } = row(home, item.id);
    const tip = moveBase(repo, 'shared.txt', 'main changed it\n');
    expect((await approve(jig, item.id, 'hold')).status).toBe(200);
    await until(jig, item.id, completed);

    const ev = await events(jig, item.id);
    const rebase = sessionsOf(ev, 'verify.on_base_changed');
    const plan = sessionsOf(ev, 'verify.on_base_changed.on_conflict.main.resolve');
    expect(rebase).toHaveLength(1);
    expect(plan).toHaveLength(1);
    expect(payloads(ev, 'rebase_conflict')).toEqual([
      {
        node: 'verify',
        task: 'verify.on_base_changed',
        session: rebase[0].payload.session,
        base_tip: tip,
        files: ['shared.txt'],
        plan: 'verify.on_base_changed.on_conflict',
      },
    ]);
    expect(payloads(ev, 'worktree_rebase_verified')).toEqual([
      { node: 'verify', base_tip: tip, plan: 'verify.on_base_changed.on_conflict' },
    ]);
    expect(payloads(ev, 'base_change_restart')).toEqual([
      {
        node: 'verify',
        from: old,
        to: tip,
        restart_from: 'verify',
        count: 1,
        how: 'verify.on_base_changed.on_conflict',
      },
    ]);
    const types = ev.map((e) => e.type);
    expect(types.indexOf('rebase_conflict')).toBeLessThan(types.indexOf('worktree_rebase_verified'));
    expect(types.indexOf('worktree_rebase_verified')).toBeLessThan(types.indexOf('base_change_restart'));
    // The restart re-entered verify on the pinned base: no second rebase, the check ran once.
    expect(ofType(ev, 'base_change_detected')).toHaveLength(1);
    expect(ran(ev)).toEqual({
      'build.main.write': 1,
      'verify.on_base_changed': 1,
      'verify.on_base_changed.on_conflict.main.resolve': 1,
      'verify.main.check': 1,
    });
    expect(ev.map((e) => e.type).slice(-2)).toEqual(['node_completed', 'work_item_completed']);

    // The plan's agent was told what to rebase onto.
    const brief = readFileSync(join(home, 'run', 'results', `${plan[0].payload.session}.brief.md`), 'utf8');
    expect(brief).toContain(
      `Jig could not rebase the branch ${item.branch} onto main (${tip}): it conflicts in\n- shared.txt`,
    );
    expect(brief).toContain(`run \`git rebase ${tip}\``);

    expect(row(home, item.id).base_ref).toBe(tip);
    expect(contains(wt, tip)).toBe(true);
    expect(readFileSync(join(wt, 'shared.txt'), 'utf8')).toBe('resolved\n');
    expect(inProgress(wt)).toEqual([]);
    expect(git(wt, 'status', '--porcelain')).toBe('');
  });

  it('an on_conflict plan that ends done without rebasing, or with the rebase open, stops as conflict', async () => {
    const planned = (run: string) =>
      baseChain(
        'shared.txt',
        `    on_base_changed:
      on_conflict:
        tasks:
          - id: resolve
            kind: subprocess
            run: '${run}'
${CHECK}`,
      );
    const { jig, repo, home } = await engineSetup(
      { idle: planned('true'), halfway: planned('git rebase main; exit 0') },
      { repoFiles: { 'shared.txt': 'base\n' } },
    );
    const idle = await fileItem(jig, repo, 'idle');
    const halfway = await fileItem(jig, repo, 'halfway');
    await until(jig, idle.id, stoppedAs('gate'));
    await until(jig, halfway.id, stoppedAs('gate'));
    const old = row(home, idle.id).base_ref;
    const tip = moveBase(repo, 'shared.txt', 'main changed it\n');
    expect((await approve(jig, idle.id, 'hold')).status).toBe(200);
    expect((await approve(jig, halfway.id, 'hold')).status).toBe(200);

    const a = await until(jig, idle.id, stoppedAs('conflict'));
    expect(a.stop.reason).toBe(
      `verify.on_base_changed.on_conflict ran but the rebase onto main is not done: the branch does not contain ${tip.slice(0, 12)}; resolve it in the worktree and retry`,
    );
    const b = await until(jig, halfway.id, stoppedAs('conflict'));
    expect(b.stop.reason).toBe(
      'verify.on_base_changed.on_conflict ran but the rebase onto main is not done: a rebase was left in progress (Jig aborted it); resolve it in the worktree and retry',
    );
    for (const it of [idle, halfway]) {
      const ev = await events(jig, it.id);
      expect(sessionsOf(ev, 'verify.on_base_changed.on_conflict.main.resolve')).toHaveLength(1);
      expect(ofType(ev, 'rebase_conflict')).toHaveLength(1);
      expect(ofType(ev, 'worktree_rebase_verified')).toEqual([]);
      expect(ofType(ev, 'base_change_restart')).toEqual([]);
      expect(sessionsOf(ev, 'verify.main.check')).toHaveLength(0);
      const { base_ref, worktree_path: wt } = row(home, it.id);
      expect(base_ref).toBe(old);
      expect(inProgress(wt)).toEqual([]);
      expect(git(wt, 'status', '--porcelain')).toBe('');
      expect(contains(wt, tip)).toBe(false);
    }
  });

  it('restarts per node are capped by policy default.attempts', async () => {
    // build moves main itself (same tree, new commit), so verify always finds the base moved.
    const { jig, repo, home } = await engineSetup(
      {
        restless: `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: bump
        kind: subprocess
        run: git update-ref refs/heads/main "$(git commit-tree 'main^{tree}' -p main -m bump)"
  - id: verify
    kind: exec
    on_base_changed:
      restart_from: build
${CHECK}`,
      },
      { policy: 'default:\n  attempts: 1\n  wall_clock_s: 3600\n' },
    );
    const item = await fileItem(jig, repo, 'restless');
    const done = await until(jig, item.id, stoppedAs('cap'));
    expect(done.stop).toEqual({
      kind: 'cap',
      reason: 'verify.on_base_changed restarted the chain 1 time(s); the base keeps moving',
      suggested_action: null,
    });
    const ev = await events(jig, item.id);
    const tip = git(repo, 'rev-parse', 'main');
    expect(payloads(ev, 'base_change_restart').map((p) => [p.restart_from, p.count])).toEqual([['build', 1]]);
    expect(ofType(ev, 'base_change_detected')).toHaveLength(2);
    expect(sessionsOf(ev, 'build.main.bump')).toHaveLength(2);
    expect(sessionsOf(ev, 'verify.on_base_changed')).toHaveLength(2);
    expect(sessionsOf(ev, 'verify.main.check')).toHaveLength(0);
    // Not pinned at the cap: the nodes from restart_from never ran on this base.
    expect(payloads(ev, 'base_ref_moved')).toEqual([]);
    expect(tip).not.toBe(payloads(ev, 'base_change_restart')[0].to);
    expect(row(home, item.id).base_ref).toBe(payloads(ev, 'base_change_restart')[0].to);
  });
});

// ---------------------------------------------------------------------------------------------
// jig.mr_rebase as a step
// ---------------------------------------------------------------------------------------------

describe('jig.mr_rebase in a node', () => {
  it('a clean rebase pins base_ref without a restart; a conflicting one stops as conflict', async () => {
    const synced = (file: string) => `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: write
        kind: subprocess
        run: echo branch >> ${file} && git add ${file} && git commit -qm 'branch ${file}'
  - id: hold
    kind: gate
    message: move the base now
  - id: sync
    kind: exec
    tasks:
      - id: rebase
        kind: builtin
        ref: jig.mr_rebase
  - id: finish
    kind: exec
${CHECK}`;
    const { jig, repo, home } = await engineSetup(
      { clean: synced('own.txt'), clash: synced('shared.txt') },
      { repoFiles: { 'shared.txt': 'base\n' } },
    );
    const clean = await fileItem(jig, repo, 'clean');
    const clash = await fileItem(jig, repo, 'clash');
    await until(jig, clean.id, stoppedAs('gate'));
    await until(jig, clash.id, stoppedAs('gate'));
    const old = row(home, clean.id).base_ref;
    const clashHead = git(row(home, clash.id).worktree_path, 'rev-parse', 'HEAD');
    const tip = moveBase(repo, 'shared.txt', 'main changed it\n');
    expect((await approve(jig, clean.id, 'hold')).status).toBe(200);
    expect((await approve(jig, clash.id, 'hold')).status).toBe(200);

    await until(jig, clean.id, completed);
    const ev = await events(jig, clean.id);
    expect(payloads(ev, 'base_ref_moved')).toEqual([
      { node: 'sync', from: old, to: tip, how: 'sync.main.rebase' },
    ]);
    expect(ofType(ev, 'base_change_restart')).toEqual([]);
    expect(ran(ev)).toEqual({ 'build.main.write': 1, 'sync.main.rebase': 1, 'finish.main.check': 1 });
    const cleanWt = row(home, clean.id).worktree_path;
    expect(row(home, clean.id).base_ref).toBe(tip);
    expect(contains(cleanWt, tip)).toBe(true);
    expect(git(cleanWt, 'log', '--format=%s', '-3')).toBe('branch own.txt\nbase: shared.txt\ninitial');

    const stopped = await until(jig, clash.id, stoppedAs('conflict'));
    expect(stopped.current_node).toBe('sync');
    expect(stopped.stop.reason).toBe(
      `rebasing onto main (${tip.slice(0, 12)}) conflicts in shared.txt; ` +
        'resolve it in the worktree and retry, or give sync an on_base_changed.on_conflict plan',
    );
    const cev = await events(jig, clash.id);
    expect(payloads(cev, 'rebase_conflict')).toEqual([
      {
        node: 'sync',
        task: 'sync.main.rebase',
        session: sessionsOf(cev, 'sync.main.rebase')[0].payload.session,
        base_tip: tip,
        files: ['shared.txt'],
        plan: null,
      },
    ]);
    expect(ofType(cev, 'base_ref_moved')).toEqual([]);
    expect(sessionsOf(cev, 'finish.main.check')).toHaveLength(0);
    const clashWt = row(home, clash.id).worktree_path;
    expect(inProgress(clashWt)).toEqual([]);
    expect(git(clashWt, 'status', '--porcelain')).toBe('');
    expect(git(clashWt, 'rev-parse', 'HEAD')).toBe(clashHead);
    expect(row(home, clash.id).base_ref).toBe(old);
  });

  it('in a node with on_base_changed, a rebase step that moved the branch restarts from restart_from', async () => {
    const { jig, repo, home } = await engineSetup({
      stepped: `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: write
        kind: subprocess
        run: echo branch >> own.txt && git add own.txt && git commit -qm 'branch own.txt'
  - id: sync
    kind: exec
    on_base_changed:
      restart_from: build
    steps:
      - id: hold
        tasks:
          - id: wait
            kind: subprocess
            run: 'for i in $(seq 1 600); do test -f moved && exit 0; sleep 0.1; done; exit 1'
      - id: rebase
        tasks:
          - id: rebase
            kind: builtin
            ref: jig.mr_rebase
`,
    });
    const item = await fileItem(jig, repo, 'stepped');
    // The base moves while the node runs (after its entry check), so the rebase step finds it.
    let waiting: any[] = [];
    for (let i = 0; i < 300 && waiting.length === 0; i++) {
      waiting = sessionsOf(await events(jig, item.id), 'sync.hold.wait');
      if (waiting.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(waiting).toHaveLength(1);
    const { base_ref: old, worktree_path: wt } = row(home, item.id);
    const tip = moveBase(repo, 'base.txt', 'from main\n');
    writeFileSync(join(wt, 'moved'), '');
    await until(jig, item.id, completed);
    const ev = await events(jig, item.id);
    expect(payloads(ev, 'base_change_restart')).toEqual([
      { node: 'sync', from: old, to: tip, restart_from: 'build', count: 1, how: 'sync.rebase.rebase' },
    ]);
    expect(ran(ev)).toEqual({
      'build.main.write': 2,
      'sync.hold.wait': 2,
      'sync.rebase.rebase': 2,
    });
    expect(ofType(ev, 'base_change_detected')).toEqual([]);
    expect(ofType(ev, 'base_ref_moved')).toEqual([]);
    expect(row(home, item.id).base_ref).toBe(tip);
    expect(git(wt, 'log', '--format=%s', '-4')).toBe(
      'branch own.txt\nbranch own.txt\nbase: base.txt\ninitial',
    );
  });
});

// ---------------------------------------------------------------------------------------------
// a builtin that fails inside a repair
// ---------------------------------------------------------------------------------------------

describe('a builtin failing in a fix-loop repair', () => {
  it('tests that fail inside a repair are its result: the cycle counts and the node is measured again', async () => {
    const { jig, repo } = await engineSetup(
      {
        repairs: `
nodes:
  - id: verify
    kind: exec
    tasks:
      - id: test
        kind: subprocess
        run: test -f fixed.txt
    fix_loop:
      tasks:
        - id: tests
          kind: builtin
          ref: jig.verify_changed_test_scopes
`,
      },
      { testCommand: 'echo "no database"; exit 3', policy: 'auto_escalate_stuck: false\n' },
    );
    const item = await fileItem(jig, repo, 'repairs');
    const done = await until(jig, item.id, stoppedAs('stuck'));
    expect(done.stop.reason).toMatch(/^verify\.fix_loop is stuck: /);
    const ev = await events(jig, item.id);
    expect(payloads(ev, 'fix_cycle_started').map((p) => p.cycle)).toEqual([1]);
    expect(payloads(ev, 'fix_cycle_refunded')).toEqual([]);
    expect(sessionsOf(ev, 'verify.fix_loop.main.tests')).toHaveLength(1);
    expect(ofType(ev, 'findings_measured')).toHaveLength(2);
  });

  it('a repair whose rebase conflicts refunds the cycle and stops the item as conflict', async () => {
    const { jig, repo, home } = await engineSetup(
      {
        rebasing: `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: write
        kind: subprocess
        run: echo branch >> shared.txt && git add shared.txt && git commit -qm 'branch shared.txt'
  - id: hold
    kind: gate
    message: move the base now
  - id: verify
    kind: exec
    tasks:
      - id: test
        kind: subprocess
        run: test -f fixed.txt
    fix_loop:
      steps:
        - id: sync
          tasks:
            - id: rebase
              kind: builtin
              ref: jig.mr_rebase
        - id: fix
          tasks:
            - id: repair
              kind: subprocess
              run: touch fixed.txt
`,
      },
      { repoFiles: { 'shared.txt': 'base\n' } },
    );
    const item = await fileItem(jig, repo, 'rebasing');
    await until(jig, item.id, stoppedAs('gate'));
    const wt = row(home, item.id).worktree_path;
    const head = git(wt, 'rev-parse', 'HEAD');
    moveBase(repo, 'shared.txt', 'main changed it\n');
    expect((await approve(jig, item.id, 'hold')).status).toBe(200);
    const done = await until(jig, item.id, stoppedAs('conflict'));
    expect(done.current_node).toBe('verify');
    expect(done.stop.reason).toMatch(
      /^the repair could not finish: verify\.fix_loop\.sync\.rebase ended failed \(session s[0-9a-f]+; jig view logs\) \(fix cycle refunded\)$/,
    );
    const ev = await events(jig, item.id);
    expect(payloads(ev, 'fix_cycle_refunded')).toEqual([
      { node: 'verify', cycle: 1, reason: 'verify.fix_loop.sync.rebase failed' },
    ]);
    expect(sessionsOf(ev, 'verify.fix_loop.sync.rebase')).toHaveLength(1);
    expect(sessionsOf(ev, 'verify.fix_loop.fix.repair')).toHaveLength(0);
    expect(inProgress(wt)).toEqual([]);
    expect(git(wt, 'rev-parse', 'HEAD')).toBe(head);
  });
});
