import type { Octokit } from '@octokit/rest';
import { z } from 'zod';
import type { ForgeLocation } from '../../core/forge/locate.js';
import { changesDetail, names, standing, withApprovers, type Verdict } from './approval.js';
import { logTail } from './log-tail.js';
import {
  ForgeError,
  overall,
  type ApprovalReport,
  type CheckState,
  type CiCheck,
  type ForgeClient,
  type ForgeComment,
  type MergeMethod,
  type MergeRequest,
} from './types.js';

type Pull = {
  number: number;
  html_url: string;
  state: string;
  draft?: boolean | undefined;
  merged?: boolean | undefined;
  merged_at?: string | null | undefined;
  merge_commit_sha?: string | null | undefined;
  head: { ref: string; sha: string };
  base: { ref: string };
  title: string;
  labels: ({ name?: string | undefined } | string)[];
};

const labelNames = (labels: Pull['labels']): string[] =>
  labels.flatMap((l) => (typeof l === 'string' ? [l] : l.name ? [l.name] : []));

function toMr(p: Pull): MergeRequest {
  const merged = p.merged === true || Boolean(p.merged_at);
  return {
    number: p.number,
    url: p.html_url,
    state: merged ? 'merged' : p.state === 'open' ? 'open' : 'closed',
    draft: p.draft === true,
    head: p.head.ref,
    base: p.base.ref,
    sha: p.head.sha,
    // An open pull request's merge_commit_sha is GitHub's trial merge, which nothing lands on.
    merge_sha: merged ? (p.merge_commit_sha ?? null) : null,
    title: p.title,
    labels: labelNames(p.labels),
  };
}

const ReviewDecision = z.object({
  repository: z
    .object({
      pullRequest: z
        .object({ reviewDecision: z.enum(['APPROVED', 'CHANGES_REQUESTED', 'REVIEW_REQUIRED']).nullable() })
        .nullable(),
    })
    .nullable(),
});

const REVIEW_DECISION =
  'query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { pullRequest(number: $number) { reviewDecision } } }';

/** The review states that change where a reviewer stands; COMMENTED and PENDING do not. */
function verdict(state: string): Verdict['verdict'] | null {
  if (state === 'APPROVED') return 'approved';
  if (state === 'CHANGES_REQUESTED') return 'changes_requested';
  return state === 'DISMISSED' ? 'dismissed' : null;
}

function runState(status: string | null, conclusion: string | null): CheckState {
  if (status !== 'completed') return 'pending';
  return conclusion === 'success' || conclusion === 'neutral' || conclusion === 'skipped'
    ? 'passing'
    : 'failing';
}

function statusState(state: string): CheckState {
  if (state === 'success') return 'passing';
  return state === 'pending' ? 'pending' : 'failing';
}

