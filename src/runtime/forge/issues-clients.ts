import { z } from 'zod';
import type { ForgeLocation } from '../../core/forge/locate.js';
import { GiteaClient } from './gitea.js';
import { GitHubClient } from './github.js';
import { GitLabClient } from './gitlab.js';
import { blockerId, fromRest, type ForgeIssue, type ForgeIssues } from './issues.js';
import { ForgeError } from './types.js';

/*
 * The issue side of each forge client: the same connection, token, time limit and error mapping as
 * its merge requests, so auto-intake reads issues exactly as the forge tasks speak to the forge.
 */

/** A string the pattern's first group takes a project path from; anything else fails the parse. */
const projectIn = (pattern: RegExp) =>
  z.string().transform((s, ctx) => {
    const path = pattern.exec(s)?.[1];
    if (path) return path;
    ctx.addIssue({ code: 'custom', message: `no project path in ${s}` });
    return z.NEVER;
  });

/** A forge that has dependencies turned off (or lacks them) answers 404: then nothing blocks. */
async function noneWhenMissing(read: () => Promise<string[]>): Promise<string[]> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ForgeError && err.kind === 'not_found') return [];
    throw err;
  }
}

/** An issue GitHub's "blocked by" dependencies list: `https://api.github.com/repos/OWNER/REPO`. */
const GitHubBlocker = z.object({
  number: z.number().int(),
  state: z.string(),
  repository_url: projectIn(/\/repos\/([^/]+\/[^/]+?)\/?$/),
});

class GitHubIssues extends GitHubClient implements ForgeIssues {
  async labelled(label: string): Promise<ForgeIssue[]> {
    const all = await this.call('list issues', (kit) =>
      kit.paginate(kit.rest.issues.listForRepo, {
        ...this.at,
        state: 'open',
        labels: label,
        per_page: 100,
      }),
    );
    return fromRest(all);
  }

  async blockedBy(number: number): Promise<string[]> {
    return noneWhenMissing(async () => {
      const all = await this.call(`list what blocks issue #${number}`, (kit) =>
        kit.paginate(kit.rest.issues.listDependenciesBlockedBy, {
          ...this.at,
          issue_number: number,
          per_page: 100,
        }),
      );
      return z
        .array(GitHubBlocker)
        .parse(all)
        .filter((i) => i.state === 'open')
        .map((i) => blockerId(this.location.project, i.repository_url, i.number));
    });
  }

  async comment(number: number, body: string): Promise<void> {
    await this.call(`comment on issue #${number}`, (kit) =>
      kit.rest.issues.createComment({ ...this.at, issue_number: number, body }),
    );
  }

  async close(number: number): Promise<void> {
    await this.call(`close issue #${number}`, (kit) =>
      kit.rest.issues.update({
        ...this.at,
        issue_number: number,
        state: 'closed',
        state_reason: 'completed',
      }),
    );
  }
}

const GitLabIssue = z.object({
  iid: z.number().int(),
  title: z.string(),
  description: z.string().nullish(),
  web_url: z.string(),
  labels: z.array(z.union([z.string(), z.object({ name: z.string() })])).default([]),
});

/**
 * A linked issue, as seen from the issue asked about. The project is in `references.full`
 * (`group/app#12`), else in `web_url` (`https://host/group/app/-/issues/12`); GitLab Free has
 * only `relates_to` links.
 */
const GitLabLink = z.object({
  iid: z.number().int(),
  state: z.string(),
  link_type: z.string().nullish(),
  references: z.object({ full: projectIn(/^(.+)#\d+$/) }).nullish(),
  web_url: z.string(),
});

const GITLAB_ISSUE_URL = /^https?:\/\/[^/]+\/(.+?)\/-\/issues\/\d+/;

class GitLabIssues extends GitLabClient implements ForgeIssues {
  async labelled(label: string): Promise<ForgeIssue[]> {
    const all: unknown = await this.call('list issues', (api) =>
      api.Issues.all({ projectId: this.project, state: 'opened', labels: label, perPage: 100 }),
    );
    return z
      .array(GitLabIssue)
      .parse(all)
      .map((i) => ({
        number: i.iid,
        title: i.title,
        body: i.description ?? '',
        url: i.web_url,
        labels: i.labels.map((l) => (typeof l === 'string' ? l : l.name)),
      }));
  }

  async blockedBy(number: number): Promise<string[]> {
    const all: unknown = await this.call(`list the links of issue #${number}`, (api) =>
      api.IssueLinks.all(this.project, number),
    );
    return z
      .array(GitLabLink)
      .parse(all)
      .filter((l) => l.link_type === 'is_blocked_by' && l.state === 'opened')
      .map((l) => {
        const project = l.references?.full ?? projectIn(GITLAB_ISSUE_URL).parse(l.web_url);
        return blockerId(this.project, project, l.iid);
      });
  }

  async comment(number: number, body: string): Promise<void> {
    await this.call(`comment on issue #${number}`, (api) =>
      api.IssueNotes.create(this.project, number, body),
    );
  }

  async close(number: number): Promise<void> {
    await this.call(`close issue #${number}`, (api) =>
      api.Issues.edit(this.project, number, { stateEvent: 'close' }),
    );
  }
}

/** An issue (or pull request) Gitea says this one depends on. */
const GiteaDependency = z.object({
  number: z.number().int(),
  state: z.string(),
  repository: z.object({ full_name: z.string().regex(/^[^/]+\/[^/]+$/) }),
});

class GiteaIssues extends GiteaClient implements ForgeIssues {
  async labelled(label: string): Promise<ForgeIssue[]> {
    const q = new URLSearchParams({ state: 'open', type: 'issues', labels: label });
    return fromRest(await this.all<unknown>('list issues', `${this.repoPath}/issues?${q.toString()}`));
  }

  async blockedBy(number: number): Promise<string[]> {
    return noneWhenMissing(async () => {
      const all = await this.all<unknown>(
        `list what issue #${number} depends on`,
        `${this.repoPath}/issues/${number}/dependencies`,
      );
      return z
        .array(GiteaDependency)
        .parse(all)
        .filter((i) => i.state === 'open')
        .map((i) => blockerId(this.location.project, i.repository.full_name, i.number));
    });
  }

  async comment(number: number, body: string): Promise<void> {
    await this.request(`comment on issue #${number}`, 'POST', `${this.repoPath}/issues/${number}/comments`, {
      body,
    });
  }

  async close(number: number): Promise<void> {
    await this.request(`close issue #${number}`, 'PATCH', `${this.repoPath}/issues/${number}`, {
      state: 'closed',
    });
  }
}

/** The issues of a repository's forge; every request bounded by `timeoutMs`. */
export function forgeIssues(location: ForgeLocation, token: string, timeoutMs: number): ForgeIssues {
  switch (location.forge) {
    case 'github':
      return new GitHubIssues(location, token, timeoutMs);
    case 'gitlab':
      return new GitLabIssues(location, token, timeoutMs);
    case 'gitea':
      return new GiteaIssues(location, token, timeoutMs);
  }
}
