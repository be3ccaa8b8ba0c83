import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { harnessesYaml } from './helpers/agents.js';
import { events, until } from './helpers/engine.js';
import { git, gitEnv, makeRepo } from './helpers/git.js';
import { startMockGitHub, type MockGitHub } from './helpers/mock-github.js';
import { usePostgres } from './helpers/postgres.js';
import { cleanupAll, http, startJig, tempHome } from './helpers/server.js';

/*
 * A merge request opened by a worker whose checkout is elsewhere (`--repo-map`), on PostgreSQL: it
 * is recorded under the server's path of the repo, so the server's API lists it; the wait on its
 * CI is polled by the leading serve (which walks nothing), and the worker finishes the item.
 */

const pg = usePostgres();
const TOKEN = 'ghp_scale_out_secret';
let gh: MockGitHub | null = null;

afterAll(async () => {
  await cleanupAll();
  await gh?.close();
});

const CHAIN = `
nodes:
  - id: change
    kind: exec
    tasks:
      - id: edit
        kind: subprocess
        run: "printf 'x\\\\n' > x.txt && git add x.txt && git commit -q -m 'add x'"
  - id: open
    kind: exec
    tasks:
      - id: open
        kind: forge
        target: mr.open_draft
  - id: ci
    kind: exec
    tasks:
      - id: await
        kind: forge
        target: mr.ci
        wait: {polling: {initial_interval: 1s, max_interval: 2s}}
`;

const reposYaml = (path: string, forgeUrl: string): string =>
  `repos:\n  - path: ${path}\n    test_command: ''\n    setup_command: ''\n    forge: github\n    project: acme/app\n    forge_url: ${forgeUrl}\n`;

