import type { AEntry, AMap } from '../config/tree.js';

/*
 * `extends` merging: mappings merge key by key, recursively; lists and scalars replace whole; a
 * null removes what the parent set (how a chain drops an inherited handler).
 *
 * Alternative routes replace each other whole: a layer that sets `profile` drops the parent's
 * `model`/`effort` and the other way round, and `run`, `argv` and `command` replace one another,
 * so "both set" can only come from one layer writing both (a problem there, not a merge artefact).
 */
export const ROUTE_GROUPS: readonly (readonly (readonly string[])[])[] = [
  [['profile'], ['model', 'effort']],
  [['run'], ['argv'], ['command']],
];

function droppedByRoutes(childKeys: Set<string>): Set<string> {
  const drop = new Set<string>();
  for (const groups of ROUTE_GROUPS) {
    const chosen = groups.find((g) => g.some((k) => childKeys.has(k)));
    if (!chosen) continue;
    for (const g of groups) if (g !== chosen) for (const k of g) drop.add(k);
  }
  return drop;
}

const isNull = (e: AEntry): boolean => e.value.t === 'scalar' && e.value.value === null;

export function mergeMaps(parent: AMap, child: AMap): AMap {
  const childKeys = new Set(child.entries.map((e) => e.key));
  const drop = droppedByRoutes(childKeys);
  const out: AEntry[] = [];
  for (const p of parent.entries) {
    if (drop.has(p.key)) continue;
    const c = child.entries.find((e) => e.key === p.key);
    if (!c) {
      out.push(p);
      continue;
    }
    if (isNull(c)) continue;
    if (p.value.t === 'map' && c.value.t === 'map') {
      out.push({ ...c, value: mergeMaps(p.value, c.value) });
    } else out.push(c);
  }
  for (const c of child.entries) {
    if (parent.entries.some((p) => p.key === c.key) || isNull(c)) continue;
    out.push(c);
  }
  return { t: 'map', entries: out, origin: child.origin, pos: child.pos };
}

/** Removes null values (a null with nothing to remove means "not set"). */
export function dropNulls(m: AMap): AMap {
  return { ...m, entries: m.entries.filter((e) => !isNull(e)) };
}
