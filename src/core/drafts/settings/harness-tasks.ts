import { walkChain } from '../../chain/walk.js';
import { describeLibraryPath } from '../../chain/paths.js';
import type { ConfigSet } from '../../config/validate-set.js';
import { findKeys } from '../../config/references.js';
import { locate, type PathSeg } from '../../config/tree.js';
import { isObj, type Obj } from '../ops/context.js';
export { launchesOf, type Launch } from '../../chain/launches.js';

/*
 * The chains' tasks as the harnesses area sees them: which harness and profile each agent task
 * launches on, its own launch first and then each fallback (the runner's order,
 * runtime/workers/agent-candidates.ts), and which tasks name a profile.
 */

export interface Where {
  file: string;
  line: number | null;
  col: number | null;
}

export interface ChainTask {
  chain: string;
  /** Canonical path (`implementation.main.implement`). */
  path: string;
  /** The task as the merged chain holds it (library values laid in). */
  value: Obj;
  /** True for an agent task of a chain that resolved; false for any task of one that did not. */
  agent: boolean;
  /** Where a key of the task is written (the chain file, or library.yaml for an inherited value). */
  at(field: readonly PathSeg[]): Where;
}

/**
 * Every task of every chain, in chain order. A chain that does not resolve is read as written, so
 * its tasks still count as naming a profile (a rename or removal must not miss them), but none of
 * them counts as an agent task: what it would launch on is not known.
 */
export function chainTasks(set: ConfigSet): ChainTask[] {
  const out: ChainTask[] = [];
  for (const c of Object.values(set.chains)) {
    const source = c.checked ?? c.model;
    if (!source) continue;
    for (const v of walkChain(source)) {
      if (v.kind !== 'task') continue;
      const tree = c.tree;
      out.push({
        chain: c.id,
        path: v.path,
        value: v.value,
        agent: c.checked !== null && v.value.kind === 'agent',
        at: (field) =>
          tree ? locate(tree, [...v.dataPath, ...field], 'value') : { file: c.file, line: null, col: null },
      });
    }
  }
  return out;
}

/** A place that names a profile: a chain's task (`chain` set) or a library component (`chain` null). */
export interface ProfileRef {
  chain: string | null;
  path: string;
  field: string;
}

/** Every task of the chains and every library component naming `name` (its `profile:` or a fallback's). */
export function profileRefs(set: ConfigSet, name: string): ProfileRef[] {
  const out: ProfileRef[] = [];
  for (const t of chainTasks(set)) {
    if (t.value.profile === name) out.push({ chain: t.chain, path: t.path, field: 'profile' });
    if (Array.isArray(t.value.fallback)) {
      t.value.fallback.forEach((e: unknown, i) => {
        if (isObj(e) && e.profile === name)
          out.push({ chain: t.chain, path: t.path, field: `fallback.${i}.profile` });
      });
    }
  }
  const lib = set.library;
  if (lib.tree) {
    for (const { path, entry } of findKeys(lib.tree, new Set(['profile']))) {
      if (entry.origin.file !== lib.file) continue;
      if (entry.value.t !== 'scalar' || entry.value.value !== name) continue;
      const d = describeLibraryPath(lib.model, path);
      out.push({ chain: null, path: d.path, field: d.field ?? 'profile' });
    }
  }
  return out;
}

/** Profiles whose `fallback:` names `name` (leaving out `name` itself). */
export function fallbackUsers(profiles: Readonly<Record<string, unknown>>, name: string): string[] {
  return Object.entries(profiles).flatMap(([p, v]) =>
    p !== name &&
    isObj(v) &&
    Array.isArray(v.fallback) &&
    v.fallback.some((e: unknown) => isObj(e) && e.profile === name)
      ? [p]
      : [],
  );
}
