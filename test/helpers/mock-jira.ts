import { createServer, type Server } from 'node:http';
import { json, jsonBody, listenLoopback } from './mock-http.js';

/*
 * A recording mock of the Jira REST API on loopback: Cloud's v3 (`search/jql` paged by
 * `nextPageToken`, ADF descriptions and comments, basic auth) and Data Center's v2 (`search` paged by
 * `startAt`, plain text, a bearer token), with transitions and issue links. The JQL is recorded,
 * not interpreted: every To Do issue of the mock is what the search finds. Only the fields the
 * search asks for are answered, as Jira does.
 */

export interface MockJiraIssue {
  key: string;
  summary: string;
  description: string;
  priority: string | null;
  type: string;
  status: 'To Do' | 'In Progress' | 'Done';
}

/** A link type as Jira describes one: `outward` reads from the first issue, `inward` from the second. */
export interface JiraLinkType {
  name: string;
  inward: string;
  outward: string;
}

export const BLOCKS: JiraLinkType = { name: 'Blocks', inward: 'is blocked by', outward: 'blocks' };
export const RELATES: JiraLinkType = { name: 'Relates', inward: 'relates to', outward: 'relates to' };

/**
 * `from` <type.outward> `to`, by key ("SHOP-1 blocks SHOP-2"). Each issue shows it from its own
 * side: `to` with `inwardIssue: from` (it is blocked by), `from` with `outwardIssue: to`.
 */
export interface MockJiraLink {
  type: JiraLinkType;
  from: string;
  to: string;
}

const CATEGORY: Record<MockJiraIssue['status'], { id: number; key: string; name: string }> = {
  'To Do': { id: 2, key: 'new', name: 'To Do' },
  'In Progress': { id: 4, key: 'indeterminate', name: 'In Progress' },
  Done: { id: 3, key: 'done', name: 'Done' },
};

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
  links: MockJiraLink[];
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
    links: [],
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
      const idOf = (key: string) => `1${key.replace(/\D/g, '')}`;
      const self = (key: string) => `${m.url}/rest/api/${g[1]}/issue/${idOf(key)}`;
      const status = (i: MockJiraIssue) => ({
        self: `${m.url}/rest/api/${g[1]}/status/${CATEGORY[i.status].id}`,
        name: i.status,
        id: String(CATEGORY[i.status].id),
        statusCategory: { ...CATEGORY[i.status], colorName: i.status === 'Done' ? 'green' : 'blue-gray' },
      });
      // The other end of a link, as Jira embeds it: a few of its fields, its status among them.
      const linked = (key: string) => {
        const o = m.issues.find((x) => x.key === key);
        if (!o) throw new Error(`link names ${key}, which the mock does not have`);
        return {
          id: idOf(key),
          key,
          self: self(key),
          fields: { summary: o.summary, status: status(o), issuetype: { name: o.type } },
        };
      };
      const links = (i: MockJiraIssue) =>
        m.links.flatMap((l, n): Record<string, unknown>[] => {
          const id = String(10000 + n);
          const type = { id, ...l.type, self: `${m.url}/rest/api/${g[1]}/issueLinkType/${id}` };
          if (l.to === i.key) return [{ id: String(n + 1), type, inwardIssue: linked(l.from) }];
          if (l.from === i.key) return [{ id: String(n + 1), type, outwardIssue: linked(l.to) }];
          return [];
        });
      const fields = new Set((u.searchParams.get('fields') ?? '').split(','));
      const shape = (i: MockJiraIssue) => ({
        id: idOf(i.key),
        key: i.key,
        fields: {
          summary: i.summary,
          description: cloud ? adf(i.description) : i.description,
          priority: i.priority === null ? null : { name: i.priority },
          issuetype: { name: i.type, hierarchyLevel: i.type === 'Epic' ? 1 : 0 },
          ...(fields.has('issuelinks') ? { issuelinks: links(i) } : {}),
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
