import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitHubClient } from '../src/runtime/forge/github.js';
import { ForgeError } from '../src/runtime/forge/types.js';
import { mergeShaOf, startMockGitHub, type MockGitHub } from './helpers/mock-github.js';

/*
 * The GitHub forge client against a recording mock of GitHub's API on loopback: a draft pull
 * request through its life (ready, labels, merge, reopen), CI from check runs and statuses with
 * the end of a failing run's log, the review decision, every comment past the first 100, a refused
 * token, a server that does not answer in time.
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
      merge_sha: null,
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
    const merged = await client.merge(mr, 'squash');
    expect(merged).toEqual({
      ...mr,
      state: 'merged',
      draft: false,
      title: 'Fix it well',
      labels: ['jig', 'ready'],
      merge_sha: mergeShaOf(1),
    });
    expect(gh.pulls[0]?.merge_method).toBe('squash');
    // Post-merge CI is read on the merge commit, like any other commit.
    gh.statuses[mergeShaOf(1)] = [
      { context: 'deploy', state: 'success', target_url: null, description: 'ok' },
    ];
    expect(await client.ci(mergeShaOf(1))).toEqual({
      state: 'passing',
      checks: [{ name: 'deploy', state: 'passing', url: null, summary: 'ok', log: null }],
    });
  });

  it('an open pull request has no merge sha, though GitHub gives its trial merge one', async () => {
    const mr = await client.openDraft({ head: 'jig/trial', base: 'main', title: 'Trial', body: '' });
    gh.pulls.find((p) => p.number === mr.number)!.merge_commit_sha = 'trial-merge';
    expect((await client.get(mr.number)).merge_sha).toBeNull();
  });

  it('reopens a pull request closed without merging', async () => {
    const mr = await client.openDraft({ head: 'jig/closed', base: 'main', title: 'Closed', body: '' });
    gh.pulls.find((p) => p.number === mr.number)!.state = 'closed';
    expect((await client.get(mr.number)).state).toBe('closed');
    expect((await client.reopen(mr)).state).toBe('open');
  });

  it('reads CI from check runs and the newest status of each context', async () => {
    const log = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join('\n');
    gh.checkRuns.abc = [
      {
        name: 'build',
        status: 'completed',
        conclusion: 'success',
        details_url: 'u1',
        output: { summary: null },
      },
      { name: 'test', status: 'in_progress', conclusion: null, html_url: 'u2', output: { title: 'running' } },
      {
        name: 'unit',
        status: 'completed',
        conclusion: 'failure',
        details_url: 'u5',
        output: { title: 'unit', summary: '1 failed', text: `${log}\nFAILED test_x\n` },
      },
      {
        name: 'docs',
        status: 'completed',
        conclusion: 'success',
        details_url: 'u6',
        output: { summary: 'built', text: 'all good' },
      },
    ];
    gh.statuses.abc = [
      { context: 'lint', state: 'failure', target_url: 'u3', description: 'eslint: 3 errors' },
      { context: 'lint', state: 'pending', target_url: 'u4', description: 'older' },
    ];
    expect(await client.ci('abc')).toEqual({
      state: 'failing',
      checks: [
        { name: 'build', state: 'passing', url: 'u1', summary: null, log: null },
        { name: 'test', state: 'pending', url: 'u2', summary: 'running', log: null },
        {
          name: 'unit',
          state: 'failing',
          url: 'u5',
          summary: '1 failed',
          // The last 40 lines: lines 22 to 60, then the failure.
          log: [...Array.from({ length: 39 }, (_, i) => `line ${i + 22}`), 'FAILED test_x'].join('\n'),
        },
        { name: 'docs', state: 'passing', url: 'u6', summary: 'built', log: null },
        { name: 'lint', state: 'failing', url: 'u3', summary: 'eslint: 3 errors', log: null },
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

  it("reads approval from GitHub's review decision, and who stands where from every review page", async () => {
    const mr = await client.openDraft({ head: 'jig/review', base: 'main', title: 'Review', body: '' });
    const pull = gh.pulls.find((p) => p.number === mr.number)!;
    const review = (id: number, login: string, state: string, body = '') => ({
      id,
      user: { login },
      state,
      body,
      submitted_at: `2026-11-24T12:00:${String(id % 60).padStart(2, '0')}Z`,
    });
    expect(await client.approval(mr)).toEqual({
      state: 'approved',
      approved_by: [],
      changes_requested: [],
      detail: 'no review required',
    });
    pull.reviewDecision = 'REVIEW_REQUIRED';
    const before = gh.requests.length;
    gh.reviews[mr.number] = [
      ...Array.from({ length: 120 }, (_, i) => review(i, 'dave', 'COMMENTED', 'a note')),
      review(200, 'alice', 'APPROVED'),
      review(201, 'bob', 'APPROVED'),
      review(202, 'bob', 'DISMISSED'),
      review(203, 'alice', 'COMMENTED', 'one more thing'),
    ];
    expect(await client.approval(mr)).toEqual({
      state: 'pending',
      approved_by: ['alice'],
      changes_requested: [],
      detail: 'review required (approved so far by alice)',
    });
    const pages = gh.requests
      .slice(before)
      .filter((r) => r.path === `/repos/acme/app/pulls/${mr.number}/reviews`);
    expect(pages.map((r) => r.query.page ?? '1')).toEqual(['1', '2']);
    pull.reviewDecision = 'CHANGES_REQUESTED';
    gh.reviews[mr.number]!.push(review(204, 'carol', 'CHANGES_REQUESTED', 'Rename it.'));
    expect(await client.approval(mr)).toEqual({
      state: 'changes_requested',
      approved_by: ['alice'],
      changes_requested: [{ author: 'carol', body: 'Rename it.' }],
      detail: 'changes requested by carol',
    });
    pull.reviewDecision = 'APPROVED';
    gh.reviews[mr.number]!.push(review(205, 'carol', 'APPROVED'));
    expect(await client.approval(mr)).toEqual({
      state: 'approved',
      approved_by: ['alice', 'carol'],
      changes_requested: [],
      detail: 'approved by alice, carol',
    });
    await expect(client.approval({ ...mr, number: 99 })).rejects.toMatchObject({
      kind: 'not_found',
      message: 'github acme/app: read the review decision of #99: not found',
    });
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
