import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, makeRepo } from './helpers/git.js';
import { cleanupAll, http, repoRoot, runJig, startJig, tempHome, type JigProcess } from './helpers/server.js';

let jig: JigProcess;
const api = (method: string, path: string, body?: unknown) => http(`${jig.url}${path}`, { method, body });
const q = (p: string) => `?path=${encodeURIComponent(p)}`;

beforeAll(async () => {
  jig = await startJig();
});
afterAll(cleanupAll);

describe('POST /api/repos/probe', () => {
  it('proposes test and setup commands from the repo, each with its reason', async () => {
    const repo = makeRepo({
      'package.json': JSON.stringify({ scripts: { test: 'vitest run' } }),
      'package-lock.json': '{}',
      '.github/workflows/ci.yml': 'jobs:\n  t:\n    steps:\n      - run: npm test\n',
    });
    git(repo, 'remote', 'add', 'origin', 'git@gitlab.example.com:acme/web-app.git');
    const r = await api('POST', '/api/repos/probe', { path: repo });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      path: repo,
      is_git: true,
      has_commit: true,
      connected: false,
      name: 'repo',
      default_branch: 'main',
      forge: { value: 'gitlab', reason: 'origin is gitlab.example.com' },
      project: { value: 'acme/web-app', reason: 'path of origin on GitLab' },
      test_command: {
        value: 'npm test',
        reason: 'package.json has a `test` script; .github/workflows/ci.yml runs it too',
      },
      setup_command: { value: 'npm ci', reason: 'package.json with package-lock.json' },
      workspace: null,
      // Which depends on the agent CLIs this machine has: launch-check.test.ts pins both answers.
      default_chain: { value: expect.stringMatching(/^(default|manual)$/), reason: expect.any(String) },
    });
  });

  it('proposes a workspace from the submodules .gitmodules declares, saying which are checked out and connected', async () => {
    const root = makeRepo({
      '.gitmodules':
        '[submodule "libs/api"]\n\tpath = api\n\turl = ../api.git\n[submodule "Web UI"]\n\tpath = web\n',
    });
    git(root, 'init', '-q', join(root, 'api'));
    git(join(root, 'api'), 'commit', '-q', '--allow-empty', '-m', 'init');
    const connected = await api('POST', '/api/repos', { path: join(root, 'api'), test_command: '' });
    expect(connected.status, connected.text).toBe(201);
    const r = await api('POST', '/api/repos/probe', { path: root });
    expect(r.status).toBe(200);
    expect(r.json.workspace).toEqual({
      name: 'repo',
      reason: '.gitmodules declares 2 submodules',
      members: [
        {
          name: 'api',
          submodule: 'libs/api',
          path: 'api',
          repo_path: join(root, 'api'),
          checked_out: true,
          connected: true,
        },
        {
          name: 'web-ui',
          submodule: 'Web UI',
          path: 'web',
          repo_path: join(root, 'web'),
          checked_out: false,
          connected: false,
        },
      ],
    });
    expect((await api('DELETE', `/api/repos${q(join(root, 'api'))}`)).status).toBe(204);
  });

  it("prefers a task runner's test target, and proposes nothing it cannot justify", async () => {
    const make = makeRepo({ Makefile: 'test:\n\tgo test ./...\n', 'go.mod': 'module x\n' });
    expect((await api('POST', '/api/repos/probe', { path: make })).json.test_command).toEqual({
      value: 'make test',
      reason: 'Makefile has a `test` target',
    });
    const bare = makeRepo({ 'notes.txt': 'hi' });
    const r = (await api('POST', '/api/repos/probe', { path: bare })).json;
    expect(r.test_command).toBe(null);
    expect(r.setup_command).toEqual({
      value: '',
      reason: 'no dependency manifest found: nothing to install',
    });
    // No lockfile: npm install is proposed, saying what it writes and how to get npm ci.
    const loose = makeRepo({ 'package.json': '{"name":"x"}' });
    const setup = (await api('POST', '/api/repos/probe', { path: loose })).json.setup_command;
    expect(setup.value).toBe('npm install');
    expect(setup.reason).toContain("npm install writes package-lock.json in each item's worktree");
    expect(setup.reason).toContain('commit a lockfile to have npm ci proposed');
    const gh = makeRepo();
    git(gh, 'remote', 'add', 'origin', 'https://github.com/acme/tool.git');
    expect((await api('POST', '/api/repos/probe', { path: gh })).json.forge).toEqual({
      value: 'github',
      reason: 'origin is github.com',
    });
  });

  it('answers for a repo with no commit, and refuses a folder that is not a repository', async () => {
    const empty = makeRepo({}, { commit: false });
    expect((await api('POST', '/api/repos/probe', { path: empty })).json).toMatchObject({
      is_git: true,
      has_commit: false,
    });
    const plain = tempHome('jig-plain-');
    const r = await api('POST', '/api/repos/probe', { path: plain });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ is_git: false, has_commit: false });
    const missing = await api('POST', '/api/repos/probe', { path: join(plain, 'nope') });
    expect(missing.status).toBe(422);
    expect(missing.json).toEqual({
      detail: `${join(plain, 'nope')} does not exist`,
      code: 'repo_path_missing',
    });
  });
});

