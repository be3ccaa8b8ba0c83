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

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Structural equality of parsed YAML values (plain data: mappings, lists, scalars). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
}

/** The keys whose values differ between two mappings, sorted. */
function differing(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !same(a[k], b[k])).sort();
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
  const seen = new Set<string>();
  for (const c of after) {
    seen.add(c.path);
    const was = before.get(c.path);
    if (!was) {
      out.push({ path: c.path, kind: 'add', summary: `${c.kind} added` });
      continue;
    }
    const fields = differing(was.fields, c.fields);
    const moved = moves(was, c);
    if (fields.length === 0 && !moved) continue;
    const parts = [...(moved ? ['moved'] : []), ...(fields.length ? [`changed ${list(fields)}`] : [])];
    out.push({ path: c.path, kind: 'change', summary: parts.join('; '), fields });
  }
  for (const c of before.values()) {
    if (!seen.has(c.path)) out.push({ path: c.path, kind: 'remove', summary: `${c.kind} removed` });
  }
  return out;
}

/** Moved: in another list, or at another index of the same list. */
function moves(was: Component, now: Component): boolean {
  return was.list !== now.list || was.index !== now.index;
}
