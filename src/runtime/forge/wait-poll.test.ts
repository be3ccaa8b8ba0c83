import { describe, expect, it } from 'vitest';
import type { RepoEntry } from '../../contract/config/repos.js';
import type { WaitTarget } from '../../contract/config/task.js';
import {
  ForgeError,
  overall,
  type CiCheck,
  type ForgeClient,
  type ForgeComment,
  type MergeRequest,
} from './types.js';
import { pollWait } from './wait-poll.js';

const mr: MergeRequest = {
  number: 7,
  url: 'https://forge.example/acme/app/pull/7',
  state: 'open',
  draft: false,
  head: 'jig/x',
  base: 'main',
  sha: 'a'.repeat(40),
  merge_sha: null,
  title: 't',
  labels: [],
};

const check = (name: string, state: CiCheck['state'], more: Partial<CiCheck> = {}): CiCheck => ({
  name,
  state,
  url: null,
  summary: null,
  log: null,
  ...more,
});

const comment = (
  author: string,
  body: string,
  at: string,
  more: Partial<ForgeComment> = {},
): ForgeComment => ({
  id: `${author}-${at}`,
  author,
  body,
  kind: 'comment',
  path: null,
  line: null,
  created_at: at,
  ...more,
});

/** A client answering from fixed data; what a test does not set throws, so an unexpected call shows. */
function client(o: {
  mr?: MergeRequest;
  checks?: Record<string, CiCheck[]>;
  comments?: ForgeComment[];
  merge?: () => MergeRequest;
  approval?: Awaited<ReturnType<ForgeClient['approval']>>;
}): ForgeClient {
  const no = (what: string) => () => Promise.reject(new Error(`unexpected ${what}`));
  return {
    location: { forge: 'github', project: 'acme/app', api_url: 'http://x' },
    findOpen: no('findOpen'),
    openDraft: no('openDraft'),
    get: () => Promise.resolve(o.mr ?? mr),
    describe: no('describe'),
    markReady: no('markReady'),
    merge: () => (o.merge ? Promise.resolve().then(o.merge) : no('merge')()),
    reopen: no('reopen'),
    setLabels: no('setLabels'),
    ci: (sha) => {
      const checks = o.checks?.[sha] ?? [];
      return Promise.resolve({ state: overall(checks), checks });
    },
    comments: () => Promise.resolve(o.comments ?? []),
    approval: () => (o.approval ? Promise.resolve(o.approval) : no('approval')()),
  };
}

const repo = (more: Partial<RepoEntry> = {}): RepoEntry => ({ path: '/r', ...more });
const poll = (target: WaitTarget, c: ForgeClient, r = repo(), pushedAt: string | null = null) =>
  pollWait({ target, client: c, repo: r, number: 7, pushedAt });

