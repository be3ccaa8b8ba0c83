import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, fileItem, until } from './helpers/engine.js';
import { git, gitEnv, makeRepo } from './helpers/git.js';
import { harnessesYaml } from './helpers/agents.js';
import { startMockGitea } from './helpers/mock-gitea.js';
import { startMockGitHub, type MockGitHub } from './helpers/mock-github.js';
import { startMockGitLab } from './helpers/mock-gitlab.js';
import { cleanupAll, http, startJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * Forge tasks in a chain, on the real server: a task commits, `mr.open_draft` pushes the branch to
 * a local bare origin and opens a draft on a recording mock of GitHub, a finalizing gate is
 * approved, and `mr.mark_ready` takes it out of draft. The item records its merge request; a
 * refused token is an `infra` stop; the token is in no log line, event or answer.
 */
const TOKEN = 'ghp_chain_secret_value';
const CHAIN = `
nodes:
  - id: change
    kind: exec
    tasks:
      - id: edit
        kind: subprocess
        run: "printf 'x\\\\n' > x.txt && git add x.txt && git commit -q -m 'add x'"
  - id: describe
    kind: exec
    tasks:
      - id: author
        kind: agent
        harness: claude
        produces: mr_meta
        prompt: Describe the merge request.
  - id: open
    kind: exec
    tasks:
      - id: open
        kind: forge
        target: mr.open_draft
  - id: final
    kind: gate
    artifact: mr_meta
    chain_finalized: true
  - id: ready
    kind: exec
    tasks:
      - id: ready
        kind: forge
        target: mr.mark_ready
`;

let gh: MockGitHub;
let jig: JigProcess;
let repo: string;
let origin: string;

async function serve(token: string, forge = { kind: 'github', project: 'acme/app', url: '' }): Promise<void> {
  const home = tempHome();
  mkdirSync(join(home, 'config', 'chains'), { recursive: true });
  writeFileSync(join(home, 'config', 'chains', 'forgy.yaml'), CHAIN);
  writeFileSync(
    join(home, 'config', 'repos.yaml'),
    `repos:\n  - path: ${repo}\n    test_command: ''\n    setup_command: ''\n    forge: ${forge.kind}\n    project: ${forge.project}\n    forge_url: ${forge.url || gh.url}\n    env:\n      FAKE_AGENT_MODE: done\n      FAKE_AGENT_ARTIFACT: "# add x\\n\\nBecause it was missing.\\n"\n`,
  );
  writeFileSync(join(home, 'config', 'harnesses.yaml'), harnessesYaml());
  jig = await startJig({ home, env: { ...gitEnv, JIG_FORGE_TOKEN: token } });
}

beforeAll(async () => {
  gh = await startMockGitHub(TOKEN);
  repo = makeRepo();
  origin = join(tempHome('jig-origin-'), 'origin.git');
  git(repo, 'init', '-q', '--bare', origin);
  git(repo, 'remote', 'add', 'origin', origin);
  git(repo, 'push', '-q', 'origin', 'main');
});
afterAll(async () => {
  await gh.close();
  await cleanupAll();
});

describe('forge tasks in a chain', () => {
  it('push, open a draft, pass the finalizing gate, mark it ready; the item records its merge request', async () => {
    await serve(TOKEN);
    const item = await fileItem(jig, repo, 'forgy');
    const atGate = await until(jig, item.id, (i) => i.status !== 'running' && i.status !== 'queued');
    expect(atGate.status, JSON.stringify(atGate)).toBe('stopped');
    expect(atGate.stop.kind).toBe('gate');
    expect(git(origin, 'log', '-1', '--format=%s', `refs/heads/${atGate.branch}`)).toBe('add x');
    expect(gh.pulls).toHaveLength(1);
    expect(gh.pulls[0]).toMatchObject({ body: 'Because it was missing.' });
    expect(gh.pulls[0]).toMatchObject({
      title: 'add x',
      draft: true,
      head: { ref: atGate.branch },
      base: { ref: 'main' },
    });
    const approved = await http(`${jig.url}/api/work-items/${item.id}/gates/final/approve`, {
      method: 'POST',
      body: {},
    });
    expect(approved.status, approved.text).toBe(200);
    const done = await until(jig, item.id, (i) => i.status === 'completed' || i.status === 'stopped');
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    expect(gh.pulls[0]?.draft).toBe(false);

    const mrs = await http(`${jig.url}/api/work-items/${item.id}/merge-requests`);
    expect(mrs.status).toBe(200);
    expect(mrs.json).toEqual({
      merge_requests: [
        {
          repo,
          number: 1,
          url: 'https://github.example/acme/app/pull/1',
          state: 'open',
          draft: false,
          head: atGate.branch,
          base: 'main',
          sha: `sha-${atGate.branch}`,
          merge_sha: null,
          title: 'add x',
          labels: [],
          updated_at: expect.any(String),
        },
      ],
    });
    const evs = await events(jig, item.id);
    expect(evs.filter((e) => e.type.startsWith('mr_')).map((e) => [e.type, e.payload])).toEqual([
      [
        'mr_opened',
        {
          repo,
          number: 1,
          url: 'https://github.example/acme/app/pull/1',
          state: 'open',
          draft: true,
          task: 'open.main.open',
        },
      ],
      [
        'mr_updated',
        {
          repo,
          number: 1,
          url: 'https://github.example/acme/app/pull/1',
          state: 'open',
          draft: false,
          task: 'ready.main.ready',
        },
      ],
    ]);
    const labelled = await http(`${jig.url}/api/work-items/${item.id}/mr-labels`, {
      method: 'POST',
      body: { labels: ['jig', 'ready', 'jig'] },
      headers: { 'x-jig-work-item': item.id },
    });
    expect(labelled.status, labelled.text).toBe(200);
    expect(labelled.json.merge_request).toMatchObject({ number: 1, labels: ['jig', 'ready'] });
    expect(gh.pulls[0]?.labels).toEqual([{ name: 'jig' }, { name: 'ready' }]);
    const labelEvent = (await events(jig, item.id)).find((e) => e.type === 'mr_labels_set');
    expect([labelEvent.by, labelEvent.payload]).toEqual([
      'agent',
      { repo, number: 1, labels: ['jig', 'ready'] },
    ]);
    const bad = await http(`${jig.url}/api/work-items/${item.id}/mr-labels`, {
      method: 'POST',
      body: { labels: [''] },
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(evs)).not.toContain(TOKEN);
    expect(jig.stdout() + jig.stderr()).not.toContain(TOKEN);
    expect(gh.requests.every((r) => r.authorization === `token ${TOKEN}`)).toBe(true);
    await jig.stop();
  });

  it('a token the forge refuses is an infra stop that says where the token came from', async () => {
    await serve('ghp_refused');
    const item = await fileItem(jig, repo, 'forgy');
    const stopped = await until(jig, item.id, (i) => i.status !== 'running' && i.status !== 'queued');
    expect(stopped.status).toBe('stopped');
    expect(stopped.stop).toMatchObject({
      kind: 'infra',
      reason:
        'open.main.open: github acme/app: list pull requests: the token was refused (401) (the token came from JIG_FORGE_TOKEN)',
    });
    expect(jig.stdout() + jig.stderr()).not.toContain('ghp_refused');
    const none = await http(`${jig.url}/api/work-items/${item.id}/mr-labels`, {
      method: 'POST',
      body: { labels: ['x'] },
    });
    expect(none.status).toBe(409);
    expect(none.json).toEqual({
      code: 'no_merge_request',
      detail: `work item ${item.id} has no merge request yet (a forge task opens it: mr.open_draft)`,
    });
    await jig.stop();
  });
});

describe('the same chain on GitLab and on Gitea', () => {
  const runChain = async (): Promise<any> => {
    const item = await fileItem(jig, repo, 'forgy');
    const atGate = await until(jig, item.id, (i) => i.status !== 'running' && i.status !== 'queued');
    expect(atGate.stop?.kind, JSON.stringify(atGate.stop)).toBe('gate');
    return atGate;
  };
  const finish = async (id: string): Promise<any> => {
    const approved = await http(`${jig.url}/api/work-items/${id}/gates/final/approve`, {
      method: 'POST',
      body: {},
    });
    expect(approved.status, approved.text).toBe(200);
    const done = await until(jig, id, (i) => i.status === 'completed' || i.status === 'stopped');
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    return (await http(`${jig.url}/api/work-items/${id}/merge-requests`)).json.merge_requests;
  };

  it('GitLab: the draft is marked by its title, then made ready', async () => {
    const gl = await startMockGitLab(TOKEN);
    try {
      await serve(TOKEN, { kind: 'gitlab', project: 'group/app', url: `${gl.url}/api/v4` });
      const item = await runChain();
      expect(gl.mrs[0]).toMatchObject({
        title: 'Draft: add x',
        description: 'Because it was missing.',
        source_branch: item.branch,
        target_branch: 'main',
        state: 'opened',
      });
      const mrs = await finish(item.id);
      expect(gl.mrs[0]?.title).toBe('add x');
      expect(mrs).toMatchObject([
        {
          number: 1,
          url: 'https://gitlab.example/group/app/-/merge_requests/1',
          draft: false,
          title: 'add x',
        },
      ]);
      expect(gl.requests.every((r) => r.token === TOKEN)).toBe(true);
    } finally {
      await jig.stop();
      await gl.close();
    }
  });

  it('Gitea: the draft is a WIP title, then made ready', async () => {
    const gt = await startMockGitea(TOKEN);
    try {
      await serve(TOKEN, { kind: 'gitea', project: 'acme/app', url: `${gt.url}/api/v1` });
      const item = await runChain();
      expect(gt.pulls[0]).toMatchObject({
        title: 'WIP: add x',
        body: 'Because it was missing.',
        head: { ref: item.branch },
      });
      const mrs = await finish(item.id);
      expect(gt.pulls[0]?.title).toBe('add x');
      expect(mrs).toMatchObject([
        { number: 1, url: 'https://gitea.example/acme/app/pulls/1', draft: false, title: 'add x' },
      ]);
    } finally {
      await jig.stop();
      await gt.close();
    }
  });
});
