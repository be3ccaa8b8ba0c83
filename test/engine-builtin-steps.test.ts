import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { engineSetup, events, fileItem, until } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { git } from './helpers/git.js';
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
    const old = (await row(home, clean.id)).base_ref;
    const clashHead = git((await row(home, clash.id)).worktree_path, 'rev-parse', 'HEAD');
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
    const cleanWt = (await row(home, clean.id)).worktree_path;
    expect((await row(home, clean.id)).base_ref).toBe(tip);
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
    const clashWt = (await row(home, clash.id)).worktree_path;
    expect(inProgress(clashWt)).toEqual([]);
    expect(git(clashWt, 'status', '--porcelain')).toBe('');
    expect(git(clashWt, 'rev-parse', 'HEAD')).toBe(clashHead);
    expect((await row(home, clash.id)).base_ref).toBe(old);
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
    const waiting = await eventually(
      async () => {
        const found = sessionsOf(await events(jig, item.id), 'sync.hold.wait');
        return found.length > 0 && found;
      },
      { what: 'the sync.hold.wait session' },
    );
    expect(waiting).toHaveLength(1);
    const { base_ref: old, worktree_path: wt } = await row(home, item.id);
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
    expect((await row(home, item.id)).base_ref).toBe(tip);
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
    const wt = (await row(home, item.id)).worktree_path;
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
