import { entry, type AEntry, type AMap, type ANode } from '../config/tree.js';

/*
 * Values the model assumes when no layer sets them, written into the merged tree before it is
 * checked: an exec node's kind, and the ids of slot tasks (judge, escalation, auto_review). They
 * are labelled `default` so `sources` can tell them from written values.
 */

function add(m: AMap, key: string, value: unknown): AMap {
  if (entry(m, key)) return m;
  const origin = { file: m.origin.file, source: 'default' };
  const e: AEntry = { key, keyPos: m.pos, origin, value: { t: 'scalar', value, origin, pos: m.pos } };
  return { ...m, entries: [e, ...m.entries] };
}

function mapEntry(m: AMap, key: string, fn: (v: AMap) => AMap): AMap {
  return {
    ...m,
    entries: m.entries.map((e) => (e.key === key && e.value.t === 'map' ? { ...e, value: fn(e.value) } : e)),
  };
}

export function fillNodeDefaults(node: ANode): ANode {
  if (node.t !== 'map') return node;
  let n = add(node, 'kind', 'exec');
  n = mapEntry(n, 'fix_loop', (f) => mapEntry(f, 'judge', (j) => add(j, 'id', 'judge')));
  n = mapEntry(n, 'escalation', (e) => add(e, 'id', 'escalate'));
  n = mapEntry(n, 'auto_review', (r) => add(r, 'id', 'reviewer'));
  return n;
}

export function withId(m: AMap, id: string): AMap {
  return add(m, 'id', id);
}
