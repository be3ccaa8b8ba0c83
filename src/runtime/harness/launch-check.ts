import { DEFAULT_HARNESS, type HarnessesFile } from '../../contract/config/harnesses.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { RepoEntry } from '../../contract/config/repos.js';
import type { ProviderDefinition } from '../../contract/harness/provider.js';
import { agentTasksOf } from '../../core/chain/agent-tasks.js';
import type { ResolvedChain } from '../../core/chain/model.js';
import { own } from '../../core/json/own.js';
import { toolPolicies } from '../../core/policy/ratchet.js';
import { formatProblem } from '../../contract/problems.js';
import { loadHarnesses } from '../../core/config/load-settings.js';
import { readConfigText } from '../config/config-dir.js';
import { candidates } from '../workers/agent-candidates.js';
import type { HarnessCatalog } from './catalog.js';
import { resolveExecutable } from './installed.js';

/** An agent task that cannot start on this machine as things are: every candidate it has fails. */
export interface LaunchProblem {
  node: string;
  task: string;
  /** Each candidate harness in order, with why it cannot launch. */
  reason: string;
}

export interface LaunchCheckInput {
  chain: ResolvedChain;
  /** Nodes the walk will pass without running (skip_nodes, attachments). */
  passed: ReadonlySet<string>;
  harnesses: HarnessesFile | null;
  /** Why harnesses.yaml does not load, when it does not. */
  harnessesProblem: string;
  providers: Record<string, ProviderDefinition>;
  policy: PolicyFile | null;
  repo: RepoEntry;
  /** Whether an executable resolves here (PATH, or an absolute path that runs). */
  installed: (executable: string) => boolean;
}

/** Why one harness cannot launch here, or null when it can. */
function harnessProblem(
  id: string,
  i: LaunchCheckInput,
  files: HarnessesFile,
  allowed: readonly string[] | null | undefined,
): string | null {
  const h = own(files.harnesses, id);
  if (!h) return `harness ${id} is not in harnesses.yaml`;
  if (h.enabled === false) return `harness ${id} is disabled in harnesses.yaml`;
  if (allowed && !allowed.includes(id)) return `policy does not allow harness ${id}`;
  const def = own(i.providers, h.provider);
  const exe = h.executable ?? def?.command[0] ?? h.provider;
  if (!i.installed(exe)) return `${id}: ${exe} is not installed here (not on PATH)`;
  return null;
}

/**
 * The agent tasks of the nodes that will run whose every candidate (the harness, then its
 * fallbacks) fails a check Jig can make before any launch: the harness is defined and enabled,
 * policy allows it, its CLI is installed. A login cannot be checked from here (a key may come from
 * the repo's `env`, the CLI's own config or a base URL), so it is not guessed at.
 */
export function launchProblems(i: LaunchCheckInput): LaunchProblem[] {
  const tools = toolPolicies(i.chain, i.policy, i.repo.policy);
  const out: LaunchProblem[] = [];
  for (const node of i.chain.nodes) {
    if (i.passed.has(node.id)) continue;
    for (const task of agentTasksOf(node)) {
      if (!i.harnesses) {
        out.push({
          node: node.id,
          task: task.path,
          reason: `harnesses.yaml does not load: ${i.harnessesProblem}`,
        });
        continue;
      }
      const allowed = tools.get(task.path)?.allowed_harnesses;
      const why: string[] = [];
      for (const c of candidates(task, i.harnesses)) {
        const id = typeof c.task.harness === 'string' ? c.task.harness : DEFAULT_HARNESS;
        const p = harnessProblem(id, i, i.harnesses, allowed);
        if (p === null) {
          why.length = 0;
          break;
        }
        if (!why.includes(p)) why.push(p);
      }
      if (why.length > 0) out.push({ node: node.id, task: task.path, reason: why.join('; ') });
    }
  }
  return out;
}

/** The check as the dry run calls it: harnesses.yaml and the provider files read as they are now. */
export type LaunchCheck = (
  chain: ResolvedChain,
  passed: ReadonlySet<string>,
  repo: RepoEntry,
) => LaunchProblem[];

export function launchChecker(
  configDir: string,
  catalog: Pick<HarnessCatalog, 'providers'>,
  policy: () => PolicyFile | null,
): LaunchCheck {
  return (chain, passed, repo) => {
    const load = loadHarnesses(readConfigText(configDir, 'harnesses.yaml'));
    return launchProblems({
      chain,
      passed,
      harnesses: load.model ?? null,
      harnessesProblem: load.problems.map(formatProblem).join('; '),
      providers: catalog.providers().providers,
      policy: policy(),
      repo,
      installed: (exe) => resolveExecutable(exe) !== null,
    });
  };
}

/**
 * Whether any enabled harness of harnesses.yaml has its CLI installed here: a repo connected on a
 * machine with none is proposed the `manual` chain, which launches no agent, instead of `default`.
 */
export function anyAgentCli(configDir: string, catalog: Pick<HarnessCatalog, 'providers'>): boolean {
  const files = loadHarnesses(readConfigText(configDir, 'harnesses.yaml')).model;
  if (!files) return true; // unknown: keep the usual default rather than guess
  const providers = catalog.providers().providers;
  return Object.values(files.harnesses).some((h) => {
    if (h.enabled === false) return false;
    const exe = h.executable ?? own(providers, h.provider)?.command[0] ?? h.provider;
    return resolveExecutable(exe) !== null;
  });
}
