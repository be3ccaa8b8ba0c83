import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { events, post, until } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { completed, ofType } from './helpers/fix-loop.js';
import { git } from './helpers/git.js';
import { cleanupAll, http, runJig, startJig } from './helpers/server.js';
import { workspaceWorld } from './helpers/workspace.js';
import { holdUntil } from './helpers/hold.js';

afterEach(cleanupAll);

/*
 * Items on a workspace (docs/workspaces.md): a root repository with two submodule members, each a
 * connected repository of its own. Real git, a real server, real task processes.
 */

const CHAIN = `
nodes:
  - id: build
    kind: exec
    steps:
      - id: change
        tasks:
          - id: edit
            kind: subprocess
            scope: each_repository
            run: 'echo "$JIG_REPOSITORY" > touched.txt && git add touched.txt && git commit -qm "touch $JIG_REPOSITORY"'
          - id: look
            kind: subprocess
            run: 'env | grep "^JIG_MEMBER" | sort > members.env; echo "$JIG_WORKSPACE $JIG_MEMBERS" > ws.txt'
  - id: verify
    kind: exec
    steps:
      - id: tests
        tasks:
          - id: test
            kind: subprocess
            scope: each_repository
            run: 'test "$JIG_REPOSITORY" != web || test -f fixed.txt'
    fix_loop:
      tasks:
        - id: repair
          kind: subprocess
          scope: each_repository
          run: 'touch fixed.txt && git add fixed.txt && git commit -qm "fix $JIG_REPOSITORY"'
      max_attempts: 2
`;

const ended = (i: any) => !['running', 'queued', 'paused'].includes(i.status);
const started = (ev: any[], task: string) =>
  ofType(ev, 'worker_session_started').filter((e) => e.payload.task === task);

