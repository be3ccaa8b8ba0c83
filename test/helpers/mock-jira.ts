import { createServer, type Server } from 'node:http';
import { json, jsonBody, listenLoopback } from './mock-http.js';

/*
 * A recording mock of the Jira REST API on loopback: Cloud's v3 (`search/jql` paged by
 * `nextPageToken`, ADF descriptions and comments, basic auth) and Data Center's v2 (`search` paged by
 * `startAt`, plain text, a bearer token), with transitions. The JQL is recorded, not interpreted:
 * every issue of the mock is what the search finds.
 */

export interface MockJiraIssue {
  key: string;
  summary: string;
  description: string;
  priority: string | null;
  type: string;
  status: 'To Do' | 'Done';
}

export interface JiraRecorded {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | null;
  body: unknown;
}

export interface MockJira {
  url: string;
  issues: MockJiraIssue[];
  comments: { key: string; body: unknown }[];
  requests: JiraRecorded[];
  pageSize: number;
  close(): Promise<void>;
}

const adf = (text: string) => ({
  type: 'doc',
  version: 1,
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

export async function startMockJira(authorization: string): Promise<MockJira> {
  const m: MockJira = {
    url: '',
    issues: [],
    comments: [],
    requests: [],
    pageSize: 2,
    close: () => new Promise((r) => server.close(() => r())),
  };
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
      if (req.headers.authorization !== authorization)
        return json(res, 401, { errorMessages: ['You are not authenticated.'] });
      const g = /^\/rest\/api\/(2|3)(\/.*)$/.exec(u.pathname);
      if (!g) return json(res, 404, { errorMessages: ['Not found'] });
      const cloud = g[1] === '3';
      const route = g[2] ?? '';
      const shape = (i: MockJiraIssue) => ({
        id: `1${i.key.replace(/\D/g, '')}`,
        key: i.key,
        fields: {
          summary: i.summary,
          description: cloud ? adf(i.description) : i.description,
          priority: i.priority === null ? null : { name: i.priority },
          issuetype: { name: i.type, hierarchyLevel: i.type === 'Epic' ? 1 : 0 },
        },
      });
      const open = m.issues.filter((i) => i.status === 'To Do');
      if (cloud && route === '/search/jql' && req.method === 'GET') {
        const from = Number(u.searchParams.get('nextPageToken') ?? 0);
        const next = from + m.pageSize;
        return json(res, 200, {
          issues: open.slice(from, next).map(shape),
          ...(next < open.length ? { nextPageToken: String(next) } : {}),
          isLast: next >= open.length,
        });
      }
      if (!cloud && route === '/search' && req.method === 'GET') {
        const startAt = Number(u.searchParams.get('startAt') ?? 0);
        return json(res, 200, {
          startAt,
          maxResults: m.pageSize,
          total: open.length,
          issues: open.slice(startAt, startAt + m.pageSize).map(shape),
        });
      }
      const t = /^\/issue\/([A-Z0-9]+-\d+)\/(comment|transitions)$/.exec(route);
      const issue = t ? m.issues.find((i) => i.key === t[1]) : undefined;
      if (!t || !issue) return json(res, 404, { errorMessages: ['Issue does not exist'] });
      if (t[2] === 'comment' && req.method === 'POST') {
        m.comments.push({ key: issue.key, body: body.body });
        return json(res, 201, { id: String(m.comments.length) });
      }
      if (t[2] === 'transitions' && req.method === 'GET')
        return json(res, 200, {
          transitions: [
            { id: '11', name: 'Start', to: { statusCategory: { key: 'indeterminate' } } },
            { id: '31', name: 'Done', to: { statusCategory: { key: 'done' } } },
          ],
        });
      if (t[2] === 'transitions' && req.method === 'POST') {
        const id = (body.transition as { id?: string } | undefined)?.id;
        if (id !== '31') return json(res, 400, { errorMessages: [`transition ${String(id)} is not valid`] });
        issue.status = 'Done';
        return json(res, 204, undefined);
      }
      return json(res, 405, { errorMessages: ['Method not allowed'] });
    })().catch((err: unknown) => json(res, 500, { errorMessages: [String(err)] }));
  });
  m.url = await listenLoopback(server);
  return m;
}
