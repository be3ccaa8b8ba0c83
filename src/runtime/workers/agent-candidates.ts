import type { AccessState } from '../../contract/drafts/harness-ops.js';
import { own } from '../../core/json/own.js';
import { accessState } from '../../core/drafts/settings/harness-docs.js';
import type { HarnessesFile } from '../../contract/config/harnesses.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { FallbackEntry } from '../../contract/config/task.js';
import type { ModelAgentTask } from '../../core/chain/model.js';

/** One launch to try: the task as written, or one of its fallbacks laid over it. */
export interface Candidate {
  /** 0 for the task's own launch, then 1, 2, … for its fallbacks. */
  index: number;
  task: ModelAgentTask;
}

/**
 * The task's own launch, then its `fallback:` entries (a task's `fallback: []` means none), else
 * the fallbacks of the profile it names. A fallback entry replaces harness, profile and model/effort
 * (a profile and a model/effort are never mixed: naming one drops the other).
 */
export function candidates(task: ModelAgentTask, harnesses: HarnessesFile): Candidate[] {
  const profile = task.profile !== undefined ? own(harnesses.profiles, task.profile) : undefined;
  const entries: FallbackEntry[] = task.fallback ?? profile?.fallback ?? [];
  const out: Candidate[] = [{ index: 0, task }];
  entries.forEach((e, i) => {
    const t: ModelAgentTask = { ...task };
    if (e.harness) t.harness = e.harness;
    if (e.profile) {
      t.profile = e.profile;
      delete t.model;
      delete t.effort;
    } else if (e.model || e.effort) {
      delete t.profile;
      if (e.model) t.model = e.model;
      else delete t.model;
      if (e.effort) t.effort = e.effort;
      else delete t.effort;
    }
    out.push({ index: i + 1, task: t });
  });
  return out;
}

export type HarnessState = AccessState;

/**
 * A harness's access state under policy.yaml: `available` when `defaults.allowed_harnesses` has it
 * (or there is no defaults list and the maxima allow it), `override` when only the maxima list it
 * (a task's own policy must name it), `never` when the maxima leave it out.
 */
export function harnessState(harness: string, policy: PolicyFile | null): HarnessState {
  // One reading of the two lists, shared with the harnesses draft's access states.
  return accessState(harness, {
    defaults: policy?.defaults?.allowed_harnesses ?? null,
    maxima: policy?.maxima?.allowed_harnesses ?? null,
  });
}
