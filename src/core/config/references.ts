import type { ANode, AEntry, PathSeg } from './tree.js';

/** Every entry with one of `keys`, anywhere in a tree, with its data path (for cross-file checks). */
export function findKeys(tree: ANode, keys: ReadonlySet<string>): { path: PathSeg[]; entry: AEntry }[] {
  const out: { path: PathSeg[]; entry: AEntry }[] = [];
  const walk = (n: ANode, path: PathSeg[]): void => {
    if (n.t === 'seq') n.items.forEach((it, i) => walk(it, [...path, i]));
    if (n.t !== 'map') return;
    for (const e of n.entries) {
      if (keys.has(e.key)) out.push({ path: [...path, e.key], entry: e });
      walk(e.value, [...path, e.key]);
    }
  };
  walk(tree, []);
  return out;
}

/** The names an entry holds: one string, or a list of strings (with their item indexes). */
export function namesIn(e: AEntry): { name: string; at: PathSeg[] }[] {
  if (e.value.t === 'scalar' && typeof e.value.value === 'string') return [{ name: e.value.value, at: [] }];
  if (e.value.t === 'seq') {
    return e.value.items.flatMap((it, i) =>
      it.t === 'scalar' && typeof it.value === 'string' ? [{ name: it.value, at: [i] }] : [],
    );
  }
  return [];
}
