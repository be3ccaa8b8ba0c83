import { own, setOwn } from '../../json/own.js';
import type { LibrarySection } from '../../../contract/config/library.js';
import { isObj, LIBRARY_FILE, type Obj, type OpDocs } from './context.js';
import { locateInChain, locateInLibrary, type ComponentKind, type Located } from './locate.js';
import { ROUTE_GROUPS } from '../../chain/merge.js';

/*
 * What a component inherits: the values it would have without its own keys. Ops need it to write
 * only real overrides (set_field drops a value equal to the inherited one, change_base drops
 * overrides equal to the new base's). It follows core/chain/resolve.ts and merge.ts on plain data:
 * a component is laid over its library parent (whose own `extends` chain is followed), and a
 * mapping inside a node (a handler, a slot task) is laid over the same key of the node's parent.
 */

type ExtSection = Exclude<LibrarySection, 'steering'>;

/** Which library section a component's `extends` names. */
export const EXTENDS_SECTION: Partial<Record<ComponentKind, ExtSection>> = {
  node: 'nodes',
  step: 'steps',
  task: 'tasks',
  judge: 'tasks',
  escalation: 'tasks',
  auto_review: 'tasks',
};

/** The sibling keys that setting `key` replaces (merge.ts: alternative routes replace each other). */
export function routeRivals(key: string): string[] {
  for (const groups of ROUTE_GROUPS) {
    const own = groups.find((g) => g.includes(key));
    if (own) return groups.filter((g) => g !== own).flat();
  }
  return [];
}

const dropNulls = (m: Obj): Obj => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== null));

/** merge.ts on plain data: mappings merge key by key, lists and scalars replace, null removes. */
export function mergeLayers(parent: Obj, child: Obj): Obj {
  const drop = new Set(Object.keys(child).flatMap((k) => routeRivals(k)));
  const out: Obj = {};
  // Keys are the files' (a `__proto__:` key too): each is set as the layer's own.
  for (const [k, p] of Object.entries(parent)) {
    if (drop.has(k)) continue;
    const c = own(child, k);
    if (!Object.hasOwn(child, k)) setOwn(out, k, p);
    else if (c === null) continue;
    else setOwn(out, k, isObj(p) && isObj(c) ? mergeLayers(p, c) : c);
  }
  for (const [k, c] of Object.entries(child)) if (!Object.hasOwn(parent, k) && c !== null) setOwn(out, k, c);
  return out;
}

/** The library component `<section>.<name>` with its `extends` chain merged in (a cycle stops it). */
export function resolvedLibrary(
  lib: unknown,
  section: ExtSection,
  name: string,
  seen: string[] = [],
): Obj | null {
  const sec = isObj(lib) ? lib[section] : undefined;
  // `name` comes from a request or a file's `extends:`: `__proto__` must find no component.
  const raw = isObj(sec) ? own(sec, name) : undefined;
  if (!isObj(raw)) return null;
  const ext = raw.extends;
  const parent =
    typeof ext === 'string' && !seen.includes(ext)
      ? resolvedLibrary(lib, section, ext, [...seen, name])
      : null;
  return parent ? mergeLayers(parent, raw) : dropNulls(raw);
}

/** The library document as read, without creating one (a lookup must not add library.yaml). */
export const libraryForLookup = (docs: OpDocs): unknown => docs.doc(LIBRARY_FILE);

/** The path of the component holding a located one by a key (escalation's path adds its id). */
function containerPath(l: Located): string | null {
  if (l.holder.type !== 'key' || l.kind === 'chain' || l.library) return null;
  const segs = l.path.split('.');
  return segs.slice(0, l.kind === 'escalation' ? -2 : -1).join('.');
}

/**
 * Everything the component at `l` inherits, its own keys left out: the same key of its container's
 * inherited layer, under its own library parent. `id` and `extends` are never inherited.
 */
export function parentLayer(doc: unknown, library: boolean, lib: unknown, l: Located): Obj {
  let above: Obj = {};
  const up = containerPath(l);
  if (up !== null && l.holder.type === 'key') {
    const container = library ? locateInLibrary(doc, up) : locateInChain(doc, up);
    const v = container ? own(parentLayer(doc, library, lib, container), l.holder.key) : undefined;
    if (isObj(v)) above = v;
  }
  const section = EXTENDS_SECTION[l.kind];
  const ext = l.value.extends ?? above.extends;
  const base = section && typeof ext === 'string' ? resolvedLibrary(lib, section, ext) : null;
  const layer = base ? mergeLayers(base, above) : { ...above };
  delete layer.id;
  delete layer.extends;
  return layer;
}

const SLOT_KEYS = new Set(['escalation', 'auto_review', 'judge']);

/** The value at a dotted field of an inherited layer; a slot task met on the way is resolved. */
export function valueAt(layer: Obj, segs: readonly string[], lib: unknown): unknown {
  let cur: unknown = layer;
  for (const seg of segs) {
    if (!isObj(cur)) return undefined;
    // A segment of a request's field: `constructor` must not find Object.prototype's.
    let v = own(cur, seg);
    if (SLOT_KEYS.has(seg) && isObj(v) && typeof v.extends === 'string') {
      const base = resolvedLibrary(lib, 'tasks', v.extends);
      if (base) v = mergeLayers(base, v);
    }
    cur = v;
  }
  return cur;
}

/** Whether a component names a library parent of its own. */
export const extendsSomething = (l: Located): boolean =>
  EXTENDS_SECTION[l.kind] !== undefined && typeof l.value.extends === 'string' && l.value.extends !== '';
