import { z } from 'zod';
import type { ForgeLocation } from '../../core/forge/locate.js';
import { GiteaClient } from './gitea.js';
import { GitHubClient } from './github.js';
import { GitLabClient } from './gitlab.js';
import { fromRest, type ForgeIssue, type ForgeIssues } from './issues.js';

/*
 * The issue side of each forge client: the same connection, token, time limit and error mapping as
 * its merge requests, so auto-intake reads issues exactly as the forge tasks speak to the forge.
 */

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

class GiteaIssues extends GiteaClient implements ForgeIssues {
  async labelled(label: string): Promise<ForgeIssue[]> {
    const q = new URLSearchParams({ state: 'open', type: 'issues', labels: label });
    return fromRest(await this.all<unknown>('list issues', `${this.repoPath}/issues?${q.toString()}`));
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
