import { z } from 'zod';
import type { LinearIntake } from '../../../contract/config/intake.js';
import { TrackerError, trackerRequest } from './http.js';

/*
 * Linear through its GraphQL API (`LINEAR_API_KEY`): a team's issues carrying a label and not yet
 * started, each with the open issues that block it, read page by page (cursor pagination); a
 * comment; a close that moves the issue to the team's first "completed" workflow state.
 */

/** One Linear issue as auto-intake reads it. */
export interface LinearIssue {
  uuid: string;
  /** The team key and number: ENG-42. */
  identifier: string;
  title: string;
  description: string;
  /** Linear's: 0 none, 1 urgent, 2 high, 3 medium, 4 low. */
  linearPriority: number;
  url: string;
  /** It has sub-issues: the epic of Linear's model. */
  parent: boolean;
  /** The identifiers of the open issues a `blocks` relation says block it; absent when none do. */
  blockedBy?: string[];
}

const PAGE = 50;
/*
 * Linear prices a query by its nested pages (a connection multiplies what it holds by its `first`)
 * and refuses one past 10,000 points: 50 issues of 25 relations each comes to about 4,300. An issue
 * with more relations than that is read to the end by JigBlockers.
 */
const RELATIONS_PAGE = 25;
const relations = (after: string) => `inverseRelations(first: ${RELATIONS_PAGE}${after}) {
  nodes { type issue { identifier state { type } } }
  pageInfo { hasNextPage endCursor }
}`;