describe('an item on a workspace', () => {
  it('cuts a worktree per member and the root, fans out each_repository tasks, repairs only the failing member, shows every member in the diff, and bumps the root pointers', async () => {
    const w = await workspaceWorld({ ws: CHAIN }, { pointer: 'bump' });
    const r = await post(w.jig, '/api/work-items', {
      title: 'Span both',
      repo: 'all',
      chain: 'ws',
      start: true,
    });
    expect(r.status, r.text).toBe(201);
    expect(r.json.repo).toBe(w.root);
    expect(r.json.workspace).toEqual({
      name: 'all',
      root_pointer: 'bump',
      members: [
        {
          name: 'api',
          repository: 'api',
          repo_path: w.api,
          path: 'services/api',
          base_branch: null,
          base_ref: null,
          worktree_path: null,
        },
        {
          name: 'web',
          repository: 'web',
          repo_path: w.web,
          path: 'apps/web',
          base_branch: null,
          base_ref: null,
          worktree_path: null,
        },
      ],
    });
    const done = await until(w.jig, r.json.id, ended, 600);
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    const ev = await events(w.jig, r.json.id);

    // Three worktrees: the root's and one per member, each on the item's branch in its own repository.
    const cut = ofType(ev, 'worktree_prepared').map((e) => e.payload);
    expect(cut.map((p) => p.member ?? 'root')).toEqual(['root', 'api', 'web']);
    for (const p of cut) expect(p.branch).toBe(done.branch);
    const [api, web] = done.workspace.members;
    expect(api.worktree_path).toBe(cut[1].path);
    expect(web.worktree_path).toBe(cut[2].path);
    expect(api.base_ref).toBe(git(w.api, 'rev-parse', 'main'));
    expect(api.base_branch).toBe('main');
    expect(git(api.worktree_path, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe(done.branch);
    expect(git(w.web, 'branch', '--list', done.branch)).toContain(done.branch);

    // The fanned-out task ran once per member, in the member's worktree; the once task in the root.
    expect(started(ev, 'build.change.edit').map((e) => e.payload.member)).toEqual(['api', 'web']);
    expect(readFileSync(join(api.worktree_path, 'touched.txt'), 'utf8')).toBe('api\n');
    expect(readFileSync(join(web.worktree_path, 'touched.txt'), 'utf8')).toBe('web\n');
    const look = started(ev, 'build.change.look');
    expect(look.map((e) => e.payload.member)).toEqual([undefined]);
    const root = cut[0].path;
    expect(readFileSync(join(root, 'ws.txt'), 'utf8')).toBe('all api web\n');
    expect(readFileSync(join(root, 'members.env'), 'utf8')).toBe(
      `JIG_MEMBERS=api web\nJIG_MEMBER_API=${api.worktree_path}\nJIG_MEMBER_WEB=${web.worktree_path}\n`,
    );

    // The test failed in web only: its finding names the member, and the repair ran for web alone.
    const measured = ofType(ev, 'findings_measured').map((e) => e.payload);
    expect(measured[0].failed).toEqual(['verify.tests.test']);
    expect(measured[0].findings).toHaveLength(1);
    expect(measured[0].findings[0]).toMatchObject({
      task: 'verify.tests.test',
      member: 'web',
      severity: 'critical',
      synthetic: true,
    });
    expect(started(ev, 'verify.fix_loop.main.repair').map((e) => e.payload.member)).toEqual(['web']);
    expect(existsSync(join(api.worktree_path, 'fixed.txt'))).toBe(false);
    expect(started(ev, 'verify.tests.test').map((e) => e.payload.member)).toEqual([
      'api',
      'web',
      'api',
      'web',
    ]);

    // root_pointer_default: bump — the root's branch has commits moving both pointers to the members' heads.
    const bumps = ofType(ev, 'root_pointers_bumped').map((e) => e.payload);
    expect(bumps.map((b) => b.members.map((m: any) => m.member))).toEqual([['api', 'web'], ['web']]);
    const gitlink = (path: string) => git(root, 'ls-tree', 'HEAD', '--', path).split(/\s+/)[2];
    expect(gitlink('services/api')).toBe(git(api.worktree_path, 'rev-parse', 'HEAD'));
    expect(gitlink('apps/web')).toBe(git(web.worktree_path, 'rev-parse', 'HEAD'));
    expect(git(root, 'log', '-1', '--format=%s')).toBe('Move workspace member pointers');
    expect(git(root, 'status', '--porcelain', '--', 'services/api', 'apps/web')).toBe('');
    expect(bumps[1].commit).toBe(git(root, 'rev-parse', 'HEAD'));

    // The diff shows the root and both members, a member's files under its name.
    const diff = await http(`${w.jig.url}/api/work-items/${r.json.id}/diff?format=stat`);
    expect(diff.status, diff.text).toBe(200);
    const files = diff.json.files.map((f: any) => [f.path, f.member ?? null]);
    expect(files).toEqual([
      ['apps/web', null],
      ['members.env', null],
      ['services/api', null],
      ['ws.txt', null],
      ['api/touched.txt', 'api'],
      ['web/fixed.txt', 'web'],
      ['web/touched.txt', 'web'],
    ]);
    expect(diff.json.totals.files).toBe(7);
    const page = await http(`${w.jig.url}/api/work-items/${r.json.id}/diff?format=patch&offset=3&limit=2`);
    expect(page.json.files.map((f: any) => f.path)).toEqual(['ws.txt', 'api/touched.txt']);
    expect(page.json.next_offset).toBe(5);
    expect(page.json.files[1].patch).toContain('+++ b/api/touched.txt');

    // Abandon reclaims every member's worktree and deletes each member's branch.
    const cancel = await post(w.jig, `/api/work-items/${r.json.id}/archive`);
    expect(cancel.status, cancel.text).toBe(200);
    const after = await events(w.jig, r.json.id);
    const reclaimed = ofType(after, 'worktree_reclaimed').map((e) => e.payload);
    expect(reclaimed).toEqual([
      {
        worktree_removed: true,
        members: [
          { member: 'api', worktree_removed: true },
          { member: 'web', worktree_removed: true },
        ],
      },
    ]);
    expect(existsSync(api.worktree_path)).toBe(false);
    expect(existsSync(web.worktree_path)).toBe(false);
    // The member branches stay after an archive: the diff reads them from the repositories.
    const kept = await http(`${w.jig.url}/api/work-items/${r.json.id}/diff?format=name_only`);
    expect(kept.json.files.filter((f: any) => f.member).map((f: any) => f.path)).toEqual([
      'api/touched.txt',
      'web/fixed.txt',
      'web/touched.txt',
    ]);
  }, 120_000);

  it('files on selected members only, and refuses members that are not there, naming them', async () => {
    const w = await workspaceWorld({ ws: CHAIN });
    const one = await post(w.jig, '/api/work-items', {
      title: 'Web only',
      repo: 'all',
      members: ['web'],
      chain: 'ws',
    });
    expect(one.status, one.text).toBe(201);
    expect(one.json.workspace.members.map((m: any) => m.name)).toEqual(['web']);
    const created = ofType(await events(w.jig, one.json.id), 'work_item_created')[0].payload;
    expect(created).toMatchObject({ repo: w.root, workspace: 'all', members: ['web'] });

    const bad = await post(w.jig, '/api/work-items', {
      title: 'Nope',
      repo: 'all',
      members: ['ios'],
      chain: 'ws',
    });
    expect(bad.status).toBe(422);
    expect(bad.json.code).toBe('validation_failed');
    expect(bad.json.detail).toContain(
      'body.members: ios is not a member of workspace all (its members: api, web)',
    );

    const twice = await post(w.jig, '/api/work-items', {
      title: 'Nope',
      repo: 'all',
      members: ['web', 'web'],
      chain: 'ws',
    });
    expect(twice.status).toBe(422);
    expect(twice.json.detail).toContain('body.members: web is selected twice');

    const plain = await post(w.jig, '/api/work-items', {
      title: 'Nope',
      repo: w.api,
      members: ['web'],
      chain: 'ws',
    });
    expect(plain.status).toBe(422);
    expect(plain.json.detail).toContain('is a repository, not a workspace');

    // A member's repository disabled: the repo error names the member.
    const patched = await http(`${w.jig.url}/api/repos?path=${encodeURIComponent(w.web)}`, {
      method: 'PATCH',
      body: { enabled: false },
    });
    expect(patched.status, patched.text).toBe(200);
    const off = await post(w.jig, '/api/work-items', { title: 'Nope', repo: 'all', chain: 'ws' });
    expect(off.status).toBe(422);
    expect(off.json.code).toBe('repo_disabled');
    expect(off.json.detail).toContain('(member web of workspace all)');
    // The API member alone still files.
    const api = await post(w.jig, '/api/work-items', {
      title: 'Api',
      repo: 'all',
      members: ['api'],
      chain: 'ws',
    });
    expect(api.status, api.text).toBe(201);
    // The dry run and the trigger take a workspace too.
    const dry = await post(w.jig, '/api/work-items?dry_run=1', {
      title: 'Try',
      repo: 'all',
      members: ['api'],
      chain: 'ws',
    });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.json.would_file.repo).toBe(w.root);
    expect(dry.json.would_file.workspace.members.map((m: any) => m.name)).toEqual(['api']);
    const trig = await post(w.jig, '/api/triggers', {
      title: 'From CI',
      repo: 'all',
      members: ['api'],
      chain: 'ws',
    });
    expect(trig.status, trig.text).toBe(201);
    expect(trig.json.workspace.members.map((m: any) => m.name)).toEqual(['api']);
    // A schedule may name the workspace and members; a member that is not there is a warning.
    writeFileSync(
      join(w.home, 'config', 'intake.yaml'),
      'schedules:\n' +
        '  - { cron: "0 0 1 1 *", repo: all, members: [web], chain: ws, title: Yearly }\n' +
        '  - { cron: "0 0 1 1 *", repo: all, members: [ios], chain: ws, title: Yearly }\n',
    );
    const reload = await http(`${w.jig.url}/api/apply/reload`, { method: 'POST' });
    expect(reload.status, reload.text).toBe(200);
    expect(
      reload.json.warnings.flatMap((f: any) => f.problems.map((p: any) => [p.path, p.field, p.message])),
    ).toEqual([
      ['schedules.1', 'members', 'schedule 1: ios is not a member of workspace all (its members: api, web)'],
    ]);
    // Nothing was filed by the refusals (nor the dry run).
    const list = await http(`${w.jig.url}/api/work-items`);
    expect(list.json.total).toBe(3);
  });

  it('a kill -9 during the fan-out adopts every member session; none runs twice', async () => {
    const w = await workspaceWorld({
      slow: `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: wait
        kind: subprocess
        scope: each_repository
        run: 'echo started >> runs.txt; ${holdUntil('"$GO"')}; git commit -q --allow-empty -m "$JIG_REPOSITORY"'
`,
    });
    const go = join(w.home, 'go');
    // The task's environment comes from repos.yaml `env`: point both members at the flag file.
    const reposFile = join(w.home, 'config', 'repos.yaml');
    writeFileSync(
      reposFile,
      readFileSync(reposFile, 'utf8').replace(
        /setup_command: ""\n/g,
        `setup_command: ""\n    env: { GO: ${JSON.stringify(go)} }\n`,
      ),
    );
    const r = await post(w.jig, '/api/work-items', {
      title: 'Slow',
      repo: 'all',
      chain: 'slow',
      start: true,
    });
    expect(r.status, r.text).toBe(201);
    const id = r.json.id;
    const ev = await eventually(
      async () => {
        const now = await events(w.jig, id);
        return started(now, 'build.main.wait').length >= 2 && now;
      },
      { what: 'both members to start build.main.wait' },
    );
    const sessions = started(ev, 'build.main.wait').map((e) => e.payload);
    expect(sessions.map((p) => p.member).sort()).toEqual(['api', 'web']);
    await w.jig.stop('SIGKILL');
    const again = await startJig({ home: w.home });
    writeFileSync(go, '');
    const done = await until(again, id, completed, 600);
    const after = await events(again, id);
    expect(
      ofType(after, 'session_reattached')
        .map((e) => e.payload.session)
        .sort(),
    ).toEqual(sessions.map((p) => p.session).sort());
    expect(started(after, 'build.main.wait')).toHaveLength(2);
    for (const m of done.workspace.members) {
      expect(readFileSync(join(m.worktree_path, 'runs.txt'), 'utf8')).toBe('started\n');
      expect(git(m.worktree_path, 'log', '-1', '--format=%s')).toBe(m.name);
    }
  });

  it('jig item create --repo WORKSPACE --members files on the members; jig view show lists them', async () => {
    const w = await workspaceWorld({ ws: CHAIN });
    const env = { JIG_HOME: w.home, JIG_WORK_ITEM_ID: '' };
    const made = await runJig(
      ['item', 'create', 'Both', '--repo', 'all', '--members', 'web', '--chain', 'ws', '--json'],
      env,
    );
    expect(made.code, made.stderr).toBe(0);
    const item = JSON.parse(made.stdout);
    expect(item.workspace.members.map((m: any) => m.name)).toEqual(['web']);
    const shown = await runJig(['view', 'show', item.id], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`members  all: web (${w.web})`);
    const wrong = await runJig(
      ['item', 'create', 'Both', '--repo', 'all', '--members', 'ios', '--chain', 'ws'],
      env,
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('ios is not a member of workspace all (its members: api, web)');
    const notWs = await runJig(['item', 'create', 'Both', '--repo', w.api, '--members', 'web'], env);
    expect(notWs.code).toBe(2);
    expect(notWs.stderr).toContain('--members is for a workspace: pass its name as --repo');
  });
});
