import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitLabClient } from '../src/runtime/forge/gitlab.js';
import { ForgeError } from '../src/runtime/forge/types.js';
import { startMockGitLab, type MockGitLab } from './helpers/mock-gitlab.js';

/*
 * The GitLab forge client against a recording mock of GitLab's v4 API on loopback: a draft merge
 * request through its life, CI from the newest pipeline's jobs, notes past the first 100, a
 * refused token.
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
    expect(await client.merge(mr, 'squash')).toMatchObject({ state: 'merged' });
    expect(gl.mrs[0]?.squash).toBe(true);

    const other = await client.openDraft({ head: 'jig/closed', base: 'main', title: 'Closed', body: '' });
    gl.mrs[1]!.state = 'closed';
    expect((await client.get(other.number)).state).toBe('closed');
    expect((await client.reopen(other)).state).toBe('open');
  });

  it("reads CI from the newest pipeline's jobs", async () => {
    gl.pipelines.push(
      { id: 5, sha: 'abc', jobs: [{ name: 'old', status: 'failed', allow_failure: false }] },
      {
        id: 9,
        sha: 'abc',
        jobs: [
          { name: 'build', status: 'success', allow_failure: false, web_url: 'j1' },
          { name: 'lint', status: 'failed', allow_failure: true, web_url: 'j2' },
          { name: 'deploy', status: 'manual', allow_failure: false },
          {
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
        { name: 'build', state: 'passing', url: 'j1', summary: null },
        { name: 'lint', state: 'passing', url: 'j2', summary: null },
        { name: 'test', state: 'failing', url: 'j3', summary: 'script_failure' },
      ],
    });
    expect(await client.ci('none')).toEqual({ state: 'none', checks: [] });
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
