import { createServer, type Server, type ServerResponse } from 'node:http';
import { headSha, json, jsonBody, listenLoopback, mergeShaOf, text } from './mock-http.js';

export { mergeShaOf };

/*
 * A recording mock of the GitLab v4 endpoints the forge client uses, on loopback: merge requests,
 * pipelines and their jobs, job traces (text), approvals, notes; offset pagination with Link and
 * x-next-page headers; 401 for any PRIVATE-TOKEN but the one it was given.
 */

export interface MockMr {
  iid: number;
  web_url: string;
  state: 'opened' | 'closed' | 'merged';
  source_branch: string;
  target_branch: string;
  sha: string;
  title: string;
  description: string;
  labels: string[];
  squash?: boolean;
  /** Set by a merge, to `mergeShaOf(iid)`; null before. */
  merge_commit_sha: string | null;
  /** Null unless a test sets it (a fast-forward squash leaves only this one). */
  squash_commit_sha: string | null;
}

/** A merge request's approvals as a test sets them; the mock answers GitLab's shape. */
export interface MockApprovals {
  approved: boolean;
  approvals_required: number;
  approvals_left: number;
  approved_by: string[];
}

export interface MockGitLabIssue {
  iid: number;
  title: string;
  description: string;
  state: 'opened' | 'closed';
  labels: string[];
  /** Issues of the mock by iid, or of another project. */
  blockedBy?: (number | { project: string; iid: number; state: 'opened' | 'closed' })[];
  relatesTo?: number[];
}

export interface MockGitLab {
  url: string;
  mrs: MockMr[];
  /** A commit's pipelines by sha (the newest id is the one read); jobs carry an `id` for traces. */
  pipelines: { id: number; sha: string; jobs: unknown[] }[];
  /** A job's trace by job id, answered as text/plain; a job without one answers 404. */
  traces: Record<number, string>;
  /** Approvals by iid; absent: none required (approved, 0 of 0), as on GitLab Free. */
  approvals: Record<number, MockApprovals>;
  notes: Record<number, unknown[]>;
  /** Refuse merges with this message (405, as GitLab refuses an unmergeable one) while set. */
  mergeRefusal: string | null;
  /** A branch's head sha (e.g. its tip on a bare origin); open ones follow it. Null: `sha-<branch>`. */
  shaOf: ((branch: string) => string) | null;
  /**
   * Issues for auto-intake, with the notes and closes they get. `blockedBy` are links: the blocked
   * issue lists each blocker `is_blocked_by`, the blocker lists it back as `blocks`; `relatesTo`
   * links both ways as `relates_to`.
   */
  issues: MockGitLabIssue[];
  issueNotes: Record<number, string[]>;
  /** The largest page the mock answers (GitLab's is 100). */
  maxPerPage: number;
  requests: {
    method: string;
    path: string;
    query: Record<string, string>;
    token: string | null;
    body: unknown;
  }[];
  close(): Promise<void>;
}