describe('connecting', () => {
  it('refuses a folder that is not a git repository, and a repository with no commit', async () => {
    const plain = tempHome('jig-plain-');
    let r = await api('POST', '/api/repos', { path: plain });
    expect(r.status).toBe(422);
    expect(r.json).toEqual({ detail: `${plain} is not a git repository`, code: 'repo_not_git' });
    // A path that does not exist says so (issue 28), from the API and from the CLI.
    r = await api('POST', '/api/repos', { path: join(plain, 'typo') });
    expect(r.json).toEqual({ detail: `${join(plain, 'typo')} does not exist`, code: 'repo_path_missing' });
    const typo = await runJig(['repo', 'connect', join(plain, 'typo'), '-y'], { JIG_HOME: jig.home });
    expect([typo.code, typo.stdout, typo.stderr]).toEqual([
      2,
      '',
      `jig: ${join(plain, 'typo')} does not exist (HTTP 422, repo_path_missing)\n`,
    ]);
    const empty = makeRepo({}, { commit: false });
    r = await api('POST', '/api/repos', { path: empty });
    expect(r.status).toBe(422);
    expect(r.json).toEqual({
      detail: `${empty} has no commit yet; commit something first`,
      code: 'repo_no_commit',
    });
  });

  it('connects disabled while the test command is undecided; re-connecting saves what was undecided and enables it', async () => {
    const repo = makeRepo({ 'notes.txt': 'hi' });
    const first = await api('POST', '/api/repos', { path: join(repo, '.') });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({
      path: repo,
      enabled: false,
      test_command: null,
      setup_command: '',
      needs: ['test_command'],
    });
    const trig = await api('POST', '/api/triggers', { title: 'x', repo });
    expect(trig.status).toBe(422);
    expect(trig.json.code).toBe('repo_disabled');

    // The repo learns to test itself; connecting again re-probes and fills the gap.
    writeFileSync(join(repo, 'Makefile'), 'test:\n\ttrue\n');
    const again = await api('POST', '/api/repos', { path: repo });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ enabled: true, test_command: 'make test', needs: [] });
    expect((await api('POST', '/api/triggers', { title: 'x', repo })).status).toBe(201);
  });

  it('keeps decisions already written, reads the old default_chain_template, and keeps comments in repos.yaml', async () => {
    const repo = makeRepo({ 'package.json': '{"scripts":{"test":"jest"}}' });
    const r = await api('POST', '/api/repos', {
      path: repo,
      test_command: 'npm run unit',
      default_chain_template: 'quick-task',
    });
    expect(r.json).toMatchObject({
      test_command: 'npm run unit',
      default_chain: 'quick-task',
      setup_command: 'npm install',
    });
    const again = await api('POST', '/api/repos', { path: repo });
    expect(again.json.test_command).toBe('npm run unit');
    const text = readFileSync(join(jig.home, 'config', 'repos.yaml'), 'utf8');
    expect(text).toContain('# ');
    expect(text).not.toContain('default_chain_template');
  });

  it('reads repos.yaml when needed: an edit by hand counts on the next request', async () => {
    const repo = makeRepo();
    await api('POST', '/api/repos', { path: repo, test_command: '' });
    const file = join(jig.home, 'config', 'repos.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        `path: ${repo}\n    name: repo`,
        `path: ${repo}\n    name: renamed-by-hand`,
      ),
    );
    const list = (await api('GET', '/api/repos')).json.repos;
    expect(list.find((x: { path: string }) => x.path === repo).name).toBe('renamed-by-hand');
  });
});

