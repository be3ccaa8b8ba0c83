import { own } from '../../json/own.js';
import type { ChainOpOf } from '../../../contract/drafts/chain-ops.js';
import { isObj, OpRefused, type Obj, type OpDocs } from './context.js';
import { opDoc } from './fragment.js';
import { libraryForLookup, resolvedLibrary } from './inherited.js';
import { mustLocate, type Located } from './locate.js';
import { EXEC_ONLY, GATE_ONLY } from '../../chain/key-hints.js';
import { sameData } from '../../json/same.js';

/*
 * `extend` and `change_base` (spec drafts.md): building a node on a library node.
 *
 * `extend` starts over from the base: the node's own work (kind, steps or tasks, on_failure,
 * fix_loop) goes, its other keys stay as overrides.
 *
 * `change_base` keeps what the person customised where it still applies. Each key of the node
 * other than `id` and `extends` is judged against the new base as resolved (its own `extends`
 * chain merged, kind `exec` when unset):
 * - `kind` is dropped: a node takes its kind from its base (one that differs would be a problem).
 * - a key the base's kind does not take is dropped: gate keys (`message`, `artifact`,
 *   `artifact_required`, `reject_to`, `timeout`, `auto_review`, `chain_finalized`) over an exec
 *   base, exec keys (`tasks`, `steps`, `on_failure`, `fix_loop`, `escalation`,
 *   `on_base_changed`, `read_only`, `icon`) over a gate base — the lists of core/chain/key-hints.ts.
 * - a null (which removes an inherited handler) is dropped when the base has nothing there.
 * - a value equal to the base's is dropped. A mapping over a mapping is compared key by key: its
 *   equal keys are dropped (answered dotted, `policy.max_attempts`), the rest kept; a mapping left
 *   empty goes.
 * - everything else is kept (lists such as `steps` replace the base's whole, so they stay).
 * A node that extends nothing yet is treated the same way. `?preview=1` runs this same handler.
 */

/** What `extend` replaces with the base's. */
const EXTEND_DROPS = ['kind', 'steps', 'tasks', 'on_failure', 'fix_loop'];

export interface Dropped {
  key: string;
  why: string;
}

const holdsSomething = (v: unknown): boolean =>
  Array.isArray(v) ? v.length > 0 : isObj(v) ? Object.keys(v).length > 0 : v !== null && v !== undefined;

/** The node at `node` and the resolved library node `base`, or a refusal. */
function nodeAndBase(docs: OpDocs, node: string, base: string): { l: Located; baseNode: Obj } {
  const { doc, library } = opDoc(docs);
  const lib = libraryForLookup(docs);
  const nodes = isObj(lib) ? lib.nodes : undefined;
  if (!isObj(nodes) || !isObj(own(nodes, base))) throw new OpRefused(`the library has no node \`${base}\``);
  const l = mustLocate(doc, node, library);
  if (l.kind !== 'node') throw new OpRefused(`\`${node}\` is not a node: only a node extends a library node`);
  if (l.library) {
    // A library node's base must not lead back to it.
    const chain = [l.library.name];
    for (let at: unknown = base; typeof at === 'string' && !chain.includes(at);) {
      chain.push(at);
      const next = own(nodes, at);
      at = isObj(next) ? next.extends : undefined;
      if (at === l.library.name) {
        throw new OpRefused(
          `\`${l.library.name}\` cannot extend \`${base}\`: ${[...chain, at].join(' → ')} is a cycle`,
        );
      }
    }
    if (base === l.library.name) throw new OpRefused(`\`${base}\` cannot extend itself`);
  }
  const baseNode = resolvedLibrary(lib, 'nodes', base) ?? {};
  delete baseNode.extends;
  return { l, baseNode };
}

/** Sets `extends` just after the id, where a reader looks for it. */
function setExtends(node: Obj, base: string): void {
  if (Object.hasOwn(node, 'extends')) {
    node.extends = base;
    return;
  }
  const entries = Object.entries(node);
  const at = entries[0]?.[0] === 'id' ? 1 : 0;
  entries.splice(at, 0, ['extends', base]);
  for (const k of Object.keys(node)) delete node[k];
  for (const [k, v] of entries) node[k] = v;
}

export function extend(docs: OpDocs, op: ChainOpOf<'extend'>): { dropped: string[] } {
  const { l } = nodeAndBase(docs, op.node, op.base);
  const node = l.value;
  const dropped: string[] = [];
  if (holdsSomething(node.steps) || holdsSomething(node.tasks)) dropped.push('steps');
  if (holdsSomething(node.on_failure)) dropped.push('on_failure');
  if (holdsSomething(node.fix_loop)) dropped.push('fix_loop');
  for (const k of EXTEND_DROPS) delete node[k];
  setExtends(node, op.base);
  return { dropped };
}

/** Drops the keys of `over` equal to the base's (recursively); answers whether any key is left. */
function pruneEqual(over: Obj, base: Obj, prefix: string, dropped: Dropped[]): boolean {
  for (const [k, v] of Object.entries(over)) {
    const b = base[k];
    if (v === null && (b === undefined || b === null)) {
      dropped.push({ key: `${prefix}${k}`, why: `the new base has no \`${prefix}${k}\` to remove` });
      delete over[k];
    } else if (isObj(v) && isObj(b)) {
      if (!pruneEqual(v, b, `${prefix}${k}.`, dropped)) delete over[k];
    } else if (sameData(v, b)) {
      dropped.push({ key: `${prefix}${k}`, why: 'same as the new base' });
      delete over[k];
    }
  }
  return Object.keys(over).length > 0;
}

export function changeBase(
  docs: OpDocs,
  op: ChainOpOf<'change_base'>,
): { kept: string[]; dropped: Dropped[] } {
  const { l, baseNode } = nodeAndBase(docs, op.node, op.base);
  const node = l.value;
  const baseKind = baseNode.kind === 'gate' ? 'gate' : 'exec';
  const kept: string[] = [];
  const dropped: Dropped[] = [];
  for (const [key, v] of Object.entries(node)) {
    if (key === 'id' || key === 'extends') continue;
    if (key === 'kind') {
      const why =
        v === baseKind
          ? 'same as the new base'
          : `a node takes its kind from its base, ${baseKind === 'exec' ? 'an exec' : 'a gate'} node`;
      dropped.push({ key, why });
      delete node[key];
    } else if (baseKind === 'gate' && EXEC_ONLY.includes(key)) {
      dropped.push({ key, why: `the new base is a gate, which takes no \`${key}\`` });
      delete node[key];
    } else if (baseKind === 'exec' && GATE_ONLY.includes(key)) {
      dropped.push({ key, why: `the new base is an exec node, which takes no \`${key}\`` });
      delete node[key];
    } else {
      const probe: Obj = { [key]: v };
      if (pruneEqual(probe, baseNode, '', dropped)) {
        node[key] = probe[key];
        kept.push(key);
      } else delete node[key];
    }
  }
  setExtends(node, op.base);
  return { kept, dropped };
}
