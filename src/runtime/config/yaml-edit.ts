import { isMap, isScalar, type Document, type Node, type YAMLMap } from 'yaml';

/*
 * Writing a value into a YAML document so that what a person wrote around it stays: the settings
 * routes (policy, notifications) save a form this way, comments kept.
 */

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export function keysOf(map: YAMLMap): string[] {
  return map.items.map((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)));
}

/**
 * Writes `value` at `key` of `map`, touching only what differs so that a comment on anything that
 * survives stays: mappings are updated key by key (keys the new value lacks are removed), a scalar
 * keeps its node (and its trailing comment), anything else is replaced.
 */
export function assign(doc: Document, map: YAMLMap, key: string, value: unknown): void {
  const current = map.get(key, true) as Node | undefined;
  if (current !== undefined && same((current as { toJSON(): unknown }).toJSON(), value)) return;
  if (isObj(value) && isMap(current) && !(current.flow && current.items.length === 0)) {
    for (const k of keysOf(current)) if (!(k in value)) current.delete(k);
    for (const [k, v] of Object.entries(value)) assign(doc, current, k, v);
    return;
  }
  if (isScalar(current) && !isObj(value) && !Array.isArray(value)) {
    current.value = value;
    return;
  }
  map.set(key, doc.createNode(value));
}
