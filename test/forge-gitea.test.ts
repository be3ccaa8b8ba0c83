import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GiteaClient } from '../src/runtime/forge/gitea.js';
import { ForgeError } from '../src/runtime/forge/types.js';
import { mergeShaOf, startMockGitea, type MockGitea } from './helpers/mock-gitea.js';

/*
 * The Gitea/Forgejo forge client against a recording mock of the v1 API on loopback: a draft pull
 * request through its life (labels made on the way), CI from commit statuses, approvals from
 * reviews against branch protection, every comment and review past the first pages, a refused token.
 */
const TOKEN = 'gitea-secret-for-tests';
let gt: MockGitea;
let client: GiteaClient;

beforeAll(async () => {
  gt = await startMockGitea(TOKEN);
  client = new GiteaClient(
    { forge: 'gitea', project: 'acme/app', api_url: `${gt.url}/api/v1` },
    TOKEN,
    5_000,
  );
});
afterAll(() => gt.close());

describe('the Gitea forge client', () => {
  it('opens a draft (WIP:), marks it ready, labels (making a missing label), merges and reopens', async () => {
    expect(await client.findOpen('jig/abc-fix')).toBeNull();
    const mr = await client.openDraft({ head: 'jig/abc-fix', base: 'main', title: 'Fix it', body: 'Why.' });
    expect(mr).toEqual({
      number: 1,
      url: 'https://gitea.example/acme/app/pulls/1',
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
    expect(await client.describe(mr, { title: 'Fix it well', body: 'More.' })).toMatchObject({
      draft: true,
      title: 'Fix it well',
    });
    expect(gt.pulls[0]).toMatchObject({ title: 'WIP: Fix it well', body: 'More.' });
    expect(await client.markReady(mr)).toMatchObject({ draft: false, title: 'Fix it well' });
    expect(await client.setLabels(mr, ['jig', 'ready'])).toEqual(['jig', 'ready']);
    expect(gt.labels.map((l) => l.name)).toEqual(['jig', 'ready']);
    expect(await client.merge(mr, 'rebase')).toEqual({
      ...mr,
      state: 'merged',
      draft: false,
      title: 'Fix it well',
      labels: ['jig', 'ready'],
      merge_sha: mergeShaOf(1),
    });
    expect(gt.pulls[0]?.merge_style).toBe('rebase');
    const other = await client.openDraft({ head: 'jig/closed', base: 'main', title: 'Closed', body: '' });
    gt.pulls[1]!.state = 'closed';
    expect((await client.reopen(other)).state).toBe('open');
  });

  it('reads CI from the newest status of each context; a status carries no log', async () => {
    gt.statuses.abc = [
      { id: 1, context: 'ci/test', status: 'pending' },
      { id: 3, context: 'ci/test', status: 'failure', target_url: 'u', description: '2 failed' },
      { id: 2, context: 'ci/lint', status: 'success' },
    ];
    expect(await client.ci('abc')).toEqual({
      state: 'failing',
      checks: [
        { name: 'ci/test', state: 'failing', url: 'u', summary: '2 failed', log: null },
        { name: 'ci/lint', state: 'passing', url: null, summary: null, log: null },
      ],
    });
    gt.statuses[mergeShaOf(1)] = [{ id: 4, context: 'deploy', status: 'success' }];
    expect(await client.ci(mergeShaOf(1))).toEqual({
      state: 'passing',
      checks: [{ name: 'deploy', state: 'passing', url: null, summary: null, log: null }],
    });
  });

  it('reads every comment, review and review comment past the first page', async () => {
    gt.comments[1] = Array.from({ length: 120 }, (_, i) => ({
      id: i,
      body: `c${i}`,
      user: { login: 'alice' },
      created_at: `2026-11-24T10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`,
    }));
    gt.reviewsOf[1] = [
      {
        id: 4,
        body: 'Needs work.',
        user: { login: 'bob' },
        state: 'REQUEST_CHANGES',
        submitted_at: '2026-11-24T11:00:00Z',
        comments: [
          {
            id: 8,
            body: 'here',
            user: { login: 'bob' },
            path: 'a.go',
            position: 3,
            created_at: '2026-11-24T11:00:01Z',
          },
        ],
      },
    ];
    const all = await client.comments(await client.get(1));
    expect(all).toHaveLength(122);
    expect(all.slice(-2)).toEqual([
      {
        id: 'review-4',
        author: 'bob',
        body: 'Needs work.',
        kind: 'changes_requested',
        path: null,
        line: null,
        created_at: '2026-11-24T11:00:00Z',
      },
      {
        id: 'line-8',
        author: 'bob',
        body: 'here',
        kind: 'comment',
        path: 'a.go',
        line: 3,
        created_at: '2026-11-24T11:00:01Z',
      },
    ]);
    expect(gt.requests.filter((r) => r.path.endsWith('/issues/1/comments')).map((r) => r.query.page)).toEqual(
      ['1', '2', '3'],
    );
  });

  it("reads approval from each reviewer's latest verdict against the base branch's protection", async () => {
    const mr = await client.get(2);
    const review = (id: number, login: string, state: string, extra: Record<string, unknown> = {}) => ({
      id,
      user: { login },
      state,
      body: state === 'REQUEST_CHANGES' ? 'Rename it.' : '',
      submitted_at: `2026-11-24T12:00:${String(id % 60).padStart(2, '0')}Z`,
      comments: [],
      ...extra,
    });
    expect(await client.approval(mr)).toEqual({
      state: 'approved',
      approved_by: [],
      changes_requested: [],
      detail: 'no approval required',
    });
    gt.branchProtections.main = { required_approvals: 2 };
    gt.reviewsOf[2] = [
      ...Array.from({ length: 60 }, (_, i) => review(i, 'dave', 'COMMENT')),
      review(100, 'alice', 'APPROVED'),
      review(101, 'erin', 'APPROVED', { dismissed: true }),
    ];
    expect(await client.approval(mr)).toEqual({
      state: 'pending',
      approved_by: ['alice'],
      changes_requested: [],
      detail: '1 of 2 required approvals (alice)',
    });
    gt.reviewsOf[2].push(review(102, 'carol', 'REQUEST_CHANGES'));
    expect(await client.approval(mr)).toEqual({
      state: 'changes_requested',
      approved_by: ['alice'],
      changes_requested: [{ author: 'carol', body: 'Rename it.' }],
      detail: 'changes requested by carol',
    });
    gt.reviewsOf[2].push(review(103, 'carol', 'APPROVED'));
    expect(await client.approval(mr)).toEqual({
      state: 'approved',
      approved_by: ['alice', 'carol'],
      changes_requested: [],
      detail: '2 of 2 required approvals (alice, carol)',
    });
    gt.protectionsForbidden = true;
    try {
      expect(await client.approval(mr)).toEqual({
        state: 'approved',
        approved_by: ['alice', 'carol'],
        changes_requested: [],
        detail:
          'approved by alice, carol (the required count is unknown: reading branch protection needs a repository admin token)',
      });
    } finally {
      gt.protectionsForbidden = false;
    }
  });

  it('a refused token is an auth error that names no token', async () => {
    const bad = new GiteaClient(
      { forge: 'gitea', project: 'acme/app', api_url: `${gt.url}/api/v1` },
      'nope',
      5_000,
    );
    const err = await bad.get(1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForgeError);
    expect(err).toMatchObject({
      kind: 'auth',
      status: 401,
      message: 'gitea acme/app: read pull request #1: the token was refused (401)',
    });
    await expect(client.get(77)).rejects.toMatchObject({ kind: 'not_found' });
    const away = new GiteaClient(
      { forge: 'gitea', project: 'acme/app', api_url: 'http://127.0.0.1:9/api/v1' },
      TOKEN,
      5_000,
    );
    await expect(away.get(1)).rejects.toMatchObject({ kind: 'unreachable' });
  });
});