export async function startMockGitLab(token: string, project = 'group/app'): Promise<MockGitLab> {
  const m: MockGitLab = {
    url: '',
    mrs: [],
    pipelines: [],
    traces: {},
    approvals: {},
    notes: {},
    mergeRefusal: null,
    shaOf: null,
    issues: [],
    issueNotes: {},
    maxPerPage: 100,
    requests: [],
    close: () => new Promise((r) => server.close(() => r())),
  };
  const page = (res: ServerResponse, u: URL, all: unknown[]) => {
    const per = Math.min(Number(u.searchParams.get('per_page') ?? 20), m.maxPerPage);
    const n = Number(u.searchParams.get('page') ?? 1);
    const headers: Record<string, string> = { 'x-total': String(all.length), 'x-page': String(n) };
    if (n * per < all.length) {
      const next = new URL(u.toString());
      next.searchParams.set('page', String(n + 1));
      headers.link = `<${m.url}${next.pathname}${next.search}>; rel="next"`;
      headers['x-next-page'] = String(n + 1);
    }
    json(res, 200, all.slice((n - 1) * per, n * per), headers);
  };
  const prefix = `/api/v4/projects/${encodeURIComponent(project)}`;
  /** A linked issue as GitLab answers it: the issue, with the link seen from the one asked about. */
  const linked = (
    to: { iid: number; state: string; title?: string; project?: string },
    link_type: string,
    id: number,
  ) => {
    const path = to.project ?? project;
    return {
      id: 5000 + to.iid,
      iid: to.iid,
      title: to.title ?? `Issue ${to.iid}`,
      state: to.state,
      web_url: `https://gitlab.example/${path}/-/issues/${to.iid}`,
      references: { short: `#${to.iid}`, relative: `#${to.iid}`, full: `${path}#${to.iid}` },
      issue_link_id: id,
      link_type,
    };
  };
  const issueLinks = (issue: MockGitLabIssue) => {
    const of = (n: number) => {
      const found = m.issues.find((i) => i.iid === n);
      if (!found) throw new Error(`issue ${issue.iid} links #${n}, not on the mock`);
      return found;
    };
    return [
      ...(issue.blockedBy ?? []).map((b) => linked(typeof b === 'number' ? of(b) : b, 'is_blocked_by', 1)),
      ...m.issues.filter((i) => i.blockedBy?.includes(issue.iid)).map((i) => linked(i, 'blocks', 2)),
      ...(issue.relatesTo ?? []).map((n) => linked(of(n), 'relates_to', 3)),
      ...m.issues.filter((i) => i.relatesTo?.includes(issue.iid)).map((i) => linked(i, 'relates_to', 4)),
    ];
  };
  const mr = (iid: string | undefined) => m.mrs.find((x) => x.iid === Number(iid));

  const server: Server = createServer((req, res) => {
    void (async () => {
      const u = new URL(req.url ?? '/', 'http://x');
      const b = await jsonBody(req);
      const tok = req.headers['private-token'];
      m.requests.push({
        method: req.method ?? '',
        path: u.pathname,
        query: Object.fromEntries(u.searchParams),
        token: typeof tok === 'string' ? tok : null,
        body: b,
      });
      if (tok !== token) return json(res, 401, { message: '401 Unauthorized' });
      // GitLab takes the project path encoded once; node hands the path over as sent.
      const path = req.url?.split('?')[0] ?? '';
      if (!path.startsWith(prefix)) return json(res, 404, { message: '404 Project Not Found' });
      const rest = path.slice(prefix.length);
      for (const x of m.mrs) if (x.state === 'opened') x.sha = headSha(m.shaOf, x.source_branch, x.sha);
      let g: RegExpExecArray | null;
      if (rest === '/issues' && req.method === 'GET') {
        const want = (u.searchParams.get('labels') ?? '').split(',').filter(Boolean);
        const state = u.searchParams.get('state');
        const found = m.issues
          .filter((i) => (!state || i.state === state) && want.every((w) => i.labels.includes(w)))
          .map(({ blockedBy: _b, relatesTo: _r, ...i }) => ({
            ...i,
            web_url: `https://gitlab.example/${project}/-/issues/${i.iid}`,
          }));
        return page(res, u, found);
      }
      if ((g = /^\/issues\/(\d+)\/links$/.exec(rest)) && req.method === 'GET') {
        const n = Number(g[1]);
        const issue = m.issues.find((i) => i.iid === n);
        if (!issue) return json(res, 404, { message: '404 Not found' });
        return json(res, 200, issueLinks(issue));
      }
      if ((g = /^\/issues\/(\d+)\/notes$/.exec(rest)) && req.method === 'POST') {
        const n = Number(g[1]);
        m.issueNotes[n] = [...(m.issueNotes[n] ?? []), String(b.body)];
        return json(res, 201, { id: m.issueNotes[n].length, body: b.body });
      }
      if ((g = /^\/issues\/(\d+)$/.exec(rest)) && req.method === 'PUT') {
        const issue = m.issues.find((i) => i.iid === Number(g![1]));
        if (!issue) return json(res, 404, { message: '404 Not found' });
        if (b.state_event === 'close') issue.state = 'closed';
        return json(res, 200, issue);
      }
      if (rest === '/merge_requests' && req.method === 'GET') {
        const state = u.searchParams.get('state');
        const source = u.searchParams.get('source_branch');
        return page(
          res,
          u,
          m.mrs.filter((x) => (!state || x.state === state) && (!source || x.source_branch === source)),
        );
      }
      if (rest === '/merge_requests' && req.method === 'POST') {
        const iid = m.mrs.length + 1;
        const x: MockMr = {
          iid,
          web_url: `https://gitlab.example/${project}/-/merge_requests/${iid}`,
          state: 'opened',
          source_branch: String(b.source_branch),
          target_branch: String(b.target_branch),
          sha: headSha(m.shaOf, String(b.source_branch), `sha-${String(b.source_branch)}`),
          title: String(b.title),
          description: String(b.description ?? ''),
          labels: [],
          merge_commit_sha: null,
          squash_commit_sha: null,
        };
        m.mrs.push(x);
        return json(res, 201, x);
      }
      if ((g = /^\/merge_requests\/(\d+)$/.exec(rest))) {
        const x = mr(g[1]);
        if (!x) return json(res, 404, { message: '404 Not found' });
        if (req.method === 'PUT') {
          if (typeof b.title === 'string') x.title = b.title;
          if (typeof b.description === 'string') x.description = b.description;
          if (b.state_event === 'reopen' && x.state === 'closed') x.state = 'opened';
          if (typeof b.labels === 'string') x.labels = b.labels === '' ? [] : b.labels.split(',');
        }
        return json(res, 200, x);
      }
      if ((g = /^\/merge_requests\/(\d+)\/merge$/.exec(rest)) && req.method === 'PUT') {
        const x = mr(g[1]);
        if (!x) return json(res, 404, { message: '404 Not found' });
        if (x.state !== 'opened' || /^draft:/i.test(x.title))
          return json(res, 405, { message: '405 Method Not Allowed' });
        if (m.mergeRefusal !== null) return json(res, 405, { message: m.mergeRefusal });
        x.state = 'merged';
        x.squash = b.squash === true;
        x.merge_commit_sha = mergeShaOf(x.iid);
        return json(res, 200, x);
      }
      if ((g = /^\/merge_requests\/(\d+)\/approvals$/.exec(rest))) {
        const x = mr(g[1]);
        if (!x) return json(res, 404, { message: '404 Not found' });
        const a = m.approvals[x.iid] ?? {
          approved: true,
          approvals_required: 0,
          approvals_left: 0,
          approved_by: [],
        };
        return json(res, 200, {
          id: x.iid,
          iid: x.iid,
          state: x.state,
          approved: a.approved,
          approvals_required: a.approvals_required,
          approvals_left: a.approvals_left,
          approved_by: a.approved_by.map((username, i) => ({
            user: { id: i + 1, username, name: username },
          })),
        });
      }
      if ((g = /^\/jobs\/(\d+)\/trace$/.exec(rest))) {
        const t = m.traces[Number(g[1])];
        return t === undefined ? json(res, 404, { message: '404 Not found' }) : text(res, 200, t);
      }
      if ((g = /^\/merge_requests\/(\d+)\/notes$/.exec(rest)))
        return page(res, u, m.notes[Number(g[1])] ?? []);
      if (rest === '/pipelines')
        return page(
          res,
          u,
          m.pipelines.filter((p) => p.sha === u.searchParams.get('sha')).map(({ id, sha }) => ({ id, sha })),
        );
      if ((g = /^\/pipelines\/(\d+)\/jobs$/.exec(rest)))
        return page(res, u, m.pipelines.find((p) => p.id === Number(g![1]))?.jobs ?? []);
      return json(res, 404, { message: '404 Not found' });
    })().catch((err: unknown) => json(res, 500, { message: String(err) }));
  });
  m.url = await listenLoopback(server);
  return m;
}