describe('a worker with --repo-map opening a merge request', () => {
  it('records it under the server path; the leader polls its CI; the worker completes the item', async (ctx) => {
    const server = pg.server();
    if (!server) return ctx.skip(pg.skip());
    const url = await server.createDatabase(`jig_forge_${process.pid}`);
    gh = await startMockGitHub(TOKEN);
    const repo = makeRepo();
    const origin = join(tempHome('jig-origin-'), 'origin.git');
    git(repo, 'init', '-q', '--bare', origin);
    git(repo, 'remote', 'add', 'origin', origin);
    git(repo, 'push', '-q', 'origin', 'main');
    const tip = (branch: string): string => git(origin, 'rev-parse', `refs/heads/${branch}`);
    gh.shaOf = tip;
    // The worker's machine has its own clone of the same origin, somewhere else.
    const clone = join(tempHome('jig-clone-'), 'app');
    git(tempHome(), 'clone', '-q', '-b', 'main', origin, clone);

    const env = { ...gitEnv, JIG_DATABASE_URL: url, JIG_FORGE_TOKEN: TOKEN };
    const home = tempHome();
    mkdirSync(join(home, 'config', 'chains'), { recursive: true });
    writeFileSync(join(home, 'config', 'chains', 'pr.yaml'), CHAIN);
    writeFileSync(join(home, 'config', 'repos.yaml'), reposYaml(repo, gh.url));
    const jig = await startJig({ home, env, args: ['--port', '0', '--no-work'] });
    const whome = tempHome();
    mkdirSync(join(whome, 'config'), { recursive: true });
    writeFileSync(join(whome, 'config', 'repos.yaml'), reposYaml(clone, gh.url));
    await startJig({
      home: whome,
      env,
      args: ['--worker', '--name', 'w1', '--repo-map', `${repo}=${clone}`],
    });

    const filed = await http(`${jig.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'Add x', repo, chain: 'pr', start: true },
    });
    expect(filed.status, filed.text).toBe(201);
    const id = filed.json.id as string;
    const waiting = await until(jig, id, (i) => i.status === 'waiting' || i.status === 'stopped');
    expect(waiting.status, JSON.stringify(waiting.stop)).toBe('waiting');

    // Opened by w1 from its clone, listed by the server under its own path.
    const mrs = await http(`${jig.url}/api/work-items/${id}/merge-requests`);
    expect(mrs.status, mrs.text).toBe(200);
    expect(mrs.json.merge_requests).toEqual([
      expect.objectContaining({
        repo,
        number: 1,
        url: 'https://github.example/acme/app/pull/1',
        draft: true,
      }),
    ]);
    const evs = await events(jig, id);
    expect(evs.find((e: any) => e.type === 'mr_opened')?.payload).toMatchObject({ repo, number: 1 });
    expect(evs.find((e: any) => e.type === 'external_wait_started')?.payload).toMatchObject({
      repo,
      target: 'mr.ci',
    });

    // CI passes on the pushed tip: the leading serve sees it, and w1 walks on to the end.
    gh.checkRuns[tip(waiting.branch)] = [
      {
        name: 'unit',
        status: 'completed',
        conclusion: 'success',
        details_url: 'https://ci.example/unit',
        html_url: null,
        output: { title: 'unit', summary: 'unit success', text: '' },
      },
    ];
    const done = await until(jig, id, (i) => i.status === 'completed' || i.status === 'stopped', 600);
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    const all = await events(jig, id);
    expect(
      all.filter((e: any) => e.type === 'external_wait_ended').map((e: any) => e.payload.outcome),
    ).toEqual(['passed']);
    const sessions = await http(`${jig.url}/api/work-items/${id}/sessions`);
    expect(
      (sessions.json.sessions as { task_path: string; worker: string }[]).map((s) => [s.task_path, s.worker]),
    ).toEqual([
      ['change.main.edit', 'w1'],
      ['open.main.open', 'w1'],
      ['ci.main.await', 'w1'],
    ]);
  });
});

describe('an attachment filed on the serve, walked by a worker in another home', () => {
  it('the worker reads the attached spec from the store and puts it in its worktree', async (ctx) => {
    const server = pg.server();
    if (!server) return ctx.skip(pg.skip());
    const url = await server.createDatabase(`jig_attach_${process.pid}`);
    const repo = makeRepo();
    const env = { ...gitEnv, JIG_DATABASE_URL: url };
    const home = tempHome();
    mkdirSync(join(home, 'config', 'chains'), { recursive: true });
    writeFileSync(
      join(home, 'config', 'chains', 'specced.yaml'),
      `nodes:
  - id: spec
    kind: exec
    tasks:
      - id: author
        kind: agent
        harness: claude
        produces: spec
        prompt: Write the spec.
  - id: use
    kind: exec
    tasks:
      - id: copy
        kind: subprocess
        run: "cp .jig/docs/spec.md used.txt"
`,
    );
    writeFileSync(join(home, 'config', 'harnesses.yaml'), harnessesYaml());
    writeFileSync(
      join(home, 'config', 'repos.yaml'),
      `repos:\n  - path: ${repo}\n    test_command: ''\n    setup_command: ''\n`,
    );
    const jig = await startJig({ home, env, args: ['--port', '0', '--no-work'] });
    const whome = tempHome();
    mkdirSync(join(whome, 'config'), { recursive: true });
    writeFileSync(
      join(whome, 'config', 'repos.yaml'),
      `repos:\n  - path: ${repo}\n    test_command: ''\n    setup_command: ''\n`,
    );
    writeFileSync(join(whome, 'config', 'harnesses.yaml'), harnessesYaml());
    await startJig({ home: whome, env, args: ['--worker', '--name', 'w1'] });

    const spec = '# The spec\n\nFiled on the serve, read on the worker.\n';
    const filed = await http(`${jig.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'Specced', repo, chain: 'specced', start: true, attachments: { spec: { text: spec } } },
    });
    expect(filed.status, filed.text).toBe(201);
    const id = filed.json.id as string;
    // Not in the worker's own attachments folder: only the store has it there.
    expect(existsSync(join(whome, 'run', 'attachments', id))).toBe(false);
    const done = await until(jig, id, (i) => i.status === 'completed' || i.status === 'stopped', 600);
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    // The copy is in the worker's worktree: its diff, asked of the serve, is answered by w1.
    const diff = await http(`${jig.url}/api/work-items/${id}/diff`);
    expect(diff.status, diff.text).toBe(200);
    expect(diff.headers.get('x-jig-answered-by')).toBe('w1');
    expect(JSON.stringify(diff.json)).toContain('used.txt');
    expect(JSON.stringify(diff.json)).toContain('Filed on the serve, read on the worker.');
    const skipped = (await events(jig, id)).find((e: any) => e.type === 'node_skipped');
    expect(skipped?.payload).toEqual({ node: 'spec', note: 'the spec was attached when filed' });
  });
});
