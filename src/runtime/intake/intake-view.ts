import { existsSync } from 'node:fs';
import type { RepoEntry } from '../../contract/config/repos.js';
import { IntakeFile } from '../../contract/config/intake.js';
import { JigError } from '../../contract/errors.js';
import type { IntakeAnswer, ScheduleProblem, ScheduleView } from '../../contract/intake-route.js';
import { nextFireAfter } from '../../core/cron/index.js';
import { cleanScheduleTitle } from '../../core/schedule/title.js';
import { unknownChain, type ChainCatalog } from '../items/chain-catalog.js';
import type { ReposService } from '../repos/repos-service.js';
import type { RunningSchedule } from './schedule-entries.js';

export interface IntakeViewDeps {
  config: { intake: IntakeFile | null; intakeOff: boolean; invalidIntake: string | null };
  repos: Pick<ReposService, 'find'>;
  chains: ChainCatalog;
  schedules: readonly RunningSchedule[];
  now: number;
}

type RepoCheck = { entry: RepoEntry | null; problem: string | null };

function checkRepo(repos: IntakeViewDeps['repos'], path: string): RepoCheck {
  try {
    const entry = repos.find(path);
    if (!entry) return { entry: null, problem: new JigError('repo_not_connected', { path }).message };
    if (!existsSync(entry.path)) return { entry, problem: new JigError('repo_gone', { path }).message };
    if (entry.enabled === false) return { entry, problem: `repo ${entry.path} is disabled` };
    return { entry, problem: null };
  } catch (err) {
    return { entry: null, problem: (err as Error).message };
  }
}

/**
 * `GET /api/intake`: the running intake settings and each running schedule with when it next
 * fires and what would make it skip now. The same checks as a firing, short of filing: a repo not
 * connected, a chain the library does not have, a cron that cannot be used, a blank title.
 */
export function intakeAnswer(deps: IntakeViewDeps): IntakeAnswer {
  const settings = deps.config.intake ?? IntakeFile.parse({});
  const repoChecks = new Map<string, RepoCheck>();
  const schedules = deps.schedules.map((e): ScheduleView => {
    const problems: ScheduleProblem[] = [];
    if (e.cronError) problems.push({ field: 'cron', message: e.cronError.message });
    let repo = repoChecks.get(e.repo);
    if (!repo) repoChecks.set(e.repo, (repo = checkRepo(deps.repos, e.repo)));
    if (repo.problem) problems.push({ field: 'repo', message: repo.problem });
    // A legacy trigger without a chain files with its repo's default, like POST /api/triggers.
    const chain = e.chain ?? e.chainTemplate ?? (repo.entry ? (repo.entry.default_chain ?? 'default') : null);
    if (chain !== null) {
      const found = deps.chains.lookup(chain);
      if (!found.ok)
        problems.push({
          field: 'chain',
          message:
            found.reason === 'unknown'
              ? unknownChain(chain, found.known).message
              : new JigError('chain_unresolved', { chain, reason: found.detail }).message,
        });
    }
    if (cleanScheduleTitle(e.title, e.description).blank)
      problems.push({ field: 'title', message: 'the title and the description are both blank' });
    const next = e.compiled && problems.length === 0 ? nextFireAfter(e.compiled, new Date(deps.now)) : null;
    return {
      index: e.index,
      source: e.source,
      cron: e.cron,
      repo: e.repo,
      chain: e.chain ?? e.chainTemplate ?? null,
      title: e.title,
      description: e.description,
      next_fire_at: next ? next.toISOString() : null,
      problems,
    };
  });
  return {
    enabled: settings.enabled,
    interval_s: settings.interval_s,
    priority_ceiling: settings.priority_ceiling,
    repos: settings.repos,
    intake_off: deps.config.intakeOff,
    invalid_intake: deps.config.invalidIntake,
    schedules,
  };
}
