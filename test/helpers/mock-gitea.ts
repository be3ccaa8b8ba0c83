import { createServer, type Server, type ServerResponse } from 'node:http';
import { headSha, json, jsonBody, listenLoopback, mergeShaOf } from './mock-http.js';

export { mergeShaOf };

/*
 * A recording mock of the Gitea/Forgejo v1 endpoints the forge client uses, on loopback: pull
 * requests, labels by id, commit statuses, comments, reviews and review comments, branch
 * protections; page/limit pagination with x-total-count; 401 for any token but the one it was given.
 */

export interface GiteaPull {
  number: number;
  html_url: string;
  state: 'open' | 'closed';
  merged: boolean;
  /** Set by a merge, to `mergeShaOf(number)`; null before. */
  merge_commit_sha: string | null;
  head: { ref: string; sha: string };
  base: { ref: string };
  title: string;
  body: string;
  labels: { id: number; name: string }[];
  merge_style?: string;
}

export interface MockGiteaIssue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  labels: string[];
  /** What it depends on: issues of the mock by number, or of another repository. */
  blockedBy?: (number | { project: string; number: number; state: 'open' | 'closed' })[];
}

export interface MockGitea {
  url: string;
  pulls: GiteaPull[];
  labels: { id: number; name: string }[];
  statuses: Record<string, unknown[]>;
  comments: Record<number, unknown[]>;
  reviewsOf: Record<number, ({ id: number; comments: unknown[] } & Record<string, unknown>)[]>;
  /** Branch protections by branch name; a branch without one answers 404. */
  branchProtections: Record<string, { required_approvals: number }>;
  /** Answer 403 to branch protection reads, as Gitea does for a token that is not a repo admin. */
  protectionsForbidden: boolean;
  /** Refuse merges with this message (405, as Gitea refuses an unmergeable pull) while set. */
  mergeRefusal: string | null;
  /** A branch's head sha (e.g. its tip on a bare origin); open pulls follow it. Null: `sha-<branch>`. */
  shaOf: ((branch: string) => string) | null;
  /** Issues for auto-intake (`labels` by name), with the comments and closes they get. */
  issues: MockGiteaIssue[];
  /** Issue dependencies: `off` answers 404, as Gitea does for a repository that disabled them. */
  dependencies: 'on' | 'off';
  issueComments: Record<number, string[]>;
  /** The largest page the mock answers (Gitea's MAX_RESPONSE_ITEMS, 50 by default). */
  maxLimit: number;
  requests: { method: string; path: string; query: Record<string, string>; authorization: string | null }[];
  close(): Promise<void>;
}

