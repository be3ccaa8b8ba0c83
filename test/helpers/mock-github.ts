import { createServer, type Server, type ServerResponse } from 'node:http';
import { headSha, json, jsonBody, listenLoopback, mergeShaOf } from './mock-http.js';

export { mergeShaOf };

/*
 * A recording mock of the GitHub REST and GraphQL endpoints the forge client uses, on loopback:
 * pull requests, labels, check runs, commit statuses, comments and reviews, with GitHub's
 * page/per_page pagination and Link headers, and a 401 for any token but the one it was given.
 * GraphQL answers the two queries the client sends: "ready for review" and the review decision.
 */

export interface MockPull {
  number: number;
  node_id: string;
  html_url: string;
  state: 'open' | 'closed';
  draft: boolean;
  merged: boolean;
  merged_at: string | null;
  /** Set by a merge, to `mergeShaOf(number)`; null before. */
  merge_commit_sha: string | null;
  head: { ref: string; sha: string };
  base: { ref: string };
  title: string;
  body: string;
  labels: { name: string }[];
  merge_method?: string;
  /** What GraphQL answers as the pull request's reviewDecision (null: no review required). */
  reviewDecision: 'APPROVED' | 'CHANGES_REQUESTED' | 'REVIEW_REQUIRED' | null;
}

/** An issue (not a pull request) on the mock; numbers should not clash with pulls'. */
export interface MockIssue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  state_reason?: string | null;
  labels: { name: string }[];
  html_url: string;
  /** What blocks it: an issue of the mock by number, or one of another repository. */
  blockedBy?: (number | ElsewhereIssue)[];
}

/** An issue of another repository, as a blocker. */
export interface ElsewhereIssue {
  project: string;
  number: number;
  state: 'open' | 'closed';
}

export interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | null;
  body: unknown;
}

export interface MockGitHub {
  url: string;
  pulls: MockPull[];
  checkRuns: Record<string, unknown[]>;
  statuses: Record<string, unknown[]>;
  issueComments: Record<number, unknown[]>;
  reviews: Record<number, unknown[]>;
  reviewComments: Record<number, unknown[]>;
  /** Issues for auto-intake; a merged pull request closes those its body says `Closes #N` of. */
  issues: MockIssue[];
  /**
   * Issue dependencies: `off` answers 404 (a GitHub without them), `broken` 500, to their
   * `blocked_by` lists only.
   */
  dependencies: 'on' | 'off' | 'broken';
  /** The largest page the mock answers (GitHub's is 100): lower it to make a test page. */
  maxPerPage: number;
  requests: Recorded[];
  /** Answer every request with this status from now on (null: normal). */
  failWith: number | null;
  /** Refuse merges with this message (405, as GitHub refuses an unmergeable pull) while set. */
  mergeRefusal: string | null;
  /** A branch's head sha (e.g. its tip on a bare origin); open pulls follow it. Null: `sha-<branch>`. */
  shaOf: ((branch: string) => string) | null;
  close(): Promise<void>;
}

