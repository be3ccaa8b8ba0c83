import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { harnessesYaml, sessions } from './helpers/agents.js';
import { events, post, until } from './helpers/engine.js';
import { git } from './helpers/git.js';
import {
  approve,
  completed,
  contains,
  inProgress,
  moveBase,
  ofType,
  payloads,
  stoppedAs,
} from './helpers/retry-rebase.js';
import { cleanupAll, http } from './helpers/server.js';
import { workspaceWorld } from './helpers/workspace.js';

afterEach(cleanupAll);

/*
 * The builtins, spend and reclaim on a workspace item (docs/workspaces.md): each member's own test
 * command, a rebase per member, the item's caps over every member's sessions, abandon deleting every
 * member's branch. Real git, a real server, real task processes and the fake Claude Code.
 */

const started = (ev: any[], task: string) =>
  ofType(ev, 'worker_session_started')
    .filter((e) => e.payload.task === task)
    .map((e) => e.payload.member ?? 'root');

const file = async (jig: any, chain: string, title = 'Span both') => {
  const r = await post(jig, '/api/work-items', { title, repo: 'all', chain, start: true });
  expect(r.status, r.text).toBe(201);
  return r.json;
};

describe('builtins on a workspace item', () => {
  it("jig.verify_changed_test_scopes runs each member's own test_command in its worktree; a failure names the member", async () => {
    const w = await workspaceWorld(
      {
        tests: `
nodes:
  - id: verify
    kind: exec
    tasks:
      - id: tests
        kind: builtin
        ref: jig.verify_changed_test_scopes
        scope: each_repository
        execution: sequential
`,
      },
      {
        entries: {
          shop: { test_command: 'exit 9' },
          api: { test_command: 'echo api >> tests.log; test -f ok.txt' },
          web: { test_command: 'echo web >> tests.log' },
        },
      },
    );
    const item = await file(w.jig, 'tests');
    const stopped = await until(w.jig, item.id, stoppedAs('failed'), 600);
    expect(stopped.stop.reason).toMatch(/^verify\.main\.tests ended failed \(session \w+; jig view logs\)$/);
    const ev = await events(w.jig, item.id);
    const [api, web] = stopped.workspace.members;
    expect(started(ev, 'verify.main.tests')).toEqual(['api', 'web']);
    expect(payloads(ev, 'findings_measured')[0].findings).toEqual([
      expect.objectContaining({ task: 'verify.main.tests', member: 'api', synthetic: true }),
    ]);
    // A person fixes api in its worktree and retries: the node runs again, each member's command in
    // its own worktree; the root's test_command (exit 9) never runs, the task fans out to members only.
    git(api.worktree_path, 'commit', '-q', '--allow-empty', '-m', 'by hand');
    writeFileSync(join(api.worktree_path, 'ok.txt'), '');
    expect((await post(w.jig, `/api/work-items/${item.id}/retry`)).status).toBe(200);
    const done = await until(w.jig, item.id, completed, 600);
    expect(started(await events(w.jig, item.id), 'verify.main.tests')).toEqual(['api', 'web', 'api', 'web']);
    expect(readFileSync(join(api.worktree_path, 'tests.log'), 'utf8')).toBe('api\napi\n');
    expect(readFileSync(join(web.worktree_path, 'tests.log'), 'utf8')).toBe('web\nweb\n');
    expect(existsSync(join(done.workspace.members[0].worktree_path, 'ok.txt'))).toBe(true);
  }, 120_000);

  it('jig.mr_rebase with each_repository rebases every member onto its own base and pins it there; a member conflict stops the item naming the member', async () => {
    const w = await workspaceWorld({
      sync: `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: edit
        kind: subprocess
        scope: each_repository
        run: 'echo "$JIG_REPOSITORY" >> shared.txt && git add shared.txt && git commit -qm "edit $JIG_REPOSITORY"'
  - id: hold
    kind: gate
    message: move the bases now
  - id: sync
    kind: exec
    tasks:
      - id: rebase
        kind: builtin
        ref: jig.mr_rebase
        scope: each_repository
  - id: finish
    kind: exec
    tasks:
      - id: check
        kind: subprocess
        run: 'true'
`,
    });
    // A clean rebase: api's base moved by a file the branch does not touch.
    const clean = await file(w.jig, 'sync', 'Clean');
    await until(w.jig, clean.id, stoppedAs('gate'), 600);
    const cut = (await http(`${w.jig.url}/api/work-items/${clean.id}`)).json;
    const [apiCut] = cut.workspace.members;
    const apiTip = moveBase(w.api, 'other.txt', 'from main\n');
    expect((await approve(w.jig, clean.id, 'hold')).status).toBe(200);
    const done = await until(w.jig, clean.id, completed, 600);
    const ev = await events(w.jig, clean.id);
    expect(started(ev, 'sync.main.rebase').sort()).toEqual(['api', 'root', 'web']);
    expect(payloads(ev, 'base_ref_moved')).toEqual([
      { node: 'sync', from: apiCut.base_ref, to: apiTip, how: 'sync.main.rebase', member: 'api' },
    ]);
    const [api, web] = done.workspace.members;
    expect(api.base_ref).toBe(apiTip);
    expect(web.base_ref).toBe(cut.workspace.members[1].base_ref);
    expect(contains(api.worktree_path, apiTip)).toBe(true);
    expect(git(api.worktree_path, 'log', '--format=%s', '-2')).toBe('edit api\nbase: other.txt');
    // The member's diff is measured from its new base: only the branch's own change shows.
    const diff = await http(`${w.jig.url}/api/work-items/${clean.id}/diff?format=name_only`);
    expect(diff.json.files.filter((f: any) => f.member).map((f: any) => f.path)).toEqual([
      'api/shared.txt',
      'web/shared.txt',
    ]);

    // A conflict: web's base gained its own shared.txt.
    const clash = await file(w.jig, 'sync', 'Clash');
    await until(w.jig, clash.id, stoppedAs('gate'), 600);
    const before = (await http(`${w.jig.url}/api/work-items/${clash.id}`)).json.workspace.members[1];
    const head = git(before.worktree_path, 'rev-parse', 'HEAD');
    const webTip = moveBase(w.web, 'shared.txt', 'web main\n');
    expect((await approve(w.jig, clash.id, 'hold')).status).toBe(200);
    const stopped = await until(w.jig, clash.id, stoppedAs('conflict'), 600);
    expect(stopped.current_node).toBe('sync');
    expect(stopped.stop.reason).toBe(
      `member web: rebasing onto main (${webTip.slice(0, 12)}) conflicts in shared.txt; ` +
        `resolve it in ${before.worktree_path} and retry`,
    );
    const cev = await events(w.jig, clash.id);
    const conflicts = payloads(cev, 'rebase_conflict');
    expect(conflicts).toEqual([
      {
        node: 'sync',
        task: 'sync.main.rebase',
        session: expect.any(String),
        base_tip: webTip,
        files: ['shared.txt'],
        plan: null,
        member: 'web',
      },
    ]);
    expect(ofType(cev, 'base_ref_moved')).toEqual([]);
    expect(started(cev, 'finish.main.check')).toEqual([]);
    // The member's worktree is as it was: the rebase was aborted.
    expect(inProgress(before.worktree_path)).toEqual([]);
    expect(git(before.worktree_path, 'status', '--porcelain')).toBe('');
    expect(git(before.worktree_path, 'rev-parse', 'HEAD')).toBe(head);
    expect(stopped.workspace.members[1].base_ref).toBe(before.base_ref);
  }, 120_000);
});