describe('pollWait', () => {
  it('mr.ci: pending, none (waited on), failing with findings, passing; ci_checks false passes at once', async () => {
    const sha = mr.sha!;
    expect(await poll('mr.ci', client({ checks: { [sha]: [check('unit', 'pending')] } }))).toMatchObject({
      state: 'pending',
      detail: `pending on ${sha.slice(0, 12)}: unit`,
    });
    expect((await poll('mr.ci', client({}))).state).toBe('pending');
    const failing = await poll(
      'mr.ci',
      client({
        checks: {
          [sha]: [
            check('unit', 'failing', { summary: '2 failed\nmore', log: 'a\nb', url: 'https://ci/1' }),
            check('lint', 'passing'),
          ],
        },
      }),
    );
    expect(failing).toEqual({
      state: 'failed',
      mr,
      detail: `failing on ${sha.slice(0, 12)}: unit`,
      findings: [
        {
          severity: 'critical',
          message: 'CI check "unit" failed: 2 failed',
          source_plugin: 'ci',
          log_tail: ['a', 'b'],
          url: 'https://ci/1',
        },
      ],
    });
    expect(await poll('mr.ci', client({ checks: { [sha]: [check('unit', 'passing')] } }))).toMatchObject({
      state: 'passed',
    });
    expect(await poll('mr.ci', client({}), repo({ ci_checks: false }))).toMatchObject({
      state: 'passed',
      notice: 'ci_not_configured',
    });
  });

  it('a merge request closed without merging is noticed by every wait', async () => {
    const closed = client({ mr: { ...mr, state: 'closed' } });
    for (const t of ['mr.ci', 'mr.automated_review', 'mr.merge'] as const)
      expect((await poll(t, closed)).state).toBe('closed');
  });

  it('mr.automated_review: only comments since the push count, compared as instants', async () => {
    const pushed = '2026-11-24T10:00:00.000Z';
    const r = repo({ automated_review: { bot: 'bot' } });
    // 17:30+08:00 is 09:30Z: before the push, so answered by it.
    const before = comment('bot', 'old remark', '2026-11-24T17:30:00+08:00');
    expect(await poll('mr.automated_review', client({ comments: [before] }), r, pushed)).toMatchObject({
      state: 'pending',
      detail: 'waiting for bot to review',
    });
    const line = comment('carol', 'off by one', '2026-11-24T10:05:00Z', { path: 'a.ts', line: 3 });
    const approved = comment('bot', 'LGTM', '2026-11-24T18:10:00+08:00', { kind: 'approved' });
    expect(
      await poll('mr.automated_review', client({ comments: [before, line, approved] }), r, pushed),
    ).toEqual({
      state: 'failed',
      mr,
      detail: '1 review comment(s) to address',
      findings: [
        {
          severity: 'important',
          message: 'carol: off by one',
          source_plugin: 'review',
          file: 'a.ts',
          line: 3,
        },
      ],
    });
    expect(
      await poll('mr.automated_review', client({ comments: [before, approved] }), r, pushed),
    ).toMatchObject({
      state: 'passed',
      detail: 'bot reviewed with nothing to fix',
    });
    expect(await poll('mr.automated_review', client({ comments: [] }), repo(), pushed)).toMatchObject({
      state: 'passed',
      notice: 'automated_review_not_configured',
    });
  });

  it('mr.merge: a refusal waits, a merge passes; an auth error propagates', async () => {
    const refused = () => {
      throw new ForgeError('refused', 'github', 'not mergeable (405)', 405);
    };
    expect(await poll('mr.merge', client({ merge: refused }))).toMatchObject({
      state: 'pending',
      detail: 'not mergeable yet: not mergeable (405)',
    });
    const merged = { ...mr, state: 'merged' as const, merge_sha: 'm'.repeat(40) };
    expect(
      await poll('mr.merge', client({ merge: () => merged }), repo({ merge_method: 'rebase' })),
    ).toMatchObject({
      state: 'passed',
      detail: `merged (rebase) as ${'m'.repeat(40)}`,
    });
    const auth = () => {
      throw new ForgeError('auth', 'github', 'refused (401)', 401);
    };
    await expect(poll('mr.merge', client({ merge: auth }))).rejects.toThrow('refused (401)');
  });

  it('mr.external_approval and mr.post_merge_ci', async () => {
    const pending = {
      state: 'pending' as const,
      approved_by: [],
      changes_requested: [],
      detail: 'review required',
    };
    expect(await poll('mr.external_approval', client({ approval: pending }))).toMatchObject({
      state: 'pending',
    });
    const changes = {
      state: 'changes_requested' as const,
      approved_by: [],
      changes_requested: [{ author: 'dana', body: 'split it' }],
      detail: 'changes requested by dana',
    };
    expect(await poll('mr.external_approval', client({ approval: changes }))).toMatchObject({
      state: 'failed',
      findings: [{ severity: 'critical', message: 'dana requested changes: split it' }],
    });
    expect(await poll('mr.post_merge_ci', client({}))).toMatchObject({ state: 'failed' });
    const merged = { ...mr, state: 'merged' as const, merge_sha: 'm'.repeat(40) };
    expect(
      await poll(
        'mr.post_merge_ci',
        client({ mr: merged, checks: { ['m'.repeat(40)]: [check('deploy', 'passing')] } }),
      ),
    ).toMatchObject({ state: 'passed' });
  });
});