export async function startMockGitHub(token: string, owner = 'acme', repo = 'app'): Promise<MockGitHub> {
  const m: MockGitHub = {
    url: '',
    pulls: [],
    checkRuns: {},
    statuses: {},
    issueComments: {},
    reviews: {},
    reviewComments: {},
    issues: [],
    dependencies: 'on',
    maxPerPage: 100,
    requests: [],
    failWith: null,
    mergeRefusal: null,
    shaOf: null,
    close: () => new Promise((r) => server.close(() => r())),
  };
  /** One page of a list, with GitHub's Link header pointing at the next. */
  const page = (res: ServerResponse, u: URL, all: unknown[], wrap?: (items: unknown[]) => unknown) => {
    const per = Math.min(Number(u.searchParams.get('per_page') ?? 30), m.maxPerPage);
    const n = Number(u.searchParams.get('page') ?? 1);
    const items = all.slice((n - 1) * per, n * per);
    const headers: Record<string, string> = {};
    if (n * per < all.length) {
      const next = new URL(u.toString());
      next.searchParams.set('page', String(n + 1));
      headers.link = `<${m.url}${next.pathname}${next.search}>; rel="next"`;
    }
    json(res, 200, wrap ? wrap(items) : items, headers);
  };
  const pull = (n: string) => m.pulls.find((p) => p.number === Number(n));
  /** A pull as REST answers it: reviewDecision is GraphQL's alone. */
  const rest = ({ reviewDecision: _d, ...p }: MockPull) => p;
  const prefix = `/repos/${owner}/${repo}`;

  const server: Server = createServer((req, res) => {
    void (async () => {
      const u = new URL(req.url ?? '/', 'http://x');
      const body = await jsonBody(req);
      m.requests.push({
        method: req.method ?? '',
        path: u.pathname,
        query: Object.fromEntries(u.searchParams),
        authorization: req.headers.authorization ?? null,
        body,
      });
      if (m.failWith !== null) return json(res, m.failWith, { message: 'failing on purpose' });
      if (req.headers.authorization !== `token ${token}`)
        return json(res, 401, { message: 'Bad credentials' });
      const path = u.pathname;
      const b = body;
      for (const p of m.pulls) if (p.state === 'open') p.head.sha = headSha(m.shaOf, p.head.ref, p.head.sha);
      if (req.method === 'POST' && path === '/graphql') {
        const vars = (b.variables ?? {}) as { id?: string; number?: number };
        if (String(b.query).includes('reviewDecision')) {
          const p = m.pulls.find((x) => x.number === vars.number);
          if (!p)
            return json(res, 200, {
              data: { repository: { pullRequest: null } },
              errors: [
                {
                  type: 'NOT_FOUND',
                  path: ['repository', 'pullRequest'],
                  message: `Could not resolve to a PullRequest with the number of ${vars.number}.`,
                },
              ],
            });
          return json(res, 200, {
            data: { repository: { pullRequest: { reviewDecision: p.reviewDecision } } },
          });
        }
        const p = m.pulls.find((x) => x.node_id === vars.id);
        if (!p) return json(res, 200, { errors: [{ message: 'no such pull request' }] });
        p.draft = false;
        return json(res, 200, {
          data: { markPullRequestReadyForReview: { pullRequest: { isDraft: false } } },
        });
      }
      if (!path.startsWith(prefix)) return json(res, 404, { message: 'Not Found' });
      const route = path.slice(prefix.length);
      let g: RegExpExecArray | null;
      if (route === '/pulls' && req.method === 'GET') {
        const head = u.searchParams.get('head');
        const state = u.searchParams.get('state') ?? 'open';
        return page(
          res,
          u,
          m.pulls
            .filter(
              (p) => (state === 'all' || p.state === state) && (!head || `${owner}:${p.head.ref}` === head),
            )
            .map(rest),
        );
      }
      if (route === '/pulls' && req.method === 'POST') {
        if (m.pulls.some((p) => p.state === 'open' && p.head.ref === b.head))
          return json(res, 422, { message: 'A pull request already exists' });
        const number = m.pulls.length + 1;
        const p: MockPull = {
          number,
          node_id: `PR_${number}`,
          html_url: `https://github.example/${owner}/${repo}/pull/${number}`,
          state: 'open',
          draft: b.draft === true,
          merged: false,
          merged_at: null,
          merge_commit_sha: null,
          head: { ref: String(b.head), sha: headSha(m.shaOf, String(b.head), `sha-${String(b.head)}`) },
          base: { ref: String(b.base) },
          title: String(b.title),
          body: String(b.body ?? ''),
          labels: [],
          reviewDecision: null,
        };
        m.pulls.push(p);
        return json(res, 201, rest(p));
      }
      if ((g = /^\/pulls\/(\d+)$/.exec(route))) {
        const p = pull(g[1] ?? '');
        if (!p) return json(res, 404, { message: 'Not Found' });
        if (req.method === 'PATCH') {
          if (b.state === 'open' || b.state === 'closed') p.state = b.state;
          if (typeof b.title === 'string') p.title = b.title;
          if (typeof b.body === 'string') p.body = b.body;
        }
        return json(res, 200, rest(p));
      }
      if ((g = /^\/pulls\/(\d+)\/merge$/.exec(route)) && req.method === 'PUT') {
        const p = pull(g[1] ?? '');
        if (!p) return json(res, 404, { message: 'Not Found' });
        if (p.draft) return json(res, 405, { message: 'Pull Request is still a draft' });
        if (p.state !== 'open') return json(res, 405, { message: 'Pull Request is not mergeable' });
        if (m.mergeRefusal !== null) return json(res, 405, { message: m.mergeRefusal });
        Object.assign(p, {
          merged: true,
          merged_at: '2026-11-24T12:00:00Z',
          state: 'closed',
          merge_commit_sha: mergeShaOf(p.number),
        });
        p.merge_method = String(b.merge_method ?? 'merge');
        for (const [, n] of p.body.matchAll(/\bCloses #(\d+)/g)) {
          const issue = m.issues.find((i) => i.number === Number(n));
          if (issue) Object.assign(issue, { state: 'closed', state_reason: 'completed' });
        }
        return json(res, 200, {
          merged: true,
          sha: p.merge_commit_sha,
          message: 'Pull Request successfully merged',
        });
      }
      if ((g = /^\/issues\/(\d+)\/labels$/.exec(route)) && req.method === 'PUT') {
        const p = pull(g[1] ?? '');
        if (!p) return json(res, 404, { message: 'Not Found' });
        p.labels = ((b.labels as string[] | undefined) ?? []).map((name) => ({ name }));
        return json(
          res,
          200,
          p.labels.map((l, i) => ({ id: i + 1, ...l })),
        );
      }
      if ((g = /^\/commits\/([^/]+)\/check-runs$/.exec(route)))
        return page(res, u, m.checkRuns[g[1] ?? ''] ?? [], (items) => ({
          total_count: (m.checkRuns[g![1] ?? ''] ?? []).length,
          check_runs: items,
        }));
      if ((g = /^\/commits\/([^/]+)\/statuses$/.exec(route)))
        return page(res, u, m.statuses[g[1] ?? ''] ?? []);
      if (route === '/issues' && req.method === 'GET') {
        const want = (u.searchParams.get('labels') ?? '').split(',').filter(Boolean);
        const state = u.searchParams.get('state') ?? 'open';
        // GitHub lists pull requests among issues, marked with `pull_request`.
        const all = [
          ...m.issues.map(({ blockedBy: _b, ...i }) => i),
          ...m.pulls.map((p) => ({ ...rest(p), pull_request: { url: p.html_url } })),
        ].filter(
          (i) =>
            (state === 'all' || i.state === state) && want.every((w) => i.labels.some((l) => l.name === w)),
        );
        return page(res, u, all);
      }
      if ((g = /^\/issues\/(\d+)\/dependencies\/blocked_by$/.exec(route)) && req.method === 'GET') {
        if (m.dependencies === 'off') return json(res, 404, { message: 'Not Found' });
        if (m.dependencies === 'broken') return json(res, 500, { message: 'Server Error' });
        const issue = m.issues.find((i) => i.number === Number(g![1]));
        if (!issue) return json(res, 404, { message: 'Not Found' });
        return page(
          res,
          u,
          (issue.blockedBy ?? []).map((b) => {
            const at = typeof b === 'number' ? m.issues.find((i) => i.number === b) : b;
            if (!at) throw new Error(`issue ${issue.number} is blocked by #${String(b)}, not on the mock`);
            const project = typeof b === 'number' ? `${owner}/${repo}` : b.project;
            return {
              id: 7000 + at.number,
              number: at.number,
              state: at.state,
              title: 'title' in at ? at.title : `Issue ${at.number}`,
              repository_url: `${m.url}/repos/${project}`,
              html_url: `https://github.example/${project}/issues/${at.number}`,
            };
          }),
        );
      }
      if ((g = /^\/issues\/(\d+)$/.exec(route)) && req.method === 'PATCH') {
        const issue = m.issues.find((i) => i.number === Number(g![1]));
        if (!issue) return json(res, 404, { message: 'Not Found' });
        if (b.state === 'open' || b.state === 'closed') issue.state = b.state;
        if (typeof b.state_reason === 'string') issue.state_reason = b.state_reason;
        return json(res, 200, issue);
      }
      if ((g = /^\/issues\/(\d+)\/comments$/.exec(route)) && req.method === 'POST') {
        const n = Number(g[1]);
        const comment = { id: 9000 + (m.issueComments[n]?.length ?? 0), body: String(b.body ?? '') };
        m.issueComments[n] = [...(m.issueComments[n] ?? []), comment];
        return json(res, 201, comment);
      }
      if ((g = /^\/issues\/(\d+)\/comments$/.exec(route)))
        return page(res, u, m.issueComments[Number(g[1])] ?? []);
      if ((g = /^\/pulls\/(\d+)\/reviews$/.exec(route))) return page(res, u, m.reviews[Number(g[1])] ?? []);
      if ((g = /^\/pulls\/(\d+)\/comments$/.exec(route)))
        return page(res, u, m.reviewComments[Number(g[1])] ?? []);
      return json(res, 404, { message: 'Not Found' });
    })().catch((err: unknown) => json(res, 500, { message: String(err) }));
  });
  m.url = await listenLoopback(server);
  return m;
}
