import { sameData } from '../json/same.js';
import { chainComponents, chainKeys, type Component } from './chain-components.js';

/** One row of a draft's `changes` (spec drafts.md, "The result object"). */
export interface Change {
  path: string;
  kind: 'add' | 'change' | 'remove' | 'rename';
  summary: string;
  /** The keys that differ, for a `change`. */
  fields?: string[];
  from?: string;
  to?: string;
}

/** The keys whose values differ between two mappings, sorted. */
function differing(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !sameData(a[k], b[k])).sort();
}

const list = (keys: string[]): string => keys.join(', ');

/**
 * What a chain draft changes against the published file, component by component: an added or
 * removed component; a changed one with the keys that differ; a reordered one as a change whose
 * summary says moved; the chain's own keys as one change at path "".
 */
export function chainChanges(published: unknown, draft: unknown): Change[] {
  const out: Change[] = [];
  const keys = differing(chainKeys(published), chainKeys(draft));
  if (keys.length > 0) out.push({ path: '', kind: 'change', summary: `changed ${list(keys)}`, fields: keys });
  const before = new Map(chainComponents(published).map((c) => [c.path, c]));
  const after = chainComponents(draft);
  const moved = movedPaths([...before.values()], after);
  const seen = new Set<string>();
  for (const c of after) {
    seen.add(c.path);
    const was = before.get(c.path);
    if (!was) {
      out.push({ path: c.path, kind: 'add', summary: `${c.kind} added` });
      continue;
    }
    const fields = differing(was.fields, c.fields);
    const isMoved = moved.has(c.path);
    if (fields.length === 0 && !isMoved) continue;
    const parts = [...(isMoved ? ['moved'] : []), ...(fields.length ? [`changed ${list(fields)}`] : [])];
    out.push({ path: c.path, kind: 'change', summary: parts.join('; '), fields });
  }
  for (const c of before.values()) {
    if (!seen.has(c.path)) out.push({ path: c.path, kind: 'remove', summary: `${c.kind} removed` });
  }
  return out;
}

/**
 * Components that moved: into another list, or to another place among the siblings both versions
 * share. A node inserted or removed before another shifts its index without moving it.
 */
function movedPaths(before: readonly Component[], after: readonly Component[]): Set<string> {
  const key = (c: Component) => `${c.list}\u0000${c.path}`;
  const inBefore = new Set(before.map(key));
  const inAfter = new Set(after.map(key));
  const ranks = (cs: readonly Component[], other: Set<string>): Map<string, number> => {
    const next = new Map<string, number>();
    const out = new Map<string, number>();
    for (const c of [...cs].sort((a, b) => a.index - b.index)) {
      if (!other.has(key(c))) continue;
      const r = next.get(c.list) ?? 0;
      next.set(c.list, r + 1);
      out.set(key(c), r);
    }
    return out;
  };
  const was = ranks(before, inAfter);
  const now = ranks(after, inBefore);
  const listOf = new Map(before.map((c) => [c.path, c.list]));
  const out = new Set<string>();
  for (const c of after) {
    const old = listOf.get(c.path);
    if (old === undefined) continue;
    if (old !== c.list || was.get(key(c)) !== now.get(key(c))) out.add(c.path);
  }
  return out;
}
