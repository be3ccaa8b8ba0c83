import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git, makeRepo } from './helpers/git.js';
import { cleanupAll, http, runJig, startJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * `GET /api/repos/forge` and `jig repo forge`: whether merge requests can work from a repository,
 * resolved from repos.yaml and origin, and where the token comes from; never the token itself.
 */
const NO_TOKENS = { JIG_FORGE_TOKEN: '', GITHUB_TOKEN: '', GH_TOKEN: '', GITLAB_TOKEN: '', GITEA_TOKEN: '' };
let jig: JigProcess;
let home: string;

afterAll(cleanupAll);

async function serve(entries: string, env: Record<string, string>): Promise<void> {
  home = tempHome();
  mkdirSync(join(home, 'config'), { recursive: true });
  writeFileSync(join(home, 'config', 'repos.yaml'), `repos:\n${entries}`);
  jig = await startJig({ home, env: { ...NO_TOKENS, ...env } });
}

describe('the forge check of a repository', () => {
  it('ready, not ready for want of a token, or for want of a forge; the token never shown', async () => {
    const fromOrigin = makeRepo();
    git(fromOrigin, 'remote', 'add', 'origin', 'git@gitlab.com:group/sub/app.git');
    const local = makeRepo();
    const named = makeRepo();
    const entry = (p: string, extra = '') =>
      `  - path: ${p}\n    test_command: ''\n    setup_command: ''\n${extra}`;
    await serve(
      entry(fromOrigin) +
        entry(local) +
        entry(
          named,
          '    forge: gitea\n    project: acme/app\n    forge_url: http://127.0.0.1:3000/api/v1\n',
        ),
      { GITLAB_TOKEN: 'glpat-hidden', GITEA_TOKEN: '' },
    );
    const check = (p: string) => http(`${jig.url}/api/repos/forge?path=${encodeURIComponent(p)}`);
    const a = await check(fromOrigin);
    expect(a.status).toBe(200);
    expect(a.json).toEqual({
      path: fromOrigin,
      forge: 'gitlab',
      project: 'group/sub/app',
      api_url: 'https://gitlab.com/api/v4',
      token_source: 'GITLAB_TOKEN',
      ready: true,
      problem: null,
    });
    expect(a.text).not.toContain('glpat-hidden');
    expect((await check(named)).json).toEqual({
      path: named,
      forge: 'gitea',
      project: 'acme/app',
      api_url: 'http://127.0.0.1:3000/api/v1',
      token_source: null,
      ready: false,
      problem: "no gitea token for 127.0.0.1: set JIG_FORGE_TOKEN, GITEA_TOKEN in the server's environment",
    });
    expect((await check(local)).json).toMatchObject({
      forge: null,
      ready: false,
      problem:
        'the repository has no origin remote and repos.yaml sets no forge; add an origin or set forge and project',
    });
    const missing = await check('/no/such/repo');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ code: 'repo_unknown', detail: 'no connected repo at /no/such/repo' });

    const ok = await runJig(['repo', 'forge', fromOrigin], { JIG_HOME: home });
    expect(ok).toEqual({
      code: 0,
      stdout: 'gitlab group/sub/app at https://gitlab.com/api/v4; token from GITLAB_TOKEN\n',
      stderr: '',
    });
    const notReady = await runJig(['repo', 'forge', named], { JIG_HOME: home });
    expect(notReady).toEqual({
      code: 1,
      stdout:
        "gitea acme/app at http://127.0.0.1:3000/api/v1; not ready: no gitea token for 127.0.0.1: set JIG_FORGE_TOKEN, GITEA_TOKEN in the server's environment\n",
      stderr: '',
    });
    const json = await runJig(['repo', 'forge', local, '--json'], { JIG_HOME: home });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ path: local, ready: false });
  });
});
