import { z } from 'zod';
import type { JiraIntake } from '../../../contract/config/intake.js';
import { TrackerError, trackerRequest } from './http.js';

/*
 * Jira through its REST API (`JIRA_API_TOKEN`). Jira Cloud (an `email` set, basic auth) speaks v3:
 * the `search/jql` endpoint paged by `nextPageToken`, descriptions and comments in Atlassian
 * Document Format. Jira Data Center (no email, the token a bearer PAT) speaks v2: `search` paged by
 * `startAt`, plain text. A close takes the issue's first transition into the "done" category.
 */

export interface JiraIssue {
  key: string;
  title: string;
  description: string;
  priorityName: string | null;
  /** An Epic (or any type above a story in the hierarchy). */
  epic: boolean;
  url: string;
  /** The keys of the issues not yet done that an "is blocked by" link says block it; absent when none do. */
  blockedBy?: string[];
}

const PAGE = 50;
const FIELDS = 'summary,description,priority,issuetype,issuelinks';

/*
 * Each link is seen from the issue read: `inwardIssue` is the other end when the link reads
 * "<this> <type.inward> <inwardIssue>", so on a Blocks link it is the issue that blocks this one.
 */
const Link = z.object({
  type: z.object({ name: z.string(), inward: z.string().nullish() }),
  inwardIssue: z
    .object({
      key: z.string(),
      fields: z
        .object({
          status: z.object({ statusCategory: z.object({ key: z.string() }).nullish() }).nullish(),
        })
        .nullish(),
    })
    .nullish(),
});

const Issue = z.object({
  key: z.string(),
  fields: z.object({
    summary: z.string().nullish(),
    description: z.unknown().optional(),
    priority: z.object({ name: z.string() }).nullish(),
    issuetype: z.object({ name: z.string(), hierarchyLevel: z.number().optional() }).nullish(),
    issuelinks: z.array(Link).nullish(),
  }),
});

/**
 * The issues that block one and are not done. A link type is known by its inward wording (a site's
 * own types may use it too) or as Jira's own Blocks type (whose wording a site may change); a
 * blocker whose status is not said is kept, since filing early would do the work out of order.
 */
function openBlockers(links: readonly z.infer<typeof Link>[]): string[] {
  const keys = links.flatMap((l) => {
    const blocks =
      l.type.inward?.trim().toLowerCase() === 'is blocked by' ||
      l.type.name.trim().toLowerCase() === 'blocks';
    const by = l.inwardIssue;
    if (!blocks || !by || by.fields?.status?.statusCategory?.key === 'done') return [];
    return [by.key];
  });
  return [...new Set(keys)];
}

const CloudPage = z.object({
  issues: z.array(Issue),
  nextPageToken: z.string().nullish(),
  isLast: z.boolean().optional(),
});
const ServerPage = z.object({
  issues: z.array(Issue),
  startAt: z.number(),
  total: z.number(),
});
const Transitions = z.object({
  transitions: z.array(
    z.object({
      id: z.string(),
      to: z.object({ statusCategory: z.object({ key: z.string() }).optional() }).optional(),
    }),
  ),
});

/** The text of an Atlassian Document Format node (or a v2 plain string), paragraphs on their own lines. */
export function adfText(node: unknown): string {
  if (typeof node === 'string') return node;
  if (!node || typeof node !== 'object') return '';
  const n = node as { type?: unknown; text?: unknown; content?: unknown };
  if (n.type === 'text' && typeof n.text === 'string') return n.text;
  if (n.type === 'hardBreak') return '\n';
  const inner = Array.isArray(n.content) ? n.content.map(adfText) : [];
  const block = ['paragraph', 'heading', 'listItem', 'codeBlock', 'blockquote'].includes(String(n.type));
  return block ? `${inner.join('')}\n` : inner.join(n.type === 'doc' ? '\n' : '');
}

const adfDoc = (text: string) => ({
  type: 'doc',
  version: 1,
  content: text.split(/\n{2,}/).map((p) => ({ type: 'paragraph', content: [{ type: 'text', text: p }] })),
});

/** A JQL string literal. */
const jqlString = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

export class JiraClient {
  private readonly cloud: boolean;
  private readonly auth: string;
  private readonly site: string;

  constructor(
    private readonly config: Pick<JiraIntake, 'site' | 'project' | 'jql'>,
    token: string,
    email: string | null,
    private readonly timeoutMs: number,
  ) {
    this.cloud = email !== null;
    this.auth =
      email !== null ? `Basic ${Buffer.from(`${email}:${token}`).toString('base64')}` : `Bearer ${token}`;
    this.site = config.site.replace(/\/+$/, '');
  }

