import { DEFAULT_HARNESS } from '../../contract/config/harnesses.js';
import type { HarnessesFile, Provider } from '../../contract/config/harnesses.js';
import { own } from '../json/own.js';

/** Where a launch's model or effort came from, highest first (reference §3.5). */
export type Source =
  'node_override' | 'item_override' | 'task_profile' | 'task' | 'repo' | 'harness_defaults';

export interface LaunchChoice {
  harness: string;
  provider: Provider;
  executable: string | null;
  model: string | null;
  effort: string | null;
  permission_mode: string | null;
  sources: { model: Source | null; effort: Source | null };
}

export type LaunchResolution = { ok: true; choice: LaunchChoice } | { ok: false; reason: string };

export interface LaunchRequest {
  /** The agent task as resolved in the frozen chain. */
  task: { path: string; harness?: unknown; profile?: unknown; model?: unknown; effort?: unknown };
  harnesses: HarnessesFile;
  /** repos.yaml `models:` (model per harness id). */
  repoModels?: Record<string, string>;
  /** The item's `agent_overrides` and its `node_overrides` for this node. */
  itemOverride?: { model?: unknown; effort?: unknown };
  nodeOverride?: { model?: unknown; effort?: unknown };
  /** The harness a task names nothing else. */
  defaultHarness?: string;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/**
 * Picks the harness, model and effort of one agent launch. Model precedence, highest first: the
 * node override, the item override, the task's profile (or its own model/effort), the repo's
 * `models:` for that harness, then the harness defaults. Refuses what cannot launch, saying why.
 */
export function resolveLaunch(r: LaunchRequest): LaunchResolution {
  const harnessId = str(r.task.harness) ?? r.defaultHarness ?? DEFAULT_HARNESS;
  // Names from a chain or an item's overrides: `constructor` is no harness, profile or repo model.
  const entry = own(r.harnesses.harnesses, harnessId);
  if (!entry) return { ok: false, reason: `${r.task.path}: harness ${harnessId} is not in harnesses.yaml` };
  if (entry.enabled === false)
    return { ok: false, reason: `${r.task.path}: harness ${harnessId} is disabled in harnesses.yaml` };
  const provider = entry.provider;

  let model: string | null = null;
  let effort: string | null = null;
  const sources: LaunchChoice['sources'] = { model: null, effort: null };
  const take = (m: unknown, e: unknown, source: Source): void => {
    if (model === null && str(m)) {
      model = str(m);
      sources.model = source;
    }
    if (effort === null && str(e)) {
      effort = str(e);
      sources.effort = source;
    }
  };
  take(r.nodeOverride?.model, r.nodeOverride?.effort, 'node_override');
  take(r.itemOverride?.model, r.itemOverride?.effort, 'item_override');
  const profileName = str(r.task.profile);
  if (profileName) {
    const profile = own(r.harnesses.profiles, profileName);
    if (!profile)
      return { ok: false, reason: `${r.task.path}: profile ${profileName} is not in harnesses.yaml` };
    const written = profile.providers?.[provider];
    const m = written?.model ?? profile.model?.[provider];
    const e = written?.effort ?? profile.effort;
    if (!m && model === null) {
      return { ok: false, reason: `${r.task.path}: profile ${profileName} has no model for ${provider}` };
    }
    take(m, e, 'task_profile');
  } else {
    take(r.task.model, r.task.effort, 'task');
  }
  take(own(r.repoModels, harnessId), null, 'repo');
  take(entry.defaults?.model, entry.defaults?.effort, 'harness_defaults');
  return {
    ok: true,
    choice: {
      harness: harnessId,
      provider,
      executable: entry.executable ?? null,
      model,
      effort,
      permission_mode: str(entry.defaults?.permission_mode),
      sources,
    },
  };
}