describe('PATCH and DELETE /api/repos', () => {
  it('patches keys, clears with null, and refuses bad values naming the field', async () => {
    const repo = makeRepo();
    await api('POST', '/api/repos', { path: repo, test_command: '' });
    let r = await api('PATCH', `/api/repos${q(repo)}`, {
      setup_command: 'make deps',
      models: { claude: 'opus' },
    });
    expect(r.status).toBe(200);
    expect(r.json.entry).toMatchObject({
      setup_command: 'make deps',
      models: { claude: 'opus' },
      managed: true,
    });
    r = await api('PATCH', `/api/repos${q(repo)}`, { models: null });
    expect(r.json.entry.models).toBeUndefined();
    r = await api('PATCH', `/api/repos${q(repo)}`, { enabled: 'yes' });
    expect(r.status).toBe(422);
    expect(r.json.detail).toMatch(/^body\.enabled: /);
    r = await api('PATCH', `/api/repos${q(repo)}`, { colour: 'red' });
    expect(r.status).toBe(422);
    r = await api('PATCH', `/api/repos${q(repo)}`, {
      sandbox: { network: { runtime: { allow: ['registry.npmjs.org'] } }, unrestricted_network: true },
    });
    expect(r.status).toBe(422);
    expect(r.json.detail).toBe('body.sandbox: set either network or unrestricted_network, not both');
    r = await api('PATCH', `/api/repos${q('/no/such/repo')}`, { name: 'x' });
    expect(r.status).toBe(404);
  });

  it('refuses to disconnect while items not done, cancelled or abandoned use the repo (paused included)', async () => {
    const repo = makeRepo();
    await api('POST', '/api/repos', { path: repo, test_command: '' });
    const a = (await api('POST', '/api/triggers', { title: 'a', repo })).json;
    const b = (await api('POST', '/api/triggers', { title: 'b', repo })).json;
    let r = await api('DELETE', `/api/repos${q(repo)}`);
    expect(r.status).toBe(409);
    expect(r.json).toEqual({
      detail: `2 work item(s) not yet done, cancelled or abandoned use ${repo}: ${a.id} (paused), ${b.id} (paused); end them first (jig item cancel ID)`,
      code: 'repo_has_open_items',
      open_items: 2,
    });
    await api('POST', `/api/work-items/${a.id}/cancel`);
    await api('POST', `/api/work-items/${b.id}/abandon`, { reason: 'gone' });
    r = await api('DELETE', `/api/repos${q(repo)}`);
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect((await api('GET', '/api/repos')).json.repos.map((x: { path: string }) => x.path)).not.toContain(
      repo,
    );
    expect((await api('DELETE', `/api/repos${q(repo)}`)).status).toBe(404);
  });
});

describe('GET /api/repos', () => {
  it("suggests the checkout the server was started in while it is not connected, unless it is Jig's own", async () => {
    // This file's server started in Jig's own checkout: a newcomer does not mean to connect that.
    expect(git(repoRoot, 'rev-parse', '--show-toplevel')).toBe(repoRoot.replace(/\/$/, ''));
    const r = await api('GET', '/api/repos');
    expect(r.status).toBe(200);
    expect(r.json.suggested).toBeNull();
    expect(r.json.workspaces).toEqual([]);
    const project = makeRepo();
    const there = await startJig({ cwd: join(project) });
    const answer = (await http(`${there.url}/api/repos`)).json;
    expect(answer.suggested).toEqual({ path: project, name: 'repo' });
    await there.stop();
  });

  it('shows a connected repo whose folder is gone', async () => {
    const repo = makeRepo();
    await api('POST', '/api/repos', { path: repo, test_command: '' });
    mkdirSync(join(repo, '..', 'elsewhere'));
    const { renameSync } = await import('node:fs');
    renameSync(repo, join(repo, '..', 'moved'));
    const view = (await api('GET', '/api/repos')).json.repos.find((x: { path: string }) => x.path === repo);
    expect(view).toMatchObject({ exists: false });
  });
});

