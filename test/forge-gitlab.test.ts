import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitLabClient } from '../src/runtime/forge/gitlab.js';
import { ForgeError } from '../src/runtime/forge/types.js';
import { mergeShaOf, startMockGitLab, type MockGitLab } from './helpers/mock-gitlab.js';

/*
 * The GitLab forge client against a recording mock of GitLab's v4 API on loopback: a draft merge
 * request through its life, CI from the newest pipeline's jobs with the end of failed jobs'
 * traces, approvals, notes past the first 100, a refused token.
 */
const TOKEN = 'glpat-secret-for-tests';
let gl: MockGitLab;
let client: GitLabClient;

beforeAll(async () => {
  gl = await startMockGitLab(TOKEN);
  client = new GitLabClient(
    { forge: 'gitlab', project: 'group/app', api_url: `${gl.url}/api/v4` },
    TOKEN,
    5_000,
  );
});
afterAll(() => gl.close());

describe('the GitLab forge client', () => {
  it('opens a draft (by its title), marks it ready, labels, merges and reopens', async () => {
    expect(await client.findOpen('jig/abc-fix')).toBeNull();
    const mr = await client.openDraft({ head: 'jig/abc-fix', base: 'main', title: 'Fix it', body: 'Why.' });
    expect(mr).toEqual({
      number: 1,
      url: 'https://gitlab.example/group/app/-/merge_requests/1',
      state: 'open',
      draft: true,
      head: 'jig/abc-fix',
      base: 'main',
      sha: 'sha-jig/abc-fix',
      merge_sha: null,
      title: 'Fix it',
      labels: [],
    });
    expect(gl.mrs[0]).toMatchObject({ title: 'Draft: Fix it', description: 'Why.' });
    expect(await client.findOpen('jig/abc-fix')).toEqual(mr);
    expect(await client.describe(mr, { title: 'Fix it well', body: 'Why, again.' })).toMatchObject({
      draft: true,
      title: 'Fix it well',
    });
    expect(gl.mrs[0]).toMatchObject({ title: 'Draft: Fix it well', description: 'Why, again.' });
    expect(await client.markReady(mr)).toMatchObject({ draft: false, title: 'Fix it well' });
    expect(gl.mrs[0]?.title).toBe('Fix it well');
    expect(await client.setLabels(mr, ['jig', 'ready'])).toEqual(['jig', 'ready']);
    expect(await client.merge(mr, 'squash')).toEqual({
      ...mr,
      state: 'merged',
      draft: false,
      title: 'Fix it well',
      labels: ['jig', 'ready'],
      merge_sha: mergeShaOf(1),
    });
    expect(gl.mrs[0]?.squash).toBe(true);
    // A fast-forward squash makes no merge commit: the squash commit is what landed.
    gl.mrs[0]!.merge_commit_sha = null;
    gl.mrs[0]!.squash_commit_sha = 'c'.repeat(40);
    expect((await client.get(1)).merge_sha).toBe('c'.repeat(40));
    gl.mrs[0]!.merge_commit_sha = mergeShaOf(1);
    gl.pipelines.push({
      id: 3,
      sha: mergeShaOf(1),
      jobs: [{ id: 30, name: 'deploy', status: 'success', allow_failure: false }],
    });
    expect(await client.ci(mergeShaOf(1))).toEqual({
      state: 'passing',
      checks: [{ name: 'deploy', state: 'passing', url: null, summary: null, log: null }],
    });

    const other = await client.openDraft({ head: 'jig/closed', base: 'main', title: 'Closed', body: '' });
    gl.mrs[1]!.merge_commit_sha = 'not-merged-yet';
    expect((await client.get(other.number)).merge_sha).toBeNull();
    gl.mrs[1]!.state = 'closed';
    expect((await client.get(other.number)).state).toBe('closed');
    expect((await client.reopen(other)).state).toBe('open');
  });

  it("reads CI from the newest pipeline's jobs, with the end of a failed job's trace", async () => {
    const lines = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`);
    // A trace as GitLab keeps it: colours and the markers that fold sections on the job's page.
    gl.traces[93] = [
      'section_start:1764000000:step_script\r\x1b[0K\x1b[0;m\x1b[32;1mExecuting "step_script"\x1b[0;m',
      ...lines,
      '\x1b[31;1mERROR: Job failed: exit code 1\x1b[0;m',
      'section_end:1764000000:step_script\r\x1b[0K',
      '',
    ].join('\n');
    gl.pipelines.push(
      { id: 5, sha: 'abc', jobs: [{ name: 'old', status: 'failed', allow_failure: false }] },
      {
        id: 9,
        sha: 'abc',
        jobs: [
          { id: 90, name: 'build', status: 'success', allow_failure: false, web_url: 'j1' },
          { id: 91, name: 'lint', status: 'failed', allow_failure: true, web_url: 'j2' },
          { id: 92, name: 'deploy', status: 'manual', allow_failure: false },
          {
            id: 93,
            name: 'test',
            status: 'failed',
            allow_failure: false,
            web_url: 'j3',
            failure_reason: 'script_failure',
          },
        ],
      },
    );
    expect(await client.ci('abc')).toEqual({
      state: 'failing',
      checks: [
        { name: 'build', state: 'passing', url: 'j1', summary: null, log: null },
        { name: 'lint', state: 'passing', url: 'j2', summary: null, log: null },
        {
          name: 'test',
          state: 'failing',
          url: 'j3',
          summary: 'script_failure',
          // The last 40 lines with the markup gone: lines 22 to 60 and the error.
          log: [...lines.slice(21), 'ERROR: Job failed: exit code 1'].join('\n'),
        },
      ],
    });
    expect(gl.requests.filter((r) => r.path.includes('/jobs/')).map((r) => r.path)).toEqual([
      '/api/v4/projects/group%2Fapp/jobs/93/trace',
    ]);
    expect(await client.ci('none')).toEqual({ state: 'none', checks: [] });
  });

  it('reads the traces of at most five failed jobs a read; a trace that is gone is no log', async () => {
    const failed = (id: number) => ({ id, name: `job${id}`, status: 'failed', allow_failure: false });
    gl.pipelines.push({ id: 20, sha: 'many', jobs: [1, 2, 3, 4, 5, 6, 7].map(failed) });
    for (const id of [2, 3, 4, 5, 6, 7]) gl.traces[id] = `trace of ${id}\n`;
    const before = gl.requests.length;
    const report = await client.ci('many');
    expect(report.checks.map((c) => [c.name, c.log])).toEqual([
      ['job1', null],
      ['job2', 'trace of 2'],
      ['job3', 'trace of 3'],
      ['job4', 'trace of 4'],
      ['job5', 'trace of 5'],
      ['job6', null],
      ['job7', null],
    ]);
    expect(gl.requests.slice(before).filter((r) => r.path.endsWith('/trace'))).toHaveLength(5);
  });

  it('reads every note past the first 100, without system notes, line notes with their place', async () => {
    gl.notes[1] = [
      ...Array.from({ length: 150 }, (_, i) => ({
        id: i,
        body: `note ${i}`,
        system: false,
        created_at: `2026-11-24T10:00:${String(i % 60).padStart(2, '0')}Z`,
        author: { username: 'alice' },
      })),
      {
        id: 500,
        body: 'changed the title',
        system: true,
        created_at: '2026-11-24T11:00:00Z',
        author: { username: 'alice' },
      },
      {
        id: 501,
        body: 'rename this',
        system: false,
        created_at: '2026-11-24T11:00:01Z',
        author: { username: 'bob' },
        position: { new_path: 'src/a.ts', new_line: 7 },
      },
    ];
    const all = await client.comments(await client.get(1));
    expect(all).toHaveLength(151);
    expect(all.at(-1)).toEqual({
      id: 'note-501',
      author: 'bob',
      body: 'rename this',
      kind: 'comment',
      path: 'src/a.ts',
      line: 7,
      created_at: '2026-11-24T11:00:01Z',
    });
    expect(gl.requests.filter((r) => r.path.endsWith('/merge_requests/1/notes')).length).toBeGreaterThan(1);
  });

  it('reads approvals: none required, too few given, all given', async () => {
    const mr = await client.get(2);
    expect(await client.approval(mr)).toEqual({
      state: 'approved',
      approved_by: [],
      changes_requested: [],
      detail: 'no approval required',
    });
    gl.approvals[2] = { approved: false, approvals_required: 2, approvals_left: 1, approved_by: ['alice'] };
    expect(await client.approval(mr)).toEqual({
      state: 'pending',
      approved_by: ['alice'],
      changes_requested: [],
      detail: '1 of 2 required approvals (alice)',
    });
    gl.approvals[2] = {
      approved: true,
      approvals_required: 2,
      approvals_left: 0,
      approved_by: ['alice', 'bob'],
    };
    expect(await client.approval(mr)).toEqual({
      state: 'approved',
      approved_by: ['alice', 'bob'],
      changes_requested: [],
      detail: '2 of 2 required approvals (alice, bob)',
    });
    await expect(client.approval({ ...mr, number: 42 })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('a refused token is an auth error that names no token', async () => {
    const bad = new GitLabClient(
      { forge: 'gitlab', project: 'group/app', api_url: `${gl.url}/api/v4` },
      'nope',
      5_000,
    );
    const err = await bad.get(1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForgeError);
    expect(err).toMatchObject({
      kind: 'auth',
      status: 401,
      message: 'gitlab group/app: read merge request !1: the token was refused (401)',
    });
    await expect(client.get(42)).rejects.toMatchObject({ kind: 'not_found', status: 404 });
    const away = new GitLabClient(
      { forge: 'gitlab', project: 'group/app', api_url: 'http://127.0.0.1:9/api/v4' },
      TOKEN,
      5_000,
    );
    await expect(away.get(1)).rejects.toMatchObject({ kind: 'unreachable', status: null });
  });
});
