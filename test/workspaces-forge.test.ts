import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { events, post, until } from './helpers/engine.js';
import { git, gitEnv, makeRepo } from './helpers/git.js';
import { startMockGitHub, type MockGitHub } from './helpers/mock-github.js';
import { cleanupAll, repoRoot, startJig, tempHome } from './helpers/server.js';

afterAll(cleanupAll);

/*
 * Merge requests of a workspace item (docs/workspaces.md): one per member that changed, then the
 * root's carrying the bumped pointers, merged members first. Each repository has a local bare origin
 * and its own recording GitHub mock.
 */
const TOKEN = 'ws_forge_secret';

const CHAIN = `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: edit
        kind: subprocess
        scope: each_repository
        run: 'test "$JIG_REPOSITORY" = web || exit 0; echo x > w.txt && git add w.txt && git commit -qm "web change"'
  - id: publish
    kind: exec
    steps:
      - id: open
        tasks:
          - id: open
            extends: open_draft_mr
      - id: ready
        tasks:
          - id: ready
            extends: mark_mr_ready
      - id: merge
        tasks:
          - id: merge
            extends: merge_mr
            wait: { polling: { initial_interval: 1s, max_interval: 2s } }
`;

/** A repository with a bare origin it pushed main to. */
function withOrigin(files?: Record<string, string>): { repo: string; origin: string } {
  const repo = makeRepo(files);
  const origin = join(tempHome('jig-origin-'), 'origin.git');
  git(repo, 'init', '-q', '--bare', origin);
  git(repo, 'remote', 'add', 'origin', origin);
  git(repo, 'push', '-q', 'origin', 'main');
  return { repo, origin };
}

describe('merge requests of a workspace item', () => {
  it('opens one per member that changed, then the root with the moved pointer, and merges members first', async () => {
    const api = withOrigin({ 'api.go': 'package api\n' });
    const web = withOrigin({ 'web.ts': 'export {};\n' });
    const root = withOrigin({ 'README.md': '# shop\n' });
    git(root.repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', api.repo, 'services/api');
    git(root.repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', web.repo, 'apps/web');
    git(root.repo, 'commit', '-qm', 'add submodules');
    git(root.repo, 'push', '-q', 'origin', 'main');
    const mocks: Record<string, MockGitHub> = {};
    for (const [name, r] of Object.entries({ api, web, root })) {
      const gh = await startMockGitHub(TOKEN);
      gh.shaOf = (branch) => git(r.origin, 'rev-parse', `refs/heads/${branch}`);
      mocks[name] = gh;
    }
    const home = tempHome();
    mkdirSync(join(home, 'config', 'chains'), { recursive: true });
    writeFileSync(join(home, 'config', 'chains', 'ws.yaml'), CHAIN);
    writeFileSync(
      join(home, 'config', 'library.yaml'),
      readFileSync(join(repoRoot, 'defaults', 'config', 'library.yaml'), 'utf8')
        .replace(/initial_interval: \d+[smh]/g, 'initial_interval: 1s')
        .replace(/max_interval: \d+[smh]/g, 'max_interval: 2s'),
    );
    const entry = (path: string, id: string) =>
      `  - path: ${path}\n    id: ${id}\n    test_command: ''\n    setup_command: ''\n    forge: github\n    project: acme/app\n    forge_url: ${mocks[id === 'shop' ? 'root' : id]!.url}\n`;
    writeFileSync(
      join(home, 'config', 'repos.yaml'),
      `repos:\n${entry(root.repo, 'shop')}${entry(api.repo, 'api')}${entry(web.repo, 'web')}` +
        `workspaces:\n  all:\n    root: shop\n    root_pointer_default: bump\n    members:\n` +
        `      api: { repository: api, path: services/api }\n      web: { repository: web, path: apps/web }\n`,
    );
    const jig = await startJig({ home, env: { ...gitEnv, JIG_FORGE_TOKEN: TOKEN } });
    try {
      const r = await post(jig, '/api/work-items', {
        title: 'Change web',
        repo: 'all',
        chain: 'ws',
        start: true,
      });
      expect(r.status, r.text).toBe(201);
      const done = await until(
        jig,
        r.json.id,
        (i) => !['running', 'queued', 'waiting'].includes(i.status),
        600,
      );
      expect(done.status, JSON.stringify(done.stop)).toBe('completed');
      const ev = await events(jig, r.json.id);
      // api had no commits: no merge request there. web's opened first, then the root's.
      expect(
        ev.filter((e) => e.type === 'mr_opened').map((e) => [e.payload.member ?? 'root', e.payload.repo]),
      ).toEqual([
        ['web', web.repo],
        ['root', root.repo],
      ]);
      expect(mocks.api!.pulls).toHaveLength(0);
      expect(mocks.web!.pulls).toHaveLength(1);
      expect(mocks.root!.pulls).toHaveLength(1);
      // The root's pushed branch moves web's pointer to web's pushed branch.
      const branch = done.branch;
      const webTip = git(web.origin, 'rev-parse', `refs/heads/${branch}`);
      const link = git(root.origin, 'ls-tree', `refs/heads/${branch}`, '--', 'apps/web').split(/\s+/)[2];
      expect(link).toBe(webTip);
      // Merged members first, then the root.
      const merged = ev.filter((e) => e.type === 'mr_merged').map((e) => e.payload.repo);
      expect(merged).toEqual([web.repo, root.repo]);
      expect(mocks.web!.pulls[0]!.merged).toBe(true);
      expect(mocks.root!.pulls[0]!.merged).toBe(true);
      const sessions = ev
        .filter((e) => e.type === 'worker_session_started' && e.payload.task === 'publish.open.open')
        .map((e) => e.payload.member ?? 'root');
      expect(sessions).toEqual(['web', 'root']);
    } finally {
      await jig.stop();
      for (const m of Object.values(mocks)) await m.close();
    }
  }, 120_000);
});