describe('the CLI', () => {
  it('repo connect, list and disconnect', async () => {
    const env = { JIG_HOME: jig.home };
    const repo = makeRepo({ 'Cargo.toml': '[package]\nname="x"\n' });
    const c = await runJig(['repo', 'connect', repo, '-y'], env);
    expect(c).toMatchObject({
      code: 0,
      stdout: `connected ${repo}: enabled; tests: cargo test; setup: cargo fetch\n`,
    });
    const bare = makeRepo({ 'a.txt': 'a' });
    const d = await runJig(['repo', 'connect', bare, '-y'], env);
    expect(d.stdout).toBe(
      `connected ${bare}: disabled until you decide a test command (--test-command CMD, or --no-tests); tests: undecided; setup: nothing\n`,
    );
    const e = await runJig(['repo', 'connect', bare, '--no-tests', '-y'], env);
    expect(e.stdout).toBe(`updated ${bare}: enabled; tests: none; setup: nothing\n`);
    const list = await runJig(['repo', 'list', '--json'], env);
    expect(JSON.parse(list.stdout).repos.map((r: { path: string }) => r.path)).toEqual(
      expect.arrayContaining([repo, bare]),
    );
    const gone = await runJig(['repo', 'disconnect', bare], env);
    expect(gone).toMatchObject({ code: 0, stdout: `disconnected ${bare}\n` });
    const notGit = await runJig(['repo', 'connect', tempHome('jig-plain-')], env);
    expect(notGit.code).toBe(2);
    expect(notGit.stderr).toContain('is not a git repository');
  });
});

describe('workspaces', () => {
  it("GET /api/repos and jig repo list show each workspace with its members' state", async () => {
    const file = join(jig.home, 'config', 'repos.yaml');
    const before = readFileSync(file, 'utf8');
    const root = makeRepo();
    const api1 = makeRepo();
    writeFileSync(
      file,
      `repos:\n  - path: ${root}\n    id: shop\n    test_command: ''\n    setup_command: ''\n  - path: ${api1}\n    id: api\n    test_command: ''\n    setup_command: ''\n    enabled: false\nworkspaces:\n  all:\n    root: shop\n    members:\n      api:\n        repository: api\n        path: services/api\n      web:\n        repository: web\n        path: web\n`,
    );
    try {
      const r = await api('GET', '/api/repos');
      expect(r.status).toBe(200);
      expect(r.json.workspaces).toEqual([
        {
          name: 'all',
          root: 'shop',
          root_path: root,
          root_pointer_default: 'ignore',
          members: [
            {
              name: 'api',
              repository: 'api',
              path: 'services/api',
              repo_path: api1,
              enabled: false,
              problem: `member api: api (${api1}) is disabled`,
            },
            {
              name: 'web',
              repository: 'web',
              path: 'web',
              repo_path: null,
              enabled: false,
              problem: 'member web: web is not a connected repository (no repos.yaml entry has id: web)',
            },
          ],
          ready: false,
          problems: [
            `member api: api (${api1}) is disabled`,
            'member web: web is not a connected repository (no repos.yaml entry has id: web)',
          ],
        },
      ]);
      const list = await runJig(['repo', 'list'], { JIG_HOME: jig.home, NO_COLOR: '1' });
      expect(list.code).toBe(0);
      // Piped, a table is its rows as tab-separated lines.
      expect(list.stdout).toContain(
        `all\tshop\tapi (api at services/api), web (web at web)\tmember api: api (${api1}) is disabled; member web: web is not a connected repository (no repos.yaml entry has id: web)\n`,
      );
    } finally {
      writeFileSync(file, before);
    }
  });
});
