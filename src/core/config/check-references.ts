import type { Problem } from '../../contract/problems.js';
import { describeChainPath, describeLibraryPath } from '../chain/paths.js';
import { findKeys, namesIn } from './references.js';
import { suggest } from './suggest.js';
import type { ANode, PathSeg } from './tree.js';
import { describePlain } from './validate-tree.js';

/** Names other files define; null when that file did not load (nothing is checked against it). */
export interface Known {
  harnesses: string[] | null;
  profiles: string[] | null;
  steering: string[];
  steeringExists: (name: string) => boolean;
  /**
   * Whether `<namespace>:<name>` is a skill of an installed add-on. Bare names (your config's
   * skills/ folder, else Jig's) and `jig:` names are read at launch from disk, so not checked here.
   */
  addonSkillExists?: (name: string) => boolean;
  /** The add-on skills there are, for the did-you-mean. */
  addonSkills?: readonly string[];
}

const KEYS = new Set(['harness', 'profile', 'steering', 'escalation_harness', 'skill']);

/**
 * Every `harness:`, `profile:`, `steering:` and `policy.escalation_harness` in a chain, library
 * or harnesses tree names
 * something that exists. In a merged chain tree only the chain file's own values are checked;
 * values from library.yaml are checked (once) in the library.
 */
export function checkReferences(
  tree: ANode,
  file: string,
  known: Known,
  library: boolean,
  under?: string,
): Problem[] {
  const out: Problem[] = [];
  for (const { path, entry } of findKeys(tree, KEYS)) {
    if (entry.origin.file !== file) continue;
    if (under && path[0] !== under) continue;
    if (entry.key === 'skill') {
      out.push(...skillProblem(entry, known, library, under, tree, path));
      continue;
    }
    const harness = entry.key === 'harness' || entry.key === 'escalation_harness';
    const list = harness ? known.harnesses : entry.key === 'profile' ? known.profiles : known.steering;
    if (list === null) continue;
    // `policy.escalation_harness` is a harness id or `item` (the harness the item's own work ran on).
    if (entry.key === 'escalation_harness' && path[path.length - 2] !== 'policy') continue;
    for (const { name, at } of namesIn(entry)) {
      if (entry.key === 'escalation_harness' && name === 'item') continue;
      const exists = entry.key === 'steering' ? known.steeringExists(name) : list.includes(name);
      if (exists) continue;
      const where = at.length
        ? valueAt(entry.value, at)
        : { file: entry.value.origin.file, ...entry.value.pos };
      const what =
        entry.key === 'escalation_harness'
          ? 'a harness in harnesses.yaml (or `item`)'
          : entry.key === 'harness'
            ? 'a harness in harnesses.yaml'
            : entry.key === 'profile'
              ? 'a profile in harnesses.yaml `profiles:`'
              : 'in library.yaml `steering:`';
      const s = suggest(name, list);
      const d = describeReference(library, under !== undefined, tree, path);
      out.push({
        ...d,
        message: `${entry.key} \`${name}\` is not ${what}${s ? `; did you mean \`${s}\`?` : ''}`,
        ...where,
      });
    }
  }
  return out;
}

/** A `skill:` naming an add-on's skill that no installed add-on offers. */
function skillProblem(
  entry: { value: ANode },
  known: Known,
  library: boolean,
  under: string | undefined,
  tree: ANode,
  path: PathSeg[],
): Problem[] {
  const v = entry.value;
  if (v.t !== 'scalar' || typeof v.value !== 'string' || !known.addonSkillExists) return [];
  const name = v.value;
  const colon = name.indexOf(':');
  if (colon <= 0 || name.startsWith('jig:') || known.addonSkillExists(name)) return [];
  const s = suggest(name, known.addonSkills ?? []);
  return [
    {
      ...describeReference(library, under !== undefined, tree, path),
      message: `skill \`${name}\`: no enabled add-on \`${name.slice(0, colon)}\` has skills/${name.slice(colon + 1)}/SKILL.md${s ? `; did you mean \`${s}\`?` : ''}`,
      file: v.origin.file,
      ...v.pos,
    },
  ];
}

function valueAt(v: ANode, at: PathSeg[]): { file: string; line: number; col: number } {
  const item = v.t === 'seq' ? v.items[at[0] as number] : undefined;
  const n = item ?? v;
  return { file: n.origin.file, ...n.pos };
}

function toData(n: ANode): unknown {
  if (n.t === 'scalar') return n.value;
  if (n.t === 'seq') return n.items.map(toData);
  return Object.fromEntries(n.entries.map((e) => [e.key, toData(e.value)]));
}

/** The canonical path and field of a data path in a chain, library or plain settings tree. */
export function describeReference(library: boolean, plain: boolean, tree: ANode, path: PathSeg[]) {
  if (plain) return describePlain(null, path);
  const data = toData(tree);
  return library ? describeLibraryPath(data, path) : describeChainPath(data, path);
}
