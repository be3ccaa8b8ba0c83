import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { forgeIssues } from '../src/runtime/forge/issues-clients.js';
import { harnessesYaml } from './helpers/agents.js';
import { events, post, until } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { GATED_CHAIN } from './helpers/gated-chain.js';
import { firstCheck } from './helpers/intake.js';
import { gitEnv, makeRepo } from './helpers/git.js';
import { startMockGitea } from './helpers/mock-gitea.js';
import { startMockGitHub, type MockGitHub } from './helpers/mock-github.js';
import { startMockGitLab } from './helpers/mock-gitlab.js';
import { cleanupAll, http, startJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * Blocking edges read from the forges (docs/intake.md, Blocking edges): GitHub's issue dependencies,
 * GitLab's `is_blocked_by` links and Gitea's dependencies, each from its recording mock on loopback,
 * on a real server with a real repository. A blocked issue is filed after its blocker's item in the
 * same poll; one blocked by an issue never filed waits; a closed blocker no longer blocks.
 */

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  await cleanupAll();
});

const TOKEN = 'forge_blocking_secret';

/** An issue as a test declares it, whatever the forge: open unless said, blocked by numbers. */
interface Spec {
  n: number;
  title: string;
  labels: string[];
  closed?: boolean;
  blockedBy?: number[];
}

interface Forge {
  name: 'github' | 'gitlab' | 'gitea';
  project: string;
  /** The mock, holding the issues; its forge_url for repos.yaml. */
  start(issues: Spec[]): Promise<{ forgeUrl: string; close(): Promise<void> }>;
}

const FORGES: Forge[] = [
  {
    name: 'github',
    project: 'acme/app',
    async start(issues) {
      const gh = await startMockGitHub(TOKEN);
      for (const s of issues)
        gh.issues.push({
          number: s.n,
          title: s.title,
          body: '',
          state: s.closed ? 'closed' : 'open',
          labels: s.labels.map((name) => ({ name })),
          html_url: `https://github.example/acme/app/issues/${s.n}`,
          ...(s.blockedBy ? { blockedBy: s.blockedBy } : {}),
        });
      return { forgeUrl: gh.url, close: () => gh.close() };
    },
  },
  {
    name: 'gitlab',
    project: 'group/app',
    async start(issues) {
      const gl = await startMockGitLab(TOKEN);
      for (const s of issues)
        gl.issues.push({
          iid: s.n,
          title: s.title,
          description: '',
          state: s.closed ? 'closed' : 'opened',
          labels: s.labels,
          ...(s.blockedBy ? { blockedBy: s.blockedBy } : {}),
        });
      return { forgeUrl: `${gl.url}/api/v4`, close: () => gl.close() };
    },
  },
  {
    name: 'gitea',
    project: 'acme/app',
    async start(issues) {
      const gt = await startMockGitea(TOKEN);
      for (const s of issues)
        gt.issues.push({
          number: s.n,
          title: s.title,
          body: '',
          state: s.closed ? 'closed' : 'open',
          labels: s.labels,
          ...(s.blockedBy ? { blockedBy: s.blockedBy } : {}),
        });
      return { forgeUrl: `${gt.url}/api/v1`, close: () => gt.close() };
    },
  },
];

const URLS: Record<Forge['name'], (n: number) => string> = {
  github: (n) => `https://github.example/acme/app/issues/${n}`,
  gitlab: (n) => `https://gitlab.example/group/app/-/issues/${n}`,
  gitea: (n) => `https://gitea.example/acme/app/issues/${n}`,
};

/** A home with one repository on the forge, filing forge issues labelled `jig`; the server started. */
async function serve(
  forge: Forge['name'],
  project: string,
  forgeUrl: string,
): Promise<{ jig: JigProcess; repo: string }> {
  const home = tempHome();
  const repo = makeRepo({ 'README.md': '# app\n' });
  mkdirSync(join(home, 'config', 'chains'), { recursive: true });
  writeFileSync(join(home, 'config', 'chains', 'flow.yaml'), GATED_CHAIN);
  writeFileSync(
    join(home, 'config', 'repos.yaml'),
    stringify({
      repos: [
        {
          path: repo,
          test_command: '',
          setup_command: '',
          default_chain: 'flow',
          forge,
          project,
          forge_url: forgeUrl,
        },
      ],
    }),
  );
  writeFileSync(join(home, 'config', 'harnesses.yaml'), harnessesYaml());
  writeFileSync(
    join(home, 'config', 'intake.yaml'),
    stringify({ enabled: true, interval_s: 3600, priority_ceiling: 2, issues: { label: 'jig' } }),
  );
  return { jig: await startJig({ home, env: { ...gitEnv, JIG_FORGE_TOKEN: TOKEN } }), repo };
}

