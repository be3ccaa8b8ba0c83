import type { Gitlab } from '@gitbeaker/rest';
import { z } from 'zod';
import type { ForgeLocation } from '../../core/forge/locate.js';
import { countDetail } from './approval.js';
import { logTail } from './log-tail.js';
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

/** GitLab marks a draft by its title. */
const DRAFT = /^(?:\[draft\]|\(draft\)|draft:)\s*/i;

type Mr = {
  iid: number;
  web_url: string;
  state: string;
  draft?: boolean;
  work_in_progress?: boolean;
  source_branch: string;
  target_branch: string;
  sha?: string | null;
  merge_commit_sha?: string | null;
  squash_commit_sha?: string | null;
  title: string;
  labels?: unknown;
};

/** A job's trace fetched for at most this many failed jobs a read, so a broken pipeline costs few calls. */
const TRACED_JOBS = 5;

function toMr(m: Mr): MergeRequest {
  const labels = Array.isArray(m.labels) ? m.labels.flatMap((l) => (typeof l === 'string' ? [l] : [])) : [];
  const merged = m.state === 'merged';
  return {
    number: m.iid,
    url: m.web_url,
    state: merged ? 'merged' : m.state === 'opened' ? 'open' : 'closed',
    draft: m.draft === true || m.work_in_progress === true || DRAFT.test(m.title),
    head: m.source_branch,
    base: m.target_branch,
    sha: m.sha ?? null,
    // A fast-forward merge of a squash leaves no merge commit; the squash commit is what landed.
    merge_sha: merged ? (m.merge_commit_sha ?? m.squash_commit_sha ?? null) : null,
    title: m.title.replace(DRAFT, ''),
    labels,
  };
}

/** A job of the commit's pipeline; skipped and manual jobs say nothing about the change. */
function jobState(status: string, allowFailure: boolean): CheckState | null {
  if (status === 'success') return 'passing';
  if (status === 'failed' || status === 'canceled') return allowFailure ? 'passing' : 'failing';
  if (status === 'skipped' || status === 'manual') return null;
  return 'pending';
}

/** GitLab's answer on approvals; `approved` is missing on versions before 13. */
const Approvals = z.object({
  approved: z.boolean().optional(),
  approvals_required: z.number().optional(),
  approvals_left: z.number().optional(),
  approved_by: z
    .array(z.object({ user: z.object({ username: z.string() }) }))
    .nullish()
    .transform((a) => a ?? []),
});