export async function startMockGitea(token: string, project = 'acme/app'): Promise<MockGitea> {
  const m: MockGitea = {
    url: '',
    pulls: [],
    labels: [{ id: 1, name: 'jig' }],
    statuses: {},
    comments: {},
    reviewsOf: {},
    branchProtections: {},
    protectionsForbidden: false,
    mergeRefusal: null,
    shaOf: null,
    issues: [],
    dependencies: 'on',
    issueComments: {},
    maxLimit: 50,
    requests: [],
    close: () => new Promise((r) => server.close(() => r())),
  };
  const page = (res: ServerResponse, u: URL, all: unknown[]) => {
    const limit = Math.min(Number(u.searchParams.get('limit') ?? 30), m.maxLimit);
    const n = Number(u.searchParams.get('page') ?? 1);
    json(res, 200, all.slice((n - 1) * limit, n * limit), { 'x-total-count': String(all.length) });
  };
  const prefix = `/api/v1/repos/${project}`;
  const pull = (n: string | undefined) => m.pulls.find((p) => p.number === Number(n));
  const server: Server = createServer((req, res) => {
    void (async () => {
      const u = new URL(req.url ?? '/', 'http://x');
      const b = await jsonBody(req);
      m.requests.push({
        method: req.method ?? '',
        path: u.pathname,
        query: Object.fromEntries(u.searchParams),
        authorization: req.headers.authorization ?? null,
      });
      if (req.headers.authorization !== `token ${token}`)
        return json(res, 401, { message: 'token is required' });
      if (!u.pathname.startsWith(prefix)) return json(res, 404, { message: 'not found' });
      const rest = u.pathname.slice(prefix.length);
      for (const p of m.pulls) if (p.state === 'open') p.head.sha = headSha(m.shaOf, p.head.ref, p.head.sha);
      let g: RegExpExecArray | null;
      if (rest === '/issues' && req.method === 'GET') {
        const want = (u.searchParams.get('labels') ?? '').split(',').filter(Boolean);
        const state = u.searchParams.get('state') ?? 'open';
        const found = m.issues
          .filter((i) => i.state === state && want.every((w) => i.labels.includes(w)))
          .map(({ blockedBy: _b, ...i }) => ({
            ...i,
            labels: i.labels.map((name, id) => ({ id, name })),
            html_url: `https://gitea.example/${project}/issues/${i.number}`,
          }));
        return page(res, u, found);
      }
      if ((g = /^\/issues\/(\d+)\/dependencies$/.exec(rest)) && req.method === 'GET') {
        if (m.dependencies === 'off') return json(res, 404, { message: 'not found' });
        const issue = m.issues.find((i) => i.number === Number(g![1]));
        if (!issue) return json(res, 404, { message: 'not found' });
        return page(
          res,
          u,
          (issue.blockedBy ?? []).map((b) => {
            const at = typeof b === 'number' ? m.issues.find((i) => i.number === b) : b;
            if (!at) throw new Error(`issue ${issue.number} depends on #${String(b)}, not on the mock`);
            const full = typeof b === 'number' ? project : b.project;
            const [owner = '', name = ''] = full.split('/');
            return {
              id: 6000 + at.number,
              number: at.number,
              state: at.state,
              title: 'title' in at ? at.title : `Issue ${at.number}`,
              html_url: `https://gitea.example/${full}/issues/${at.number}`,
              repository: { id: full === project ? 1 : 2, name, owner, full_name: full },
            };
          }),
        );
      }
      if ((g = /^\/issues\/(\d+)\/comments$/.exec(rest)) && req.method === 'POST') {
        const n = Number(g[1]);
        m.issueComments[n] = [...(m.issueComments[n] ?? []), String(b.body)];
        return json(res, 201, { id: m.issueComments[n].length, body: b.body });
      }
      if ((g = /^\/issues\/(\d+)$/.exec(rest)) && req.method === 'PATCH') {
        const issue = m.issues.find((i) => i.number === Number(g![1]));
        if (!issue) return json(res, 404, { message: 'not found' });
        if (b.state === 'closed' || b.state === 'open') issue.state = b.state;
        return json(res, 201, issue);
      }
      if (rest === '/pulls' && req.method === 'GET')
        return page(
          res,
          u,
          m.pulls.filter((p) => p.state === (u.searchParams.get('state') ?? 'open')),
        );
      if (rest === '/pulls' && req.method === 'POST') {
        const number = m.pulls.length + 1;
        const p: GiteaPull = {
          number,
          html_url: `https://gitea.example/${project}/pulls/${number}`,
          state: 'open',
          merged: false,
          merge_commit_sha: null,
          head: { ref: String(b.head), sha: headSha(m.shaOf, String(b.head), `sha-${String(b.head)}`) },
          base: { ref: String(b.base) },
          title: String(b.title),
          body: String(b.body ?? ''),
          labels: [],
        };
        m.pulls.push(p);
        return json(res, 201, p);
      }
      if ((g = /^\/pulls\/(\d+)$/.exec(rest))) {
        const p = pull(g[1]);
        if (!p) return json(res, 404, { message: 'not found' });
        if (req.method === 'PATCH') {
          if (typeof b.title === 'string') p.title = b.title;
          if (typeof b.body === 'string') p.body = b.body;
          if (b.state === 'open' || b.state === 'closed') p.state = b.state;
        }
        return json(res, 200, p);
      }
      if ((g = /^\/pulls\/(\d+)\/merge$/.exec(rest)) && req.method === 'POST') {
        const p = pull(g[1]);
        if (!p) return json(res, 404, { message: 'not found' });
        if (/^wip:/i.test(p.title)) return json(res, 405, { message: 'a work in progress cannot be merged' });
        if (m.mergeRefusal !== null) return json(res, 405, { message: m.mergeRefusal });
        Object.assign(p, {
          merged: true,
          state: 'closed',
          merge_style: String(b.Do),
          merge_commit_sha: mergeShaOf(p.number),
        });
        return json(res, 200, null);
      }
      if ((g = /^\/branch_protections\/([^/]+)$/.exec(rest)) && req.method === 'GET') {
        if (m.protectionsForbidden)
          return json(res, 403, { message: 'user should be an owner or a collaborator with admin write' });
        const name = decodeURIComponent(g[1] ?? '');
        const bp = m.branchProtections[name];
        return bp
          ? json(res, 200, { branch_name: name, rule_name: name, ...bp })
          : json(res, 404, { message: 'not found' });
      }
      if (rest === '/labels' && req.method === 'GET') return page(res, u, m.labels);
      if (rest === '/labels' && req.method === 'POST') {
        const l = { id: m.labels.length + 1, name: String(b.name) };
        m.labels.push(l);
        return json(res, 201, l);
      }
      if ((g = /^\/issues\/(\d+)\/labels$/.exec(rest)) && req.method === 'PUT') {
        const p = pull(g[1]);
        if (!p) return json(res, 404, { message: 'not found' });
        p.labels = ((b.labels as number[]) ?? []).map((id) => m.labels.find((l) => l.id === id)!);
        return json(res, 200, p.labels);
      }
      if ((g = /^\/commits\/([^/]+)\/statuses$/.exec(rest)))
        return page(res, u, m.statuses[g[1] ?? ''] ?? []);
      if ((g = /^\/issues\/(\d+)\/comments$/.exec(rest))) return page(res, u, m.comments[Number(g[1])] ?? []);
      if ((g = /^\/pulls\/(\d+)\/reviews$/.exec(rest)))
        return page(
          res,
          u,
          (m.reviewsOf[Number(g[1])] ?? []).map(({ comments: _c, ...r }) => r),
        );
      if ((g = /^\/pulls\/(\d+)\/reviews\/(\d+)\/comments$/.exec(rest)))
        return page(
          res,
          u,
          (m.reviewsOf[Number(g[1])] ?? []).find((r) => r.id === Number(g![2]))?.comments ?? [],
        );
      return json(res, 404, { message: 'not found' });
    })().catch((err: unknown) => json(res, 500, { message: String(err) }));
  });
  m.url = await listenLoopback(server);
  return m;
}
