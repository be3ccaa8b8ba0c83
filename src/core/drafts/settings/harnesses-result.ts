import type { HarnessesFile } from '../../../contract/config/harnesses.js';
import type { DraftProblem } from '../../../contract/drafts/answers.js';
import type { AccessState } from '../../../contract/drafts/harness-ops.js';
import type { SettingsInput, SettingsPart } from './docs.js';
import { HARNESSES_FILE, POLICY_FILE, accessLists, accessState, type AccessLists } from './harness-docs.js';
import { DEFAULT_HARNESS } from '../../../contract/config/harnesses.js';
import { chainTasks, fallbackUsers, launchesOf } from './harness-tasks.js';
import { harnessesChanges } from './harnesses-changes.js';
import { escalationProblems, libraryProblems, optionProblems, taskProblems } from './harnesses-problems.js';

/*
 * The harnesses draft's part of the result object (spec drafts.md, "Resolved answer for
 * harnesses"): each harness with its access state and the tasks launching on it, the tool
 * ceiling, escalation, and each profile with the tasks and profiles using it.
 */

/** An agent task launching on a harness: by its own choice, or (`fallback: true`) by a fallback. */
export type HarnessTaskUse = {
  chain: string;
  path: string;
  profile: string | null;
  fallback: boolean;
};

export type ResolvedHarness = {
  id: string;
  state: AccessState;
  executable_found: boolean;
  provider: string;
  enabled: boolean;
  executable: string | null;
  defaults: Record<string, string | null>;
  tasks: HarnessTaskUse[];
};

export type ResolvedProfile = {
  /** Per provider, the model and effort (the older shape read as this one). */
  providers: Record<string, { model: string; effort: string | null }>;
  /** The effort every provider entry shares, else null. */
  effort: string | null;
  tasks: { chain: string; path: string; fallback: boolean }[];
  /** Profiles whose `fallback:` names this one. */
  used_by_fallback: string[];
};

// Type aliases, not interfaces: the result object's `resolved` is a `Record<string, unknown>`.
export type HarnessesResolved = {
  harnesses: ResolvedHarness[];
  /** `maxima.allowed_tools`; null: no ceiling. */
  allowed_tools: string[] | null;
  /** As policy.yaml `defaults` writes them (null: unset). */
  escalation: { harness: string | null; grants: string[] | null };
  /** The harness an escalation launch uses (`item`: the item's own), and whether policy.yaml sets it. */
  escalation_effective: { harness: string; set: boolean };
  profiles: Record<string, ResolvedProfile>;
};

export type HarnessesImpact = { tasks: number; chains: string[] };

function providersOf(p: HarnessesFile['profiles'][string]): ResolvedProfile['providers'] {
  const out: ResolvedProfile['providers'] = {};
  if (p.providers) {
    for (const [prov, v] of Object.entries(p.providers))
      if (v) out[prov] = { model: v.model, effort: v.effort ?? null };
  } else {
    for (const [prov, m] of Object.entries(p.model ?? {}))
      if (m) out[prov] = { model: m, effort: p.effort ?? null };
  }
  return out;
}

function sharedEffort(providers: ResolvedProfile['providers']): string | null {
  const efforts = [...new Set(Object.values(providers).map((v) => v.effort))];
  return efforts.length === 1 ? (efforts[0] ?? null) : null;
}

function resolve(input: SettingsInput, model: HarnessesFile, lists: AccessLists): HarnessesResolved {
  const uses = new Map<string, HarnessTaskUse[]>();
  const profileUses = new Map<string, ResolvedProfile['tasks']>();
  const seen = new Set<string>();
  for (const t of chainTasks(input.set)) {
    if (!t.agent) continue;
    for (const l of launchesOf(t.value, model.profiles)) {
      const fallback = l.index > 0;
      const key = `${t.chain}\0${t.path}\0${l.harness}\0${l.profile ?? ''}\0${fallback}`;
      if (seen.has(key)) continue;
      seen.add(key);
      uses.set(l.harness, [
        ...(uses.get(l.harness) ?? []),
        { chain: t.chain, path: t.path, profile: l.profile, fallback },
      ]);
      if (l.profile === null) continue;
      const list = profileUses.get(l.profile) ?? [];
      if (!list.some((u) => u.chain === t.chain && u.path === t.path && u.fallback === fallback)) {
        list.push({ chain: t.chain, path: t.path, fallback });
      }
      profileUses.set(l.profile, list);
    }
  }
  const policy = input.set.policy.model;
  const named = policy?.defaults?.escalation_harness;
  const profiles: Record<string, ResolvedProfile> = {};
  for (const [name, p] of Object.entries(model.profiles)) {
    const providers = providersOf(p);
    profiles[name] = {
      providers,
      effort: sharedEffort(providers),
      tasks: profileUses.get(name) ?? [],
      used_by_fallback: fallbackUsers(model.profiles, name),
    };
  }
  return {
    harnesses: Object.entries(model.harnesses).map(([id, h]) => ({
      id,
      state: accessState(id, lists),
      executable_found: input.facts.executableFound[id] ?? false,
      provider: h.provider,
      enabled: h.enabled,
      executable: h.executable ?? null,
      defaults: { ...(h.defaults ?? {}) },
      tasks: uses.get(id) ?? [],
    })),
    allowed_tools: policy?.maxima?.allowed_tools ?? null,
    escalation: { harness: named ?? null, grants: policy?.defaults?.escalation_grants ?? null },
    escalation_effective: { harness: named ?? DEFAULT_HARNESS, set: named !== undefined },
    profiles,
  };
}

/** Agent tasks launching (or falling back) on a harness whose state the draft moves, and their chains. */
function impactOf(input: SettingsInput, model: HarnessesFile | null): HarnessesImpact {
  if (!(POLICY_FILE in input.after) || !model) return { tasks: 0, chains: [] };
  const was = accessLists(input.before[POLICY_FILE] ?? null);
  const now = accessLists(input.after[POLICY_FILE] ?? null);
  const tasks = new Set<string>();
  const chains = new Set<string>();
  for (const t of chainTasks(input.set)) {
    if (!t.agent) continue;
    const moved = launchesOf(t.value, model.profiles).some(
      (l) => accessState(l.harness, was) !== accessState(l.harness, now),
    );
    if (!moved) continue;
    tasks.add(`${t.chain}\0${t.path}`);
    chains.add(t.chain);
  }
  return { tasks: tasks.size, chains: [...chains].sort() };
}

/** The harnesses draft's resolved answer, problems, changes and impact. */
export function harnessesResult(input: SettingsInput): SettingsPart<HarnessesResolved, HarnessesImpact> {
  const model = input.set.harnesses.model;
  const lists = accessLists(input.set.policy.model ?? input.after[POLICY_FILE] ?? null);
  const problems: DraftProblem[] = [
    ...(input.set.files[HARNESSES_FILE]?.problems ?? []),
    ...(input.set.files[POLICY_FILE]?.problems ?? []),
    ...(model ? optionProblems(model, input.set.harnesses.tree, input.facts.providers) : []),
    ...(model ? taskProblems(input, model, lists) : []),
    ...(model ? libraryProblems(input, model) : []),
    ...escalationProblems(input, lists),
  ];
  return {
    resolved: model ? resolve(input, model, lists) : null,
    problems,
    changes: harnessesChanges(input),
    impact: impactOf(input, model),
  };
}