/** GitLab's trace markup: colours, and the section markers that fold a job's log in its page. */
const TRACE_MARKUP = /section_(?:start|end):\d+:[^\r\n\x1b]*\r?\x1b\[0K|\x1b\[[0-9;]*[A-Za-z]/g;

/**
 * GitLab (gitlab.com or self-hosted) through gitbeaker: merge requests, the jobs of the newest
 * pipeline of a commit, and notes; every list read to its last page (offset pagination).
 */
export class GitLabClient implements ForgeClient {
  /** gitbeaker, loaded with the first request: most servers never speak to GitLab (issue 43). */
  private api: Promise<InstanceType<typeof Gitlab>> | null = null;
  private readonly options: ConstructorParameters<typeof Gitlab>[0];
  protected readonly project: string;

  constructor(
    readonly location: ForgeLocation,
    token: string,
    timeoutMs: number,
  ) {
    this.project = location.project;
    this.options = {
      host: location.api_url.replace(/\/api\/v4$/, ''),
      token,
      queryTimeout: timeoutMs,
    };
  }

  protected async call<T>(what: string, fn: (api: InstanceType<typeof Gitlab>) => Promise<T>): Promise<T> {
    this.api ??= import('@gitbeaker/rest').then(({ Gitlab }) => new Gitlab(this.options));
    const api = await this.api;
    try {
      return await fn(api);
    } catch (err) {
      const e = err as { message?: unknown; name?: unknown; cause?: { response?: { status?: unknown } } };
      const raw = e.cause?.response?.status;
      const status = typeof raw === 'number' ? raw : null;
      const msg = typeof e.message === 'string' ? e.message : String(err);
      const where = `gitlab ${this.project}: ${what}`;
      if (status === 401 || status === 403)
        throw new ForgeError('auth', 'gitlab', `${where}: the token was refused (${status})`, status);
      if (status === 404) throw new ForgeError('not_found', 'gitlab', `${where}: not found (404)`, 404);
      if (status === 409) throw new ForgeError('conflict', 'gitlab', `${where}: ${msg} (409)`, 409);
      if (status !== null) throw new ForgeError('refused', 'gitlab', `${where}: ${msg} (${status})`, status);
      const timeout = /timeout|timed out|aborted/i.test(`${String(e.name)} ${msg}`);
      throw new ForgeError(timeout ? 'timeout' : 'unreachable', 'gitlab', `${where}: ${msg}`);
    }
  }

  async findOpen(head: string): Promise<MergeRequest | null> {
    const all = await this.call('list merge requests', (api) =>
      api.MergeRequests.all({
        projectId: this.project,
        state: 'opened',
        sourceBranch: head,
        perPage: 100,
      }),
    );
    const found = (all as Mr[]).find((m) => m.source_branch === head);
    return found ? toMr(found) : null;
  }

  async openDraft(o: { head: string; base: string; title: string; body: string }): Promise<MergeRequest> {
    const m = await this.call('open a draft merge request', (api) =>
      api.MergeRequests.create(this.project, o.head, o.base, `Draft: ${o.title}`, {
        description: o.body,
      }),
    );
    return toMr(m as Mr);
  }

  async get(number: number): Promise<MergeRequest> {
    const m = await this.call(`read merge request !${number}`, (api) =>
      api.MergeRequests.show(this.project, number),
    );
    return toMr(m as Mr);
  }

  private async edit(number: number, what: string, options: Record<string, unknown>): Promise<MergeRequest> {
    const m = await this.call(what, (api) => api.MergeRequests.edit(this.project, number, options));
    return toMr(m as Mr);
  }

  async describe(mr: MergeRequest, o: { title: string; body: string }): Promise<MergeRequest> {
    const now = await this.get(mr.number);
    return this.edit(mr.number, `describe merge request !${mr.number}`, {
      title: now.draft ? `Draft: ${o.title}` : o.title,
      description: o.body,
    });
  }

  async markReady(mr: MergeRequest): Promise<MergeRequest> {
    const now = await this.get(mr.number);
    if (!now.draft) return now;
    return this.edit(mr.number, `mark merge request !${mr.number} ready`, { title: now.title });
  }

  /** `squash` squashes; `merge` and `rebase` take the project's own merge method. */
  async merge(mr: MergeRequest, method: MergeMethod): Promise<MergeRequest> {
    await this.call(`merge merge request !${mr.number}`, (api) =>
      api.MergeRequests.accept(this.project, mr.number, { squash: method === 'squash' }),
    );
    return this.get(mr.number);
  }

  reopen(mr: MergeRequest): Promise<MergeRequest> {
    return this.edit(mr.number, `reopen merge request !${mr.number}`, { stateEvent: 'reopen' });
  }

  async setLabels(mr: MergeRequest, labels: string[]): Promise<string[]> {
    return (await this.edit(mr.number, `set labels on !${mr.number}`, { labels: labels.join(',') })).labels;
  }

  async ci(sha: string): Promise<CiReport> {
    const pipelines = await this.call(`read pipelines of ${sha}`, (api) =>
      api.Pipelines.all(this.project, { sha, perPage: 100 }),
    );
    const newest = [...(pipelines as { id: number }[])].sort((a, b) => b.id - a.id)[0];
    if (!newest) return { state: 'none', checks: [] };
    const jobs = await this.call(`read jobs of pipeline ${newest.id}`, (api) =>
      api.Jobs.all(this.project, { pipelineId: newest.id, perPage: 100 }),
    );
    const checks: CiCheck[] = [];
    let traced = 0;
    for (const j of jobs as {
      id: number;
      name: string;
      status: string;
      allow_failure: boolean;
      web_url?: unknown;
      failure_reason?: unknown;
    }[]) {
      const state = jobState(j.status, j.allow_failure);
      if (state === null) continue;
      const log = state === 'failing' && traced++ < TRACED_JOBS ? await this.trace(j.id) : null;
      checks.push({
        name: j.name,
        state,
        url: typeof j.web_url === 'string' ? j.web_url : null,
        summary: typeof j.failure_reason === 'string' ? j.failure_reason : null,
        log,
      });
    }
    return { state: overall(checks), checks };
  }

  /**
   * The end of a job's log. A trace that is gone (erased, expired) or hidden from this token is
   * no log rather than an error: the job's state still says it failed.
   */
  private async trace(jobId: number): Promise<string | null> {
    try {
      const text = await this.call(`read the trace of job ${jobId}`, (api) =>
        api.Jobs.showLog(this.project, jobId),
      );
      return typeof text === 'string' ? logTail(text.replace(TRACE_MARKUP, '')) : null;
    } catch (err) {
      if (err instanceof ForgeError && (err.status === 403 || err.status === 404)) return null;
      throw err;
    }
  }

  async comments(mr: MergeRequest): Promise<ForgeComment[]> {
    const notes = await this.call(`read notes of !${mr.number}`, (api) =>
      api.MergeRequestNotes.all(this.project, mr.number, {
        sort: 'asc',
        orderBy: 'created_at',
        perPage: 100,
      }),
    );
    return (
      notes as {
        id: number;
        body: string;
        system: boolean;
        created_at: string;
        author?: { username?: string };
        position?: { new_path?: unknown; new_line?: unknown } | null;
      }[]
    )
      .filter((n) => !n.system)
      .map((n) => {
        const pos = n.position ?? null;
        return {
          id: `note-${n.id}`,
          author: n.author?.username ?? '',
          body: n.body,
          kind: 'comment' as const,
          path: typeof pos?.new_path === 'string' ? pos.new_path : null,
          line: typeof pos?.new_line === 'number' ? pos.new_line : null,
          created_at: n.created_at,
        };
      });
  }

  /** GitLab's approval rules as the merge request stands; the free tier has no "changes requested". */
  async approval(mr: MergeRequest): Promise<ApprovalReport> {
    const what = `read approvals of !${mr.number}`;
    const answer = await this.call(what, (api) =>
      api.MergeRequestApprovals.showConfiguration(this.project, { mergerequestIId: mr.number }),
    );
    const parsed = Approvals.safeParse(answer);
    if (!parsed.success)
      throw new ForgeError('refused', 'gitlab', `gitlab ${this.project}: ${what}: unexpected answer`);
    const a = parsed.data;
    const approvedBy = a.approved_by.map((x) => x.user.username);
    const required = a.approvals_required ?? 0;
    const left = a.approvals_left ?? 0;
    return {
      state: (a.approved ?? left === 0) ? 'approved' : 'pending',
      approved_by: approvedBy,
      changes_requested: [],
      detail: countDetail(required - left, required, approvedBy),
    };
  }
}
