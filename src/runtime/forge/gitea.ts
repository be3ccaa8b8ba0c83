import type { ForgeLocation } from '../../core/forge/locate.js';
import { changesDetail, countDetail, names, standing, type Verdict } from './approval.js';
import {
  ForgeError,
  overall,
  type ApprovalReport,
  type CheckState,
  type CiCheck,
  type CiReport,
  type ForgeClient,
  type ForgeComment,
  type MergeMethod,
  type MergeRequest,
} from './types.js';

/*
 * Gitea and Forgejo over their v1 REST API, by hand: the only client package is generated from
 * the swagger file and adds nothing over fetch for the dozen calls used here. Drafts are marked by
 * the title prefix both forges read (`WIP:`); lists are read page by page until a short page.
 */

const DRAFT = /^(?:wip:|\[wip\])\s*/i;
const LIMIT = 50;

type Pull = {
  number: number;
  html_url: string;
  state: string;
  merged?: boolean;
  merge_commit_sha?: string | null;
  draft?: boolean;
  head: { ref: string; sha: string };
  base: { ref: string };
  title: string;
  labels?: { name: string }[] | null;
};

function toMr(p: Pull): MergeRequest {
  return {
    number: p.number,
    url: p.html_url,
    state: p.merged ? 'merged' : p.state === 'open' ? 'open' : 'closed',
    draft: p.draft === true || DRAFT.test(p.title),
    head: p.head.ref,
    base: p.base.ref,
    sha: p.head.sha,
    merge_sha: p.merged ? (p.merge_commit_sha ?? null) : null,
    title: p.title.replace(DRAFT, ''),
    labels: (p.labels ?? []).map((l) => l.name),
  };
}

function statusState(s: string): CheckState {
  if (s === 'success' || s === 'warning') return 'passing';
  return s === 'pending' ? 'pending' : 'failing';
}

export class GiteaClient implements ForgeClient {
  protected readonly repoPath: string;

  constructor(
    readonly location: ForgeLocation,
    private readonly token: string,
    private readonly timeoutMs: number,
  ) {
    this.repoPath = `/repos/${location.project}`;
  }