/** A fetch bounded by the client's timeout, so no forge call can hang a task. */
function timedFetch(timeoutMs: number): typeof fetch {
  return (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
}

/**
 * GitHub (and GitHub Enterprise) through Octokit: REST for pull requests, checks, statuses and
 * comments, every list paginated to its end; GraphQL for "ready for review", which REST lacks.
 */
export class GitHubClient implements ForgeClient {
  /** Octokit, loaded with the first request: most servers never speak to GitHub (issue 43). */
  private kit: Promise<Octokit> | null = null;
  private readonly options: ConstructorParameters<typeof Octokit>[0];
  protected readonly owner: string;
  protected readonly repo: string;

  constructor(
    readonly location: ForgeLocation,
    token: string,
    timeoutMs: number,
  ) {
    const [owner = '', repo = ''] = location.project.split('/');
    this.owner = owner;
    this.repo = repo;
    this.options = {
      auth: token,
      baseUrl: location.api_url,
      request: { fetch: timedFetch(timeoutMs), retries: 0 },
      log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    };
  }

  /** Octokit's errors as ForgeError; its messages carry no token (headers are redacted). */
  protected async call<T>(what: string, fn: (kit: Octokit) => Promise<T>): Promise<T> {
    this.kit ??= import('@octokit/rest').then(({ Octokit }) => new Octokit(this.options));
    const kit = await this.kit;
    try {
      return await fn(kit);
    } catch (err) {
      const e = err as {
        status?: unknown;
        message?: unknown;
        name?: unknown;
        cause?: unknown;
        response?: unknown;
        errors?: unknown;
      };
      // Octokit reports a request that got no answer (refused, timed out) as a 500 without a response.
      const status = typeof e.status === 'number' && e.response !== undefined ? e.status : null;
      const msg = typeof e.message === 'string' ? e.message : String(err);
      const where = `github ${this.location.project}: ${what}`;
      // GraphQL answers 200 with typed errors: a missing pull request is NOT_FOUND, a token without
      // the scope FORBIDDEN.
      if (e.name === 'GraphqlResponseError' && Array.isArray(e.errors)) {
        const types = e.errors.map((x: { type?: unknown }) => x.type);
        if (types.includes('NOT_FOUND')) throw new ForgeError('not_found', 'github', `${where}: not found`);
        if (types.includes('FORBIDDEN'))
          throw new ForgeError('auth', 'github', `${where}: the token was refused (${msg})`);
        throw new ForgeError('refused', 'github', `${where}: ${msg}`);
      }
      if (status === 401 || (status === 403 && !/rate limit/i.test(msg)))
        throw new ForgeError('auth', 'github', `${where}: the token was refused (${status})`, status);
      if (status === 404) throw new ForgeError('not_found', 'github', `${where}: not found (404)`, 404);
      if (status === 409) throw new ForgeError('conflict', 'github', `${where}: ${msg} (409)`, 409);
      if (status !== null && status >= 400)
        throw new ForgeError('refused', 'github', `${where}: ${msg} (${status})`, status);
      const timeout = /timeout|aborted/i.test(
        `${String(e.name)} ${msg} ${String((e.cause as { name?: unknown })?.name)}`,
      );
      throw new ForgeError(timeout ? 'timeout' : 'unreachable', 'github', `${where}: ${msg}`);
    }
  }

  protected get at() {
    return { owner: this.owner, repo: this.repo };
  }

  async findOpen(head: string): Promise<MergeRequest | null> {
    const pulls = await this.call('list pull requests', (kit) =>
      kit.paginate(kit.rest.pulls.list, {
        ...this.at,
        state: 'open',
        head: `${this.owner}:${head}`,
        per_page: 100,
      }),
    );
    const found = pulls.find((p) => p.head.ref === head);
    return found ? toMr(found) : null;
  }

  async openDraft(o: { head: string; base: string; title: string; body: string }): Promise<MergeRequest> {
    const r = await this.call('open a draft pull request', (kit) =>
      kit.rest.pulls.create({ ...this.at, ...o, draft: true }),
    );
    return toMr(r.data);
  }

  async get(number: number): Promise<MergeRequest> {
    const r = await this.call(`read pull request #${number}`, (kit) =>
      kit.rest.pulls.get({ ...this.at, pull_number: number }),
    );
    return toMr(r.data);
  }

  async describe(mr: MergeRequest, o: { title: string; body: string }): Promise<MergeRequest> {
    const r = await this.call(`describe pull request #${mr.number}`, (kit) =>
      kit.rest.pulls.update({ ...this.at, pull_number: mr.number, title: o.title, body: o.body }),
    );
    return toMr(r.data);
  }

  async markReady(mr: MergeRequest): Promise<MergeRequest> {
    const node = await this.call(`read pull request #${mr.number}`, (kit) =>
      kit.rest.pulls.get({ ...this.at, pull_number: mr.number }),
    );
    if (node.data.draft) {
      await this.call(`mark pull request #${mr.number} ready`, (kit) =>
        kit.graphql(
          'mutation($id: ID!) { markPullRequestReadyForReview(input: {pullRequestId: $id}) { pullRequest { isDraft } } }',
          { id: node.data.node_id },
        ),
      );
    }
    return this.get(mr.number);
  }

  async merge(mr: MergeRequest, method: MergeMethod): Promise<MergeRequest> {
    await this.call(`merge pull request #${mr.number}`, (kit) =>
      kit.rest.pulls.merge({ ...this.at, pull_number: mr.number, merge_method: method }),
    );
    return this.get(mr.number);
  }

  async reopen(mr: MergeRequest): Promise<MergeRequest> {
    const r = await this.call(`reopen pull request #${mr.number}`, (kit) =>
      kit.rest.pulls.update({ ...this.at, pull_number: mr.number, state: 'open' }),
    );
    return toMr(r.data);
  }

  async setLabels(mr: MergeRequest, labels: string[]): Promise<string[]> {
    const r = await this.call(`set labels on #${mr.number}`, (kit) =>
      kit.rest.issues.setLabels({ ...this.at, issue_number: mr.number, labels }),
    );
    return labelNames(r.data);
  }

  async ci(sha: string): Promise<{ state: ReturnType<typeof overall>; checks: CiCheck[] }> {
    const runs = await this.call(`read check runs of ${sha}`, (kit) =>
      kit.paginate(kit.rest.checks.listForRef, { ...this.at, ref: sha, per_page: 100 }),
    );
    const statuses = await this.call(`read statuses of ${sha}`, (kit) =>
      kit.paginate(kit.rest.repos.listCommitStatusesForRef, {
        ...this.at,
        ref: sha,
        per_page: 100,
      }),
    );
    const checks: CiCheck[] = runs.map((r) => {
      const state = runState(r.status, r.conclusion);
      return {
        name: r.name,
        state,
        url: r.details_url ?? r.html_url ?? null,
        summary: r.output?.summary ?? r.output?.title ?? null,
        log: state === 'failing' ? logTail(r.output?.text) : null,
      };
    });
    // Newest first: the first status of each context is its current one.
    const seen = new Set<string>();
    for (const s of statuses) {
      if (seen.has(s.context)) continue;
      seen.add(s.context);
      checks.push({
        name: s.context,
        state: statusState(s.state),
        url: s.target_url ?? null,
        summary: s.description ?? null,
        log: null,
      });
    }
    return { state: overall(checks), checks };
  }

  async comments(mr: MergeRequest): Promise<ForgeComment[]> {
    const n = { ...this.at, per_page: 100 };
    const issue = await this.call(`read comments of #${mr.number}`, (kit) =>
      kit.paginate(kit.rest.issues.listComments, { ...n, issue_number: mr.number }),
    );
    const reviews = await this.call(`read reviews of #${mr.number}`, (kit) =>
      kit.paginate(kit.rest.pulls.listReviews, { ...n, pull_number: mr.number }),
    );
    const lines = await this.call(`read review comments of #${mr.number}`, (kit) =>
      kit.paginate(kit.rest.pulls.listReviewComments, { ...n, pull_number: mr.number }),
    );
    const kind = (state: string): ForgeComment['kind'] =>
      state === 'APPROVED' ? 'approved' : state === 'CHANGES_REQUESTED' ? 'changes_requested' : 'review';
    return [
      ...issue.map((c) => ({
        id: `comment-${c.id}`,
        author: c.user?.login ?? '',
        body: c.body ?? '',
        kind: 'comment' as const,
        path: null,
        line: null,
        created_at: c.created_at,
      })),
      ...reviews.map((r) => ({
        id: `review-${r.id}`,
        author: r.user?.login ?? '',
        body: r.body ?? '',
        kind: kind(r.state),
        path: null,
        line: null,
        created_at: r.submitted_at ?? '',
      })),
      ...lines.map((c) => ({
        id: `line-${c.id}`,
        author: c.user?.login ?? '',
        body: c.body,
        kind: 'comment' as const,
        path: c.path,
        line: c.line ?? c.original_line ?? null,
        created_at: c.created_at,
      })),
    ].sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  /**
   * GitHub's own verdict (reviewDecision: branch protection and CODEOWNERS applied), which REST
   * lacks; who approved or asked for changes comes from the reviews, by each person's latest.
   */
  async approval(mr: MergeRequest): Promise<ApprovalReport> {
    const answer = await this.call(`read the review decision of #${mr.number}`, (kit) =>
      kit.graphql(REVIEW_DECISION, { owner: this.owner, name: this.repo, number: mr.number }),
    );
    const parsed = ReviewDecision.safeParse(answer);
    if (!parsed.success)
      throw new ForgeError(
        'refused',
        'github',
        `github ${this.location.project}: read the review decision of #${mr.number}: unexpected answer`,
      );
    const pull = parsed.data.repository?.pullRequest;
    if (!pull)
      throw new ForgeError(
        'not_found',
        'github',
        `github ${this.location.project}: read the review decision of #${mr.number}: not found`,
      );
    const reviews = await this.call(`read reviews of #${mr.number}`, (kit) =>
      kit.paginate(kit.rest.pulls.listReviews, {
        ...this.at,
        pull_number: mr.number,
        per_page: 100,
      }),
    );
    const { approved_by, changes_requested } = standing(
      reviews.flatMap((r) => {
        const v = verdict(r.state);
        return v ? [{ author: r.user?.login ?? '', verdict: v, body: r.body ?? '' }] : [];
      }),
    );
    const given = { approved_by, changes_requested };
    switch (pull.reviewDecision) {
      case 'APPROVED':
        return {
          state: 'approved',
          ...given,
          detail: approved_by.length > 0 ? `approved by ${names(approved_by)}` : 'approved',
        };
      case 'CHANGES_REQUESTED':
        return { state: 'changes_requested', ...given, detail: changesDetail(changes_requested) };
      case 'REVIEW_REQUIRED':
        return {
          state: 'pending',
          ...given,
          detail: withApprovers('review required', approved_by, 'approved so far by '),
        };
      case null:
        return { state: 'approved', ...given, detail: withApprovers('no review required', approved_by) };
    }
  }
}
