import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitHubClient } from '../src/runtime/forge/github.js';
import { ForgeError } from '../src/runtime/forge/types.js';
import { startMockGitHub, type MockGitHub } from './helpers/mock-github.js';

/*
 * The GitHub forge client against a recording mock of GitHub's API on loopback: a draft pull
 * request through its life (ready, labels, merge, reopen), CI from check runs and statuses, every
 * comment past the first 100, a refused token, a server that does not answer in time.
 */
const TOKEN = 'ghp_secret_for_tests_only';
let gh: MockGitHub;
let client: GitHubClient;

beforeAll(async () => {
  gh = await startMockGitHub(TOKEN);
  client = new GitHubClient({ forge: 'github', project: 'acme/app', api_url: gh.url }, TOKEN, 5_000);
});
afterAll(() => gh.close());

describe('the GitHub forge client', () => {
  it('opens a draft, finds it again, marks it ready, labels and merges it', async () => {
    expect(await client.findOpen('jig/abc-fix')).toBeNull();
    const mr = await client.openDraft({ head: 'jig/abc-fix', base: 'main', title: 'Fix it', body: 'Why.' });
    expect(mr).toEqual({
      number: 1,
      url: 'https://github.example/acme/app/pull/1',
      state: 'open',
      draft: true,
      head: 'jig/abc-fix',
      base: 'main',
      sha: 'sha-jig/abc-fix',
      title: 'Fix it',
      labels: [],
    });
    expect(await client.findOpen('jig/abc-fix')).toEqual(mr);
    expect(gh.requests.at(-1)?.query).toMatchObject({ head: 'acme:jig/abc-fix', state: 'open' });
    expect(await client.describe(mr, { title: 'Fix it well', body: 'More.' })).toMatchObject({
      draft: true,
      title: 'Fix it well',
    });
    expect(gh.pulls[0]).toMatchObject({ title: 'Fix it well', body: 'More.' });
    expect(await client.markReady(mr)).toMatchObject({ draft: false, state: 'open' });
    expect(gh.requests.some((r) => r.path === '/graphql')).toBe(true);
    expect(await client.setLabels(mr, ['jig', 'ready'])).toEqual(['jig', 'ready']);
    expect(await client.merge(mr, 'squash')).toMatchObject({ state: 'merged', labels: ['jig', 'ready'] });
    expect(gh.pulls[0]?.merge_method).toBe('squash');
  });

  it('reopens a pull request closed without merging', async () => {
    const mr = await client.openDraft({ head: 'jig/closed', base: 'main', title: 'Closed', body: '' });
    gh.pulls.find((p) => p.number === mr.number)!.state = 'closed';
    expect((await client.get(mr.number)).state).toBe('closed');
    expect((await client.reopen(mr)).state).toBe('open');
  });

  it('reads CI from check runs and the newest status of each context', async () => {
    gh.checkRuns.abc = [
      {
        name: 'build',
        status: 'completed',
        conclusion: 'success',
        details_url: 'u1',
        output: { summary: null },
      },
      { name: 'test', status: 'in_progress', conclusion: null, html_url: 'u2', output: { title: 'running' } },
    ];
    gh.statuses.abc = [
      { context: 'lint', state: 'failure', target_url: 'u3', description: 'eslint: 3 errors' },
      { context: 'lint', state: 'pending', target_url: 'u4', description: 'older' },
    ];
    expect(await client.ci('abc')).toEqual({
      state: 'failing',
      checks: [
        { name: 'build', state: 'passing', url: 'u1', summary: null },
        { name: 'test', state: 'pending', url: 'u2', summary: 'running' },
        { name: 'lint', state: 'failing', url: 'u3', summary: 'eslint: 3 errors' },
      ],
    });
    expect(await client.ci('nothing')).toEqual({ state: 'none', checks: [] });
  });

  it('reads every comment, review and line comment, past the first page of 100', async () => {
    const at = (i: number) =>
      `2026-11-24T10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`;
    gh.issueComments[1] = Array.from({ length: 230 }, (_, i) => ({
      id: i,
      user: { login: 'alice' },
      body: `comment ${i}`,
      created_at: at(i),
    }));
    gh.reviews[1] = [
      {
        id: 7,
        user: { login: 'bob' },
        body: 'Please rename.',
        state: 'CHANGES_REQUESTED',
        submitted_at: at(300),
      },
    ];
    gh.reviewComments[1] = [
      { id: 9, user: { login: 'bob' }, body: 'here', path: 'src/a.ts', line: 12, created_at: at(301) },
    ];
    const all = await client.comments(await client.get(1));
    expect(all).toHaveLength(232);
    expect(all[229]).toEqual({
      id: 'comment-229',
      author: 'alice',
      body: 'comment 229',
      kind: 'comment',
      path: null,
      line: null,
      created_at: at(229),
    });
    expect(all.slice(-2)).toEqual([
      {
        id: 'review-7',
        author: 'bob',
        body: 'Please rename.',
        kind: 'changes_requested',
        path: null,
        line: null,
        created_at: at(300),
      },
      {
        id: 'line-9',
        author: 'bob',
        body: 'here',
        kind: 'comment',
        path: 'src/a.ts',
        line: 12,
        created_at: at(301),
      },
    ]);
    const pages = gh.requests.filter((r) => r.path === '/repos/acme/app/issues/1/comments');
    expect(pages.map((r) => r.query.page ?? '1')).toEqual(['1', '2', '3']);
  });

  it('a refused token is an auth error that names no token', async () => {
    const bad = new GitHubClient({ forge: 'github', project: 'acme/app', api_url: gh.url }, 'wrong', 5_000);
    const err = await bad.get(1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForgeError);
    expect(err).toMatchObject({
      kind: 'auth',
      status: 401,
      message: 'github acme/app: read pull request #1: the token was refused (401)',
    });
    expect(
      gh.requests.every((r) => r.authorization === `token ${TOKEN}` || r.authorization === 'token wrong'),
    ).toBe(true);
    expect(JSON.stringify(err)).not.toContain(TOKEN);
  });

  it('a missing pull request, a refusal and an unreachable forge are told apart', async () => {
    await expect(client.get(99)).rejects.toMatchObject({ kind: 'not_found', status: 404 });
    gh.failWith = 422;
    await expect(client.get(1)).rejects.toMatchObject({ kind: 'refused', status: 422 });
    gh.failWith = null;
    const away = new GitHubClient(
      { forge: 'github', project: 'acme/app', api_url: 'http://127.0.0.1:9' },
      TOKEN,
      5_000,
    );
    await expect(away.get(1)).rejects.toMatchObject({ kind: 'unreachable', status: null });
  });

  it('a forge that does not answer in time is a timeout', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const a = silent.address();
    const port = typeof a === 'object' && a ? a.port : 0;
    try {
      const slow = new GitHubClient(
        { forge: 'github', project: 'acme/app', api_url: `http://127.0.0.1:${port}` },
        TOKEN,
        300,
      );
      await expect(slow.get(1)).rejects.toMatchObject({ kind: 'timeout', status: null });
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