  protected async request<T>(
    what: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ data: T; total: number | null }> {
    const where = `gitea ${this.location.project}: ${what}`;
    let res: Response;
    try {
      res = await fetch(`${this.location.api_url}${path}`, {
        method,
        headers: {
          authorization: `token ${this.token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const e = err as { name?: unknown; message?: unknown };
      const timeout = e.name === 'TimeoutError' || e.name === 'AbortError';
      throw new ForgeError(
        timeout ? 'timeout' : 'unreachable',
        'gitea',
        `${where}: ${String(e.message ?? err)}`,
      );
    }
    const text = await res.text();
    if (res.status === 401 || res.status === 403)
      throw new ForgeError('auth', 'gitea', `${where}: the token was refused (${res.status})`, res.status);
    if (res.status === 404) throw new ForgeError('not_found', 'gitea', `${where}: not found (404)`, 404);
    if (res.status === 409)
      throw new ForgeError('conflict', 'gitea', `${where}: ${text.slice(0, 200)} (409)`, 409);
    if (!res.ok)
      throw new ForgeError('refused', 'gitea', `${where}: ${text.slice(0, 200)} (${res.status})`, res.status);
    const total = Number(res.headers.get('x-total-count'));
    return {
      data: (text === '' ? null : JSON.parse(text)) as T,
      total: Number.isFinite(total) && res.headers.has('x-total-count') ? total : null,
    };
  }

  /** Every page of a list: as many as `x-total-count` says, else until a short page. */
  protected async all<T>(what: string, path: string): Promise<T[]> {
    const out: T[] = [];
    for (let page = 1; ; page++) {
      const sep = path.includes('?') ? '&' : '?';
      const { data, total } = await this.request<T[]>(
        what,
        'GET',
        `${path}${sep}page=${page}&limit=${LIMIT}`,
      );
      out.push(...(data ?? []));
      // A server whose MAX_RESPONSE_ITEMS is below LIMIT answers short pages: its total decides.
      if (!data || data.length === 0) return out;
      if (total !== null ? out.length >= total : data.length < LIMIT) return out;
    }
  }

  async findOpen(head: string): Promise<MergeRequest | null> {
    const pulls = await this.all<Pull>('list pull requests', `${this.repoPath}/pulls?state=open`);
    const found = pulls.find((p) => p.head.ref === head);
    return found ? toMr(found) : null;
  }

  async openDraft(o: { head: string; base: string; title: string; body: string }): Promise<MergeRequest> {
    const r = await this.request<Pull>('open a draft pull request', 'POST', `${this.repoPath}/pulls`, {
      head: o.head,
      base: o.base,
      title: `WIP: ${o.title}`,
      body: o.body,
    });
    return toMr(r.data);
  }

  async get(number: number): Promise<MergeRequest> {
    return toMr(
      (await this.request<Pull>(`read pull request #${number}`, 'GET', `${this.repoPath}/pulls/${number}`))
        .data,
    );
  }

  private async edit(number: number, what: string, body: Record<string, unknown>): Promise<MergeRequest> {
    return toMr((await this.request<Pull>(what, 'PATCH', `${this.repoPath}/pulls/${number}`, body)).data);
  }

  async describe(mr: MergeRequest, o: { title: string; body: string }): Promise<MergeRequest> {
    const now = await this.get(mr.number);
    return this.edit(mr.number, `describe pull request #${mr.number}`, {
      title: now.draft ? `WIP: ${o.title}` : o.title,
      body: o.body,
    });
  }

  async markReady(mr: MergeRequest): Promise<MergeRequest> {
    const now = await this.get(mr.number);
    return now.draft
      ? this.edit(mr.number, `mark pull request #${mr.number} ready`, { title: now.title })
      : now;
  }

  async merge(mr: MergeRequest, method: MergeMethod): Promise<MergeRequest> {
    await this.request(
      `merge pull request #${mr.number}`,
      'POST',
      `${this.repoPath}/pulls/${mr.number}/merge`,
      { Do: method },
    );
    return this.get(mr.number);
  }

  reopen(mr: MergeRequest): Promise<MergeRequest> {
    return this.edit(mr.number, `reopen pull request #${mr.number}`, { state: 'open' });
  }

  /** Gitea labels by id: names the project lacks are made first. */
  async setLabels(mr: MergeRequest, labels: string[]): Promise<string[]> {
    const known = await this.all<{ id: number; name: string }>('list labels', `${this.repoPath}/labels`);
    const ids: number[] = [];
    for (const name of labels) {
      const have = known.find((l) => l.name === name);
      if (have) ids.push(have.id);
      else
        ids.push(
          (
            await this.request<{ id: number }>(`make label ${name}`, 'POST', `${this.repoPath}/labels`, {
              name,
              color: '#c5def5',
            })
          ).data.id,
        );
    }
    const r = await this.request<{ name: string }[]>(
      `set labels on #${mr.number}`,
      'PUT',
      `${this.repoPath}/issues/${mr.number}/labels`,
      {
        labels: ids,
      },
    );
    return (r.data ?? []).map((l) => l.name);
  }

  async ci(sha: string): Promise<CiReport> {
    const statuses = await this.all<{
      id: number;
      context: string;
      status: string;
      target_url?: string;
      description?: string;
    }>(`read statuses of ${sha}`, `${this.repoPath}/commits/${sha}/statuses`);
    // The newest status of each context (highest id) is its current one.
    const latest = new Map<string, (typeof statuses)[number]>();
    for (const s of statuses) if ((latest.get(s.context)?.id ?? -1) < s.id) latest.set(s.context, s);
    const checks: CiCheck[] = [...latest.values()].map((s) => ({
      name: s.context,
      state: statusState(s.status),
      url: s.target_url || null,
      summary: s.description || null,
      // A status carries no log, and reading an Actions log would need the run behind its URL.
      log: null,
    }));
    return { state: overall(checks), checks };
  }

  async comments(mr: MergeRequest): Promise<ForgeComment[]> {
    type User = { login?: string } | null | undefined;
    const issue = await this.all<{ id: number; body: string; user: User; created_at: string }>(
      `read comments of #${mr.number}`,
      `${this.repoPath}/issues/${mr.number}/comments`,
    );
    const reviews = await this.all<{
      id: number;
      body: string;
      user: User;
      state: string;
      submitted_at: string;
    }>(`read reviews of #${mr.number}`, `${this.repoPath}/pulls/${mr.number}/reviews`);
    const kind = (state: string): ForgeComment['kind'] =>
      state === 'APPROVED' ? 'approved' : state === 'REQUEST_CHANGES' ? 'changes_requested' : 'review';
    const lines: ForgeComment[] = [];
    for (const r of reviews) {
      const cs = await this.all<{
        id: number;
        body: string;
        user: User;
        path: string;
        position?: number;
        created_at: string;
      }>(
        `read review ${r.id} comments of #${mr.number}`,
        `${this.repoPath}/pulls/${mr.number}/reviews/${r.id}/comments`,
      );
      for (const c of cs)
        lines.push({
          id: `line-${c.id}`,
          author: c.user?.login ?? '',
          body: c.body,
          kind: 'comment',
          path: c.path,
          line: c.position ?? null,
          created_at: c.created_at,
        });
    }
    return [
      ...issue.map((c) => ({
        id: `comment-${c.id}`,
        author: c.user?.login ?? '',
        body: c.body,
        kind: 'comment' as const,
        path: null,
        line: null,
        created_at: c.created_at,
      })),
      ...reviews.map((r) => ({
        id: `review-${r.id}`,
        author: r.user?.login ?? '',
        body: r.body,
        kind: kind(r.state),
        path: null,
        line: null,
        created_at: r.submitted_at,
      })),
      ...lines,
    ].sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  /**
   * Reviews, by each person's latest verdict, against the approvals the base branch's protection
   * requires. Reading a protection needs a repository admin's token; without one the required
   * count is unknown and one approval is asked for.
   */
  async approval(mr: MergeRequest): Promise<ApprovalReport> {
    const reviews = await this.all<{
      user?: { login?: string } | null;
      state: string;
      body?: string;
      dismissed?: boolean;
    }>(`read reviews of #${mr.number}`, `${this.repoPath}/pulls/${mr.number}/reviews`);
    const { approved_by, changes_requested } = standing(
      reviews.flatMap((r): Verdict[] => {
        const author = r.user?.login ?? '';
        const body = r.body ?? '';
        if (r.dismissed === true) return [{ author, verdict: 'dismissed', body }];
        if (r.state === 'APPROVED') return [{ author, verdict: 'approved', body }];
        if (r.state === 'REQUEST_CHANGES') return [{ author, verdict: 'changes_requested', body }];
        return [];
      }),
    );
    const given = { approved_by, changes_requested };
    if (changes_requested.length > 0)
      return { state: 'changes_requested', ...given, detail: changesDetail(changes_requested) };
    const required = await this.requiredApprovals(mr.base);
    if (required === null) {
      const why = 'the required count is unknown: reading branch protection needs a repository admin token';
      return approved_by.length > 0
        ? { state: 'approved', ...given, detail: `approved by ${names(approved_by)} (${why})` }
        : { state: 'pending', ...given, detail: `one approval needed (${why})` };
    }
    return {
      state: approved_by.length >= required ? 'approved' : 'pending',
      ...given,
      detail: countDetail(approved_by.length, required, approved_by),
    };
  }

  /** The base branch protection's required approvals: 0 when unprotected, null when hidden. */
  private async requiredApprovals(base: string): Promise<number | null> {
    try {
      const r = await this.request<{ required_approvals?: number } | null>(
        `read branch protection of ${base}`,
        'GET',
        `${this.repoPath}/branch_protections/${encodeURIComponent(base)}`,
      );
      return r.data?.required_approvals ?? 0;
    } catch (err) {
      if (err instanceof ForgeError && err.status === 404) return 0;
      if (err instanceof ForgeError && err.status === 403) return null;
      throw err;
    }
  }
}
