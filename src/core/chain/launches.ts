import { DEFAULT_HARNESS } from '../../contract/config/harnesses.js';
import type { PathSeg } from '../config/tree.js';

/*
 * Which harness and profile a task launches on: its own launch first, then each fallback (the
 * runner's order, runtime/workers/agent-candidates.ts). Read by the settings drafts and the load
 * checks alike.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** One launch of a task: its own (`index` 0) or a fallback. */
export interface Launch {
  harness: string;
  profile: string | null;
  /** 0 for the task's own launch, then 1, 2, ... for its fallbacks. */
  index: number;
  /** Where the choice is written, relative to the task; null for a profile's fallback (harnesses.yaml). */
  field: PathSeg[] | null;
}

/**
 * The task's own launch, then its `fallback:` entries (a task's `[]` means none), else its
 * profile's. A fallback entry replaces the harness and the profile; one with a model or effort
 * instead of a profile drops the profile.
 */
export function launchesOf(task: Obj, profiles: Readonly<Record<string, unknown>>): Launch[] {
  const harness = str(task.harness) ?? DEFAULT_HARNESS;
  const profile = str(task.profile);
  const out: Launch[] = [{ harness, profile, index: 0, field: str(task.harness) ? ['harness'] : [] }];
  const own = Array.isArray(task.fallback) ? task.fallback : null;
  const prof = profile !== null && Object.hasOwn(profiles, profile) ? profiles[profile] : undefined;
  const inherited = isObj(prof) && Array.isArray(prof.fallback) ? prof.fallback : [];
  (own ?? inherited).forEach((e: unknown, i) => {
    if (!isObj(e)) return;
    const p = str(e.profile);
    const drops = p === null && (str(e.model) !== null || str(e.effort) !== null);
    out.push({
      harness: str(e.harness) ?? harness,
      profile: p ?? (drops ? null : profile),
      index: i + 1,
      field: own ? ['fallback', i] : null,
    });
  });
  return out;
}
