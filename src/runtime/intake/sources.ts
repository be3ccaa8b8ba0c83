import type { ForgeIssuesIntake, IntakeFile } from '../../contract/config/intake.js';
import type { RepoEntry } from '../../contract/config/repos.js';
import type { IssueTracker } from '../../contract/item-issues.js';
import { forgeIssues } from '../forge/issues-clients.js';
import type { ForgeIssue } from '../forge/issues.js';
import { repoForge } from '../forge/for-repo.js';
import { blockedBeads, readyBeads, type ReadyBead } from './beads.js';
import { JiraClient, jiraPriority } from './trackers/jira.js';
import { LinearClient, linearPriority } from './trackers/linear.js';

/*
 * Where auto-intake's issues come from (docs/intake.md): beads in each polled repository, the
 * issues on its forge carrying the configured label, a Linear team and a Jira project. Every source
 * answers the same shape, so the rules see one list; a source that cannot be read is passed with a
 * reason, never failing the poll.
 */

/** One ready issue of any tracker, as the rules see it. */
export interface IntakeIssue {
  tracker: IssueTracker;
  id: string;
  title: string;
  description: string;
  /** Checked by the rules: a non-integer is skipped as above_priority_ceiling. */
  priority: unknown;
  epic: boolean;
  url: string | null;
  /** The repository its item is filed in. */
  repo: RepoEntry;
  /**
   * The open issues of the same tracker that block it (their ids there): it is filed coming after
   * their items, once each has one. Absent or empty: nothing blocks it, it is ready.
   */
  blockedBy?: string[];
}

/** A source that could not be read: `quiet` when that is normal (a repo with no beads, no forge). */
export interface SourceProblem {
  source: string;
  reason: string;
  quiet: boolean;
}

export interface SourceRead {
  issues: IntakeIssue[];
  problems: SourceProblem[];
}