const ISSUES = `query JigIntake($team: String!, $label: String!, $after: String) {
  issues(first: ${PAGE}, after: $after, filter: {
    team: { key: { eq: $team } },
    labels: { some: { name: { eq: $label } } },
    state: { type: { in: ["backlog", "unstarted"] } }
  }) {
    nodes {
      id identifier title description priority url children(first: 1) { nodes { id } }
      ${relations('')}
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

const BLOCKERS = `query JigBlockers($id: String!, $relationsAfter: String) {
  issue(id: $id) { ${relations(', after: $relationsAfter')} }
}`;

const Relations = z.object({
  nodes: z.array(
    z.object({
      type: z.string(),
      issue: z.object({ identifier: z.string(), state: z.object({ type: z.string() }) }),
    }),
  ),
  pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullish() }),
});
const BlockersAnswer = z.object({ issue: z.object({ inverseRelations: Relations }) });

/** The open issues that block one: `A blocks B` is listed among B's inverse relations, issue A. */
const openBlockers = (r: z.infer<typeof Relations>): string[] =>
  r.nodes
    .filter((n) => n.type === 'blocks' && !['completed', 'canceled'].includes(n.issue.state.type))
    .map((n) => n.issue.identifier);

const IssuesAnswer = z.object({
  issues: z.object({
    nodes: z.array(
      z.object({
        id: z.string(),
        identifier: z.string(),
        title: z.string(),
        description: z.string().nullish(),
        priority: z.number(),
        url: z.string(),
        children: z.object({ nodes: z.array(z.object({ id: z.string() })) }).nullish(),
        inverseRelations: Relations,
      }),
    ),
    pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullish() }),
  }),
});

const ISSUE_ID = `query JigIssue($id: String!) { issue(id: $id) { id team { key } } }`;
const IssueAnswer = z.object({ issue: z.object({ id: z.string(), team: z.object({ key: z.string() }) }) });

const DONE_STATES = `query JigDone($team: String!) {
  workflowStates(filter: { team: { key: { eq: $team } }, type: { eq: "completed" } }) { nodes { id position } }
}`;
const DoneStates = z.object({
  workflowStates: z.object({ nodes: z.array(z.object({ id: z.string(), position: z.number() })) }),
});

const COMMENT = `mutation JigComment($input: CommentCreateInput!) { commentCreate(input: $input) { success } }`;
const UPDATE = `mutation JigClose($id: String!, $stateId: String!) { issueUpdate(id: $id, input: { stateId: $stateId }) { success } }`;
const Success = (key: string) => z.object({ [key]: z.object({ success: z.boolean() }) });

const GraphQlAnswer = z.object({
  data: z.unknown().optional(),
  errors: z
    .array(
      z.object({
        message: z.string(),
        extensions: z.object({ type: z.string().optional() }).passthrough().optional(),
      }),
    )
    .optional(),
});

export class LinearClient {
  constructor(
    private readonly config: Pick<LinearIntake, 'api_url' | 'team' | 'label'>,
    private readonly key: string,
    private readonly timeoutMs: number,
  ) {}

  private async query<T>(what: string, schema: z.ZodType<T>, query: string, variables: object): Promise<T> {
    const where = `linear ${this.config.team}: ${what}`;
    const raw = await trackerRequest(
      this.config.api_url,
      { method: 'POST', headers: { authorization: this.key }, body: { query, variables } },
      { where, tokenVar: 'LINEAR_API_KEY', timeoutMs: this.timeoutMs },
    );
    const answer = GraphQlAnswer.safeParse(raw);
    if (!answer.success) throw new TrackerError('refused', `${where}: the answer is not GraphQL`);
    const first = answer.data.errors?.[0];
    if (first) {
      const type = first.extensions?.type ?? '';
      const auth = /authenticat/i.test(`${type} ${first.message}`);
      throw new TrackerError(
        auth ? 'auth' : 'refused',
        auth ? `${where}: LINEAR_API_KEY was refused (${first.message})` : `${where}: ${first.message}`,
      );
    }
    const data = schema.safeParse(answer.data.data);
    if (!data.success)
      throw new TrackerError(
        'refused',
        `${where}: unexpected answer at ${data.error.issues[0]?.path.join('.') ?? ''}`,
      );
    return data.data;
  }

  /** Every issue of the team carrying the label, not started, every page. */
  async labelled(): Promise<LinearIssue[]> {
    const out: LinearIssue[] = [];
    let after: string | null = null;
    for (;;) {
      const page: z.infer<typeof IssuesAnswer> = await this.query('list issues', IssuesAnswer, ISSUES, {
        team: this.config.team,
        label: this.config.label,
        after,
      });
      for (const n of page.issues.nodes) {
        const blockedBy = await this.blockers(n.id, n.identifier, n.inverseRelations);
        out.push({
          uuid: n.id,
          identifier: n.identifier,
          title: n.title,
          description: n.description ?? '',
          linearPriority: n.priority,
          url: n.url,
          parent: (n.children?.nodes.length ?? 0) > 0,
          ...(blockedBy.length > 0 ? { blockedBy } : {}),
        });
      }
      const next = page.issues.pageInfo;
      if (!next.hasNextPage || !next.endCursor) return out;
      after = next.endCursor;
    }
  }

  /**
   * The open blockers of one issue from its first page of relations, reading the rest when there is
   * more: a blocker missed would file its item before the work it waits on.
   */
  private async blockers(
    uuid: string,
    identifier: string,
    first: z.infer<typeof Relations>,
  ): Promise<string[]> {
    const out = openBlockers(first);
    let page = first.pageInfo;
    while (page.hasNextPage && page.endCursor) {
      const more = await this.query(`relations of ${identifier}`, BlockersAnswer, BLOCKERS, {
        id: uuid,
        relationsAfter: page.endCursor,
      });
      out.push(...openBlockers(more.issue.inverseRelations));
      page = more.issue.inverseRelations.pageInfo;
    }
    return [...new Set(out)];
  }

  async comment(identifier: string, body: string): Promise<void> {
    const { issue } = await this.query(`find ${identifier}`, IssueAnswer, ISSUE_ID, { id: identifier });
    await this.query(`comment on ${identifier}`, Success('commentCreate'), COMMENT, {
      input: { issueId: issue.id, body },
    });
  }

  /** Moves the issue to its team's first completed state. */
  async close(identifier: string): Promise<void> {
    const { issue } = await this.query(`find ${identifier}`, IssueAnswer, ISSUE_ID, { id: identifier });
    const states = await this.query('list completed states', DoneStates, DONE_STATES, {
      team: issue.team.key,
    });
    const done = [...states.workflowStates.nodes].sort((a, b) => a.position - b.position)[0];
    if (!done) throw new TrackerError('refused', `linear ${issue.team.key}: the team has no completed state`);
    await this.query(`close ${identifier}`, Success('issueUpdate'), UPDATE, {
      id: issue.id,
      stateId: done.id,
    });
  }
}

/**
 * Linear's priority on auto-intake's scale (0 most urgent): urgent 0, high 1, medium 2, low 3;
 * "no priority" (0) takes the configured default.
 */
export function linearPriority(p: number, fallback: number | null): number | null {
  if (p >= 1 && p <= 4 && Number.isInteger(p)) return p - 1;
  return fallback;
}
