import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { engineSetup, events, fileItem, until } from './helpers/engine.js';
import { git, gitEnv } from './helpers/git.js';
import {
  approve,
  CHECK,
  completed,
  contains,
  inProgress,
  moveBase,
  ofType,
  payloads,
  ran,
  retry,
  row,
  sessionsOf,
  stoppedAs,
} from './helpers/retry-rebase.js';
import { cleanupAll } from './helpers/server.js';
import { cleanupButShared, shareServerPerFile } from './helpers/shared-home.js';

// The tests need nothing of a server but their chains, policy and repository: they share one.
shareServerPerFile();

// Each test's own servers go after it; the shared one after the file.
afterEach(cleanupButShared);
afterAll(cleanupAll);

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
    const { base_ref: old, worktree_path: wt } = await row(home, item.id);
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
    expect((await row(home, item.id)).base_ref).toBe(tip);
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
    const { base_ref: old, worktree_path: wt } = await row(home, item.id);
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
    expect((await row(home, item.id)).base_ref).toBe(old);
  });

  it('after a person rebases the worktree by hand, retry pins the new base and restarts the node on it', async () => {
    const { jig, repo, home } = await engineSetup(
      { clash: baseChain('shared.txt', `    on_base_changed: {}\n${CHECK}`) },
      { repoFiles: { 'shared.txt': 'base\n' } },
    );
    const item = await fileItem(jig, repo, 'clash');
    await until(jig, item.id, stoppedAs('gate'));
    const { base_ref: old, worktree_path: wt } = await row(home, item.id);
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
    expect((await row(home, item.id)).base_ref).toBe(tip);
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
    const { base_ref: old, worktree_path: wt } = await row(home, item.id);
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

    expect((await row(home, item.id)).base_ref).toBe(tip);
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
    const old = (await row(home, idle.id)).base_ref;
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
      const { base_ref, worktree_path: wt } = await row(home, it.id);
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
    expect((await row(home, item.id)).base_ref).toBe(payloads(ev, 'base_change_restart')[0].to);
  });
});