  private get api(): string {
    return `${this.site}/rest/api/${this.cloud ? 3 : 2}`;
  }

  private call(what: string, method: string, path: string, body?: unknown): Promise<unknown> {
    return trackerRequest(
      `${this.api}${path}`,
      { method, headers: { authorization: this.auth }, body },
      {
        where: `jira ${this.config.project}: ${what}`,
        tokenVar: 'JIRA_API_TOKEN',
        timeoutMs: this.timeoutMs,
      },
    );
  }

  private parse<T>(what: string, schema: z.ZodType<T>, raw: unknown): T {
    const r = schema.safeParse(raw);
    if (!r.success)
      throw new TrackerError(
        'refused',
        `jira ${this.config.project}: ${what}: unexpected answer at ${r.error.issues[0]?.path.join('.') ?? ''}`,
      );
    return r.data;
  }

  /** The JQL auto-intake reads: the project's issues, narrowed by `jql` (default: to do). */
  get jql(): string {
    return `project = ${jqlString(this.config.project)} AND (${this.config.jql ?? 'statusCategory = "To Do"'}) ORDER BY created ASC`;
  }

  /** Every issue the JQL finds, every page. */
  async search(): Promise<JiraIssue[]> {
    const raw: z.infer<typeof Issue>[] = [];
    if (this.cloud) {
      let token: string | null = null;
      for (;;) {
        const q = new URLSearchParams({ jql: this.jql, fields: FIELDS, maxResults: String(PAGE) });
        if (token) q.set('nextPageToken', token);
        const page = this.parse(
          'search',
          CloudPage,
          await this.call('search', 'GET', `/search/jql?${q.toString()}`),
        );
        raw.push(...page.issues);
        if (page.isLast === true || !page.nextPageToken || page.issues.length === 0) break;
        token = page.nextPageToken;
      }
    } else {
      for (let startAt = 0; ;) {
        const q = new URLSearchParams({
          jql: this.jql,
          fields: FIELDS,
          maxResults: String(PAGE),
          startAt: String(startAt),
        });
        const page = this.parse(
          'search',
          ServerPage,
          await this.call('search', 'GET', `/search?${q.toString()}`),
        );
        raw.push(...page.issues);
        startAt = page.startAt + page.issues.length;
        if (page.issues.length === 0 || startAt >= page.total) break;
      }
    }
    return raw.map((i) => {
      const blockedBy = openBlockers(i.fields.issuelinks ?? []);
      return {
        key: i.key,
        title: i.fields.summary ?? '',
        description: adfText(i.fields.description).trim(),
        priorityName: i.fields.priority?.name ?? null,
        epic: i.fields.issuetype?.name === 'Epic' || (i.fields.issuetype?.hierarchyLevel ?? 0) > 0,
        url: `${this.site}/browse/${i.key}`,
        ...(blockedBy.length > 0 ? { blockedBy } : {}),
      };
    });
  }

  async comment(key: string, text: string): Promise<void> {
    await this.call(`comment on ${key}`, 'POST', `/issue/${encodeURIComponent(key)}/comment`, {
      body: this.cloud ? adfDoc(text) : text,
    });
  }

  /** Takes the issue's first transition into the done category. */
  async close(key: string): Promise<void> {
    const path = `/issue/${encodeURIComponent(key)}/transitions`;
    const t = this.parse('transitions', Transitions, await this.call(`transitions of ${key}`, 'GET', path));
    const done = t.transitions.find((x) => x.to?.statusCategory?.key === 'done');
    if (!done)
      throw new TrackerError('refused', `jira ${this.config.project}: ${key} has no transition to done`);
    await this.call(`close ${key}`, 'POST', path, { transition: { id: done.id } });
  }
}

/** Jira's priority names on auto-intake's scale (Cloud's and Data Center's defaults), over which `priorities` goes. */
const PRIORITY_NAMES: Record<string, number> = {
  highest: 0,
  blocker: 0,
  high: 1,
  critical: 1,
  medium: 2,
  major: 2,
  low: 3,
  minor: 3,
  lowest: 4,
  trivial: 4,
};

export function jiraPriority(
  name: string | null,
  config: Pick<JiraIntake, 'priorities' | 'default_priority'>,
): number | null {
  if (name === null) return config.default_priority;
  const own = Object.entries(config.priorities).find(([k]) => k.toLowerCase() === name.toLowerCase());
  if (own) return own[1];
  return PRIORITY_NAMES[name.toLowerCase()] ?? config.default_priority;
}
