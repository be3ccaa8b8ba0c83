import { createServer, type Server } from 'node:http';
import { json, jsonBody, listenLoopback } from './mock-http.js';

/*
 * A recording mock of the Linear GraphQL API on loopback, answering the operations Jig sends by
 * name (JigIntake, JigBlockers, JigIssue, JigDone, JigComment, JigClose): a team's issues filtered
 * by label and state type, in pages of `pageSize` by cursor, each with its inverse relations (in
 * pages of `relationPageSize`, the rest through JigBlockers); a refused key answered as Linear does
 * (400 with an authentication error).
 */

export interface MockLinearIssue {
  id: string;
  identifier: string;
  title: string;
  description: string;
  /** Linear's: 0 none, 1 urgent … 4 low. */
  priority: number;
  labels: string[];
  /** The workflow state's type and id: backlog, unstarted, started, completed, canceled. */
  stateType: string;
  stateId: string;
  children: number;
}

/**
 * An issue relation as Linear stores it: `issue` blocks (or duplicates, relates to…) `relatedIssue`,
 * both by identifier. It is listed among the relations of `issue` and the inverse relations of
 * `relatedIssue`.
 */
export interface MockLinearRelation {
  type: 'blocks' | 'duplicate' | 'related' | 'similar';
  issue: string;
  relatedIssue: string;
}

export interface LinearCall {
  operation: string;
  variables: Record<string, unknown>;
  authorization: string | null;
}

export interface MockLinear {
  url: string;
  issues: MockLinearIssue[];
  relations: MockLinearRelation[];
  comments: { issueId: string; body: string }[];
  calls: LinearCall[];
  pageSize: number;
  relationPageSize: number;
  close(): Promise<void>;
}

export async function startMockLinear(key: string, team = 'ENG'): Promise<MockLinear> {
  const m: MockLinear = {
    url: '',
    issues: [],
    relations: [],
    comments: [],
    calls: [],
    pageSize: 2,
    relationPageSize: 50,
    close: () => new Promise((r) => server.close(() => r())),
  };
  const issueUrl = (i: MockLinearIssue) => `https://linear.app/acme/issue/${i.identifier}`;
  /** One page of an issue's inverse relations, in Linear's connection shape, from a cursor. */
  const inverse = (i: MockLinearIssue, after: unknown) => {
    const all = m.relations
      .filter((r) => r.relatedIssue === i.identifier)
      .map((r) => {
        const blocker = m.issues.find((x) => x.identifier === r.issue);
        if (!blocker) throw new Error(`relation names ${r.issue}, which the mock does not have`);
        return {
          type: r.type,
          issue: { identifier: blocker.identifier, state: { type: blocker.stateType } },
        };
      });
    const from = after ? Number(after) : 0;
    const next = from + m.relationPageSize;
    return {
      nodes: all.slice(from, next),
      pageInfo: { hasNextPage: next < all.length, endCursor: next < all.length ? String(next) : null },
    };
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const b = await jsonBody(req);
      const query = String(b.query ?? '');
      const operation = /^(?:query|mutation)\s+(\w+)/.exec(query.trim())?.[1] ?? '';
      const v = (b.variables ?? {}) as Record<string, unknown>;
      m.calls.push({ operation, variables: v, authorization: req.headers.authorization ?? null });
      if (req.headers.authorization !== key)
        return json(res, 400, {
          errors: [
            {
              message: 'Authentication required, not authenticated',
              extensions: { type: 'authentication error' },
            },
          ],
        });
      const find = (id: unknown) => m.issues.find((i) => i.identifier === id || i.id === id);
      if (operation === 'JigIntake') {
        const all = m.issues.filter(
          (i) =>
            v.team === team &&
            i.labels.includes(String(v.label)) &&
            ['backlog', 'unstarted'].includes(i.stateType),
        );
        const from = v.after ? Number(v.after) : 0;
        const nodes = all.slice(from, from + m.pageSize).map((i) => ({
          id: i.id,
          identifier: i.identifier,
          title: i.title,
          description: i.description,
          priority: i.priority,
          url: issueUrl(i),
          children: { nodes: i.children > 0 ? [{ id: `${i.id}-child` }] : [] },
          inverseRelations: inverse(i, null),
        }));
        const next = from + m.pageSize;
        return json(res, 200, {
          data: {
            issues: {
              nodes,
              pageInfo: {
                hasNextPage: next < all.length,
                endCursor: next < all.length ? String(next) : null,
              },
            },
          },
        });
      }
      if (operation === 'JigBlockers') {
        const i = find(v.id);
        if (!i) return json(res, 200, { data: null, errors: [{ message: 'Entity not found: Issue' }] });
        return json(res, 200, { data: { issue: { inverseRelations: inverse(i, v.relationsAfter) } } });
      }
      if (operation === 'JigIssue') {
        const i = find(v.id);
        if (!i) return json(res, 200, { data: null, errors: [{ message: 'Entity not found: Issue' }] });
        return json(res, 200, { data: { issue: { id: i.id, team: { key: team } } } });
      }
      if (operation === 'JigDone')
        return json(res, 200, {
          data: {
            workflowStates: {
              nodes: [
                { id: 'state-released', position: 5 },
                { id: 'state-done', position: 3 },
              ],
            },
          },
        });
      if (operation === 'JigComment') {
        const input = (v.input ?? {}) as { issueId?: string; body?: string };
        m.comments.push({ issueId: String(input.issueId), body: String(input.body) });
        return json(res, 200, { data: { commentCreate: { success: true } } });
      }
      if (operation === 'JigClose') {
        const i = find(v.id);
        if (!i) return json(res, 200, { data: null, errors: [{ message: 'Entity not found: Issue' }] });
        i.stateId = String(v.stateId);
        i.stateType = 'completed';
        return json(res, 200, { data: { issueUpdate: { success: true } } });
      }
      return json(res, 400, { errors: [{ message: `unknown operation ${operation}` }] });
    })().catch((err: unknown) => json(res, 500, { errors: [{ message: String(err) }] }));
  });
  m.url = await listenLoopback(server);
  return m;
}