export interface SourceDeps {
  env: NodeJS.ProcessEnv;
  /** Bound of one tracker request (policy forge_cli_timeout_s). */
  timeoutMs: number;
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The most urgent priority label an issue carries, else the default. */
export function forgePriority(labels: readonly string[], config: ForgeIssuesIntake): number | null {
  const found = labels.flatMap((l) => {
    const p = Object.entries(config.priority_labels).find(([k]) => k.toLowerCase() === l.toLowerCase());
    return p ? [p[1]] : [];
  });
  return found.length > 0 ? Math.min(...found) : config.default_priority;
}

async function beadsOf(repo: RepoEntry, d: SourceDeps, out: SourceRead): Promise<void> {
  const r = await readyBeads(repo.path, d.env);
  if (!r.ok) {
    out.problems.push({ source: `beads ${repo.path}`, reason: r.reason, quiet: r.skip === 'no_beads' });
    return;
  }
  const toIssue = (b: ReadyBead, blockedBy: string[] = []): IntakeIssue => ({
    tracker: 'beads',
    id: b.id,
    title: b.title,
    description: b.description ?? '',
    priority: b.priority,
    epic: b.issue_type === 'epic',
    url: null,
    repo,
    ...(blockedBy.length > 0 ? { blockedBy } : {}),
  });
  for (const b of r.beads) out.issues.push(toIssue(b));
  const blocked = await blockedBeads(repo.path, d.env);
  // A bd without `blocked` (older versions) files what is ready, as before: nothing to fix.
  if (!blocked.ok)
    out.problems.push({
      source: `beads ${repo.path}`,
      reason: blocked.reason,
      quiet: blocked.reason.includes('unknown command'),
    });
  else for (const b of blocked.beads) if (b.blocked_by?.length) out.issues.push(toIssue(b, b.blocked_by));
}

async function forgeIssuesOf(
  repo: RepoEntry,
  config: ForgeIssuesIntake,
  d: SourceDeps,
  out: SourceRead,
): Promise<void> {
  const source = `issues ${repo.path}`;
  const forge = await repoForge(repo);
  if (!forge.ok) {
    // A repository with no forge is normal; a forge without a token is something to fix.
    out.problems.push({ source, reason: forge.reason, quiet: forge.stop === 'config' });
    return;
  }
  const client = forgeIssues(forge.location, forge.token, d.timeoutMs);
  let list: ForgeIssue[];
  try {
    list = await client.labelled(config.label);
  } catch (err) {
    out.problems.push({ source, reason: message(err), quiet: false });
    return;
  }
  const epic = config.epic_label.toLowerCase();
  const label = config.label.toLowerCase();
  // Gitea drops a label filter naming a label the repository lacks and answers every open issue:
  // only an issue that carries the label is taken, whatever the forge did with the filter.
  for (const i of list.filter((x) => x.labels.some((l) => l.toLowerCase() === label))) {
    const id = `${forge.location.project}#${i.number}`;
    let blockedBy: string[];
    try {
      blockedBy = await client.blockedBy(i.number);
    } catch (err) {
      // Taken as ready, it could be filed before its blockers and done in the wrong order.
      out.problems.push({
        source,
        reason: `${id} left for the next poll: what blocks it could not be read: ${message(err)}`,
        quiet: false,
      });
      continue;
    }
    out.issues.push({
      tracker: forge.location.forge,
      id,
      title: i.title,
      description: i.body,
      priority: forgePriority(i.labels, config),
      epic: i.labels.some((l) => l.toLowerCase() === epic),
      url: i.url,
      repo,
      ...(blockedBy.length > 0 ? { blockedBy } : {}),
    });
  }
}

/**
 * The repository a Linear or Jira issue is filed in: the one named, else the only polled one. Null
 * with why when that is not one connected repository.
 */
function trackerRepo(named: string | undefined, polled: readonly RepoEntry[]): RepoEntry | string {
  if (named !== undefined)
    return polled.find((r) => r.path === named) ?? `repo ${named} is not a polled, connected, enabled repo`;
  const [only, ...more] = polled;
  if (only && more.length === 0) return only;
  return `${polled.length} repos are polled; say which one its items are filed in with repo:`;
}

async function linearOf(intake: IntakeFile, polled: readonly RepoEntry[], d: SourceDeps, out: SourceRead) {
  const config = intake.linear;
  if (!config) return;
  const source = `linear ${config.team}`;
  const repo = trackerRepo(config.repo, polled);
  if (typeof repo === 'string') return void out.problems.push({ source, reason: repo, quiet: false });
  const key = d.env.LINEAR_API_KEY?.trim();
  if (!key) return void out.problems.push({ source, reason: 'LINEAR_API_KEY is not set', quiet: false });
  try {
    for (const i of await new LinearClient(config, key, d.timeoutMs).labelled())
      out.issues.push({
        tracker: 'linear',
        id: i.identifier,
        title: i.title,
        description: i.description,
        priority: linearPriority(i.linearPriority, config.default_priority),
        epic: i.parent,
        url: i.url,
        repo,
        ...(i.blockedBy ? { blockedBy: i.blockedBy } : {}),
      });
  } catch (err) {
    out.problems.push({ source, reason: message(err), quiet: false });
  }
}

async function jiraOf(intake: IntakeFile, polled: readonly RepoEntry[], d: SourceDeps, out: SourceRead) {
  const config = intake.jira;
  if (!config) return;
  const source = `jira ${config.project}`;
  const repo = trackerRepo(config.repo, polled);
  if (typeof repo === 'string') return void out.problems.push({ source, reason: repo, quiet: false });
  const token = d.env.JIRA_API_TOKEN?.trim();
  if (!token) return void out.problems.push({ source, reason: 'JIRA_API_TOKEN is not set', quiet: false });
  const email = config.email ?? (d.env.JIRA_EMAIL?.trim() || null);
  try {
    for (const i of await new JiraClient(config, token, email, d.timeoutMs).search())
      out.issues.push({
        tracker: 'jira',
        id: i.key,
        title: i.title,
        description: i.description,
        priority: jiraPriority(i.priorityName, config),
        epic: i.epic,
        url: i.url,
        repo,
        ...(i.blockedBy ? { blockedBy: i.blockedBy } : {}),
      });
  } catch (err) {
    out.problems.push({ source, reason: message(err), quiet: false });
  }
}

/** Every source's ready issues for one poll. */
export async function readSources(
  intake: IntakeFile,
  polled: readonly RepoEntry[],
  d: SourceDeps,
): Promise<SourceRead> {
  const out: SourceRead = { issues: [], problems: [] };
  for (const repo of polled) {
    await beadsOf(repo, d, out);
    if (intake.issues) await forgeIssuesOf(repo, intake.issues, d, out);
  }
  await linearOf(intake, polled, d, out);
  await jiraOf(intake, polled, d, out);
  return out;
}