describe.each(FORGES)('blocking edges from $name', (forge) => {
  it('files the blocked issue after its blocker in one poll, ignores a closed blocker, and leaves one blocked by an unlabelled issue waiting', async () => {
    const mock = await forge.start([
      { n: 1, title: 'Ready one', labels: ['jig'] },
      { n: 2, title: 'Blocked one', labels: ['jig'], blockedBy: [1, 3] },
      { n: 3, title: 'Closed blocker', labels: ['jig'], closed: true },
      { n: 4, title: 'Waits on an unlabelled one', labels: ['jig'], blockedBy: [5] },
      { n: 5, title: 'Not for Jig', labels: ['bug'] },
    ]);
    closers.push(() => mock.close());
    const { jig, repo } = await serve(forge.name, forge.project, mock.forgeUrl);
    const name = (n: number) => `${forge.name}:${forge.project}#${n}`;

    const first = await firstCheck(jig);
    expect(first).toEqual({
      id: expect.any(Number),
      at: expect.any(String),
      ready: 1,
      started: [expect.any(String), expect.any(String)],
      skipped: [{ bead: name(4), reason: 'blocked_by_unfiled' }],
    });
    const [blocker, dependent] = first.started;
    await until(jig, blocker, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
    const b = (await http(`${jig.url}/api/work-items/${dependent}`)).json;
    expect({
      title: b.title,
      status: b.status,
      started_at: b.started_at,
      dependencies: b.dependencies,
      issues: b.issues,
    }).toEqual({
      title: 'Blocked one',
      status: 'blocked',
      started_at: null,
      dependencies: [{ id: blocker, title: 'Ready one', status: 'stopped' }],
      issues: [
        {
          tracker: forge.name,
          id: `${forge.project}#2`,
          priority: 2,
          how: 'auto_intake',
          closing: 'open',
          url: URLS[forge.name](2),
        },
      ],
    });
    const created = (await events(jig, dependent)).find((e) => e.type === 'work_item_created');
    expect([created.by, created.payload]).toEqual([
      'jig',
      {
        title: 'Blocked one',
        repo,
        chain: 'flow',
        branch: expect.any(String),
        source: 'auto_intake',
        status: 'paused',
        after: [blocker],
        issues: [{ tracker: forge.name, id: `${forge.project}#2`, priority: 2 }],
      },
    ]);
    const a = (await http(`${jig.url}/api/work-items/${blocker}`)).json;
    // An item that comes after nothing carries no dependencies at all.
    expect([a.title, a.dependencies, a.dependents]).toEqual([
      'Ready one',
      undefined,
      [{ id: dependent, title: 'Blocked one', status: 'blocked' }],
    ]);

    const again = await post(jig, '/api/intake/poll');
    expect(again.status).toBe(200);
    expect(again.json).toEqual({
      id: expect.any(Number),
      at: expect.any(String),
      ready: 1,
      started: [],
      skipped: [
        { bead: name(1), reason: 'already_item' },
        { bead: name(2), reason: 'already_item' },
        { bead: name(4), reason: 'blocked_by_unfiled' },
      ],
    });
  });
});

describe('GitHub without issue dependencies', () => {
  const issue = (n: number, blockedBy?: number[]): MockGitHub['issues'][number] => ({
    number: n,
    title: `Issue ${n}`,
    body: '',
    state: 'open',
    labels: [{ name: 'jig' }],
    html_url: URLS.github(n),
    ...(blockedBy ? { blockedBy } : {}),
  });

  it('an issue whose blockers cannot be read waits for the next poll; a GitHub without dependencies (404) files every issue as ready', async () => {
    const gh = await startMockGitHub(TOKEN);
    closers.push(() => gh.close());
    gh.issues.push(issue(1), issue(2, [1]));
    gh.dependencies = 'broken';
    const { jig } = await serve('github', 'acme/app', gh.url);
    expect(await firstCheck(jig)).toEqual({
      id: expect.any(Number),
      at: expect.any(String),
      ready: 0,
      started: [],
      skipped: [],
    });
    await eventually(
      () =>
        (jig.stdout() + jig.stderr()).includes(
          'acme/app#2 left for the next poll: what blocks it could not be read: github acme/app: list what blocks issue #2:',
        ),
      { what: 'the skip in the log' },
    );
    expect(jig.stdout() + jig.stderr()).not.toContain(TOKEN);

    gh.dependencies = 'off';
    const r = await post(jig, '/api/intake/poll');
    expect(r.json).toMatchObject({
      ready: 2,
      started: [expect.any(String), expect.any(String)],
      skipped: [],
    });
    for (const id of r.json.started) {
      const created = (await events(jig, id)).find((e) => e.type === 'work_item_created');
      expect(created.payload.after).toBeUndefined();
    }
  });
});

describe('the forges answer blockers by id', () => {
  it('GitHub: open blockers only, another repository by its own path, this one as the location spells it', async () => {
    const gh = await startMockGitHub(TOKEN);
    closers.push(() => gh.close());
    gh.issues.push(
      {
        number: 1,
        title: 'I1',
        body: '',
        state: 'open',
        labels: [],
        html_url: URLS.github(1),
        blockedBy: [
          2,
          3,
          { project: 'other/lib', number: 9, state: 'open' },
          { project: 'other/lib', number: 10, state: 'closed' },
          { project: 'ACME/App', number: 4, state: 'open' },
        ],
      },
      { number: 2, title: 'I2', body: '', state: 'open', labels: [], html_url: URLS.github(2) },
      { number: 3, title: 'I3', body: '', state: 'closed', labels: [], html_url: URLS.github(3) },
    );
    gh.maxPerPage = 2;
    const client = forgeIssues({ forge: 'github', project: 'acme/app', api_url: gh.url }, TOKEN, 5000);
    expect(await client.blockedBy(1)).toEqual(['acme/app#2', 'other/lib#9', 'acme/app#4']);
    expect(await client.blockedBy(2)).toEqual([]);
    // Every page of the list was read.
    expect(
      gh.requests.filter((r) => r.path === '/repos/acme/app/issues/1/dependencies/blocked_by').length,
    ).toBe(3);
  });

  it('GitLab: only is_blocked_by links to opened issues, the project from the full reference', async () => {
    const gl = await startMockGitLab(TOKEN);
    closers.push(() => gl.close());
    const gi = (iid: number, extra: Partial<(typeof gl.issues)[number]> = {}) => ({
      iid,
      title: `G${iid}`,
      description: '',
      state: 'opened' as const,
      labels: [],
      ...extra,
    });
    gl.issues.push(
      gi(1, { blockedBy: [2, 3, { project: 'group/sub/lib', iid: 7, state: 'opened' }], relatesTo: [4] }),
      gi(2),
      gi(3, { state: 'closed' }),
      gi(4),
    );
    const client = forgeIssues(
      { forge: 'gitlab', project: 'group/app', api_url: `${gl.url}/api/v4` },
      TOKEN,
      5000,
    );
    expect(await client.blockedBy(1)).toEqual(['group/app#2', 'group/sub/lib#7']);
    // #2 blocks #1 and sees the link as `blocks`: nothing blocks #2.
    expect(await client.blockedBy(2)).toEqual([]);
    expect(await client.blockedBy(4)).toEqual([]);
  });

  it('Gitea: open dependencies only, another repository by its full name; dependencies off answer none', async () => {
    const gt = await startMockGitea(TOKEN);
    closers.push(() => gt.close());
    gt.issues.push(
      {
        number: 1,
        title: 'T1',
        body: '',
        state: 'open',
        labels: [],
        blockedBy: [2, 3, { project: 'other/lib', number: 9, state: 'open' }],
      },
      { number: 2, title: 'T2', body: '', state: 'open', labels: [] },
      { number: 3, title: 'T3', body: '', state: 'closed', labels: [] },
    );
    const client = forgeIssues(
      { forge: 'gitea', project: 'acme/app', api_url: `${gt.url}/api/v1` },
      TOKEN,
      5000,
    );
    expect(await client.blockedBy(1)).toEqual(['acme/app#2', 'other/lib#9']);
    gt.dependencies = 'off';
    expect(await client.blockedBy(1)).toEqual([]);
  });
});