describe('spend and reclaim on a workspace item', () => {
  it("the item's dollar budget counts every member's agent sessions", async () => {
    const agent = (id: string, scope = '') => `
  - id: ${id}
    kind: exec
    tasks:
      - id: edit
        kind: agent
        harness: claude
        prompt: Change it.${scope}`;
    const chain = `nodes:${agent('build', '\n        scope: each_repository')}${agent('polish')}${agent('again')}\n`;
    // One session of the fake costs 0.0006 USD (100 input and 20 output tokens at its price): two
    // members' sessions and one of the root's cross 0.0015, where the root's alone would not.
    const w = await workspaceWorld(
      { spend: chain },
      { config: { 'harnesses.yaml': harnessesYaml(), 'policy.yaml': 'budget:\n  work_item_usd: 0.0015\n' } },
    );
    const item = await file(w.jig, 'spend');
    const done = await until(w.jig, item.id, stoppedAs('budget'), 600);
    const ss = await sessions(w.jig, item.id);
    const members = ss.filter((s) => s.task_path === 'build.main.edit');
    expect(members).toHaveLength(2);
    for (const s of members) expect(s.cost_usd).toBeCloseTo(0.0006, 6);
    const total = ss.reduce((sum, s) => sum + (s.cost_usd ?? 0), 0);
    expect(done.spent_usd).toBeCloseTo(total, 6);
    expect(done.spent_usd).toBeGreaterThanOrEqual(0.0015);
    expect(done.spent_tokens).toBe(ss.reduce((sum, s) => sum + s.tokens.input + s.tokens.output, 0));
    // Crossed by the root's session, told at its end: the item stops there (issue 40).
    expect(done.stop.reason).toContain(
      `the item's dollar budget (raise it with \`jig item raise-budget ${item.id} --usd N\` or POST /api/work-items/${item.id}/budget/raise): 0.0018 USD used of 0.0015 USD`,
    );
    // The members' commits are on their own branches.
    for (const m of done.workspace.members)
      expect(git(m.worktree_path, 'log', '-1', '--format=%s')).toBe('fake claude: fix');
  }, 120_000);

  it("abandon deletes the root's and every member's worktree and branch", async () => {
    const w = await workspaceWorld({
      held: `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: edit
        kind: subprocess
        scope: each_repository
        run: 'git commit -q --allow-empty -m "edit $JIG_REPOSITORY"'
  - id: hold
    kind: gate
    message: look first
`,
    });
    const item = await file(w.jig, 'held');
    const at = await until(w.jig, item.id, stoppedAs('gate'), 600);
    const paths = at.workspace.members.map((m: any) => m.worktree_path);
    for (const repo of [w.api, w.web]) expect(git(repo, 'branch', '--list', at.branch)).toContain(at.branch);
    const r = await post(w.jig, `/api/work-items/${item.id}/abandon`, { reason: 'not needed' });
    expect(r.status, r.text).toBe(200);
    expect(r.json.status).toBe('abandoned');
    expect(payloads(await events(w.jig, item.id), 'worktree_reclaimed')).toEqual([
      {
        worktree_removed: true,
        branch_deleted: true,
        members: [
          { member: 'api', worktree_removed: true, branch_deleted: true },
          { member: 'web', worktree_removed: true, branch_deleted: true },
        ],
      },
    ]);
    for (const p of paths) expect(existsSync(p)).toBe(false);
    for (const repo of [w.root, w.api, w.web]) expect(git(repo, 'branch', '--list', at.branch)).toBe('');
  }, 120_000);
});
