import type { IntakeFile } from '../../contract/config/intake.js';
import type { RepoEntry } from '../../contract/config/repos.js';
import { FORGE_TRACKERS, type ItemIssue } from '../../contract/item-issues.js';
import { forgeIssueRef } from '../../core/forge/mr-meta.js';
import { repoForge } from '../forge/for-repo.js';
import { forgeIssues } from '../forge/issues-clients.js';
import { JiraClient } from './trackers/jira.js';
import { LinearClient } from './trackers/linear.js';

/** What Jig does to an issue in its tracker once it is an item: comment on it, close it. */
export interface IssueHandle {
  comment(body: string): Promise<void>;
  close(): Promise<void>;
}

export interface HandleDeps {
  repos: { find(path: string): RepoEntry | null };
  config: { readonly intake: IntakeFile | null; readonly policy: { forge_cli_timeout_s?: number } | null };
  env: NodeJS.ProcessEnv;
}

/**
 * How to reach an issue of an item filed in `repo` (not a bead: `bd` has its own path), or why it
 * cannot be reached now (no token, the forge moved, the tracker no longer configured).
 */
export async function issueHandle(
  issue: ItemIssue,
  repo: string,
  d: HandleDeps,
): Promise<IssueHandle | string> {
  const timeoutMs = (d.config.policy?.forge_cli_timeout_s ?? 120) * 1000;
  if (FORGE_TRACKERS.includes(issue.tracker)) {
    const ref = forgeIssueRef(issue.id);
    if (!ref) return `${issue.id} is not a forge issue id`;
    const entry = d.repos.find(repo);
    if (!entry) return `repo ${repo} is no longer connected`;
    const forge = await repoForge(entry);
    if (!forge.ok) return forge.reason;
    if (forge.location.forge !== issue.tracker || forge.location.project !== ref.project)
      return `the repo's forge is now ${forge.location.forge} ${forge.location.project}, not ${issue.tracker} ${ref.project}`;
    const client = forgeIssues(forge.location, forge.token, timeoutMs);
    return { comment: (body) => client.comment(ref.number, body), close: () => client.close(ref.number) };
  }
  if (issue.tracker === 'linear') {
    const key = d.env.LINEAR_API_KEY?.trim();
    if (!key) return 'LINEAR_API_KEY is not set';
    const config = d.config.intake?.linear ?? {
      api_url: 'https://api.linear.app/graphql',
      team: '',
      label: '',
    };
    const client = new LinearClient(config, key, timeoutMs);
    return { comment: (body) => client.comment(issue.id, body), close: () => client.close(issue.id) };
  }
  if (issue.tracker === 'jira') {
    const config = d.config.intake?.jira;
    if (!config) return 'intake.yaml has no jira: site to reach it';
    const token = d.env.JIRA_API_TOKEN?.trim();
    if (!token) return 'JIRA_API_TOKEN is not set';
    const email = config.email ?? (d.env.JIRA_EMAIL?.trim() || null);
    const client = new JiraClient(config, token, email, timeoutMs);
    return { comment: (body) => client.comment(issue.id, body), close: () => client.close(issue.id) };
  }
  return `${issue.tracker} issues are closed with bd, not reached here`;
}
