import { stringify } from 'yaml';
import type { Problem } from '../../../contract/problems.js';
import { checkOrder } from '../../chain/check-order.js';
import { fillNodeDefaults } from '../../chain/fill-defaults.js';
import { indexLibrary } from '../../chain/library-index.js';
import { reporter } from '../../chain/report.js';
import { Resolver } from '../../chain/resolve.js';
import { walkChain } from '../../chain/walk.js';
import { entry, parseYamlTree, scalar, toPlain, type AMap } from '../../config/tree.js';

/*
 * The order problems of a chain (spec drafts.md, `move`): a `reject_to` or
 * `on_base_changed.restart_from` naming a node after the one that names it, or a gate whose
 * `artifact` no earlier node produces. They come from the same rule a reload runs
 * (core/chain/check-order.ts), on the chain with its nodes' `extends` expanded, so a node's kind
 * and what its tasks produce are the library's where the chain does not say. Unlike a reload this
 * runs whatever else is wrong with the chain (a node without steps, a bad key): a draft being
 * built is rarely without problems, and a move must still not add an order one.
 */

const ORDER = [/ comes later$/, /^artifact `[^`]*`: no node before this gate produces it/];

/** Each order problem as `path.field: message`. */
export function orderProblems(chain: unknown, library: unknown): string[] {
  const libTree =
    library === null || library === undefined
      ? null
      : parseYamlTree(stringify(library), 'library.yaml', 'library').tree;
  const resolver = new Resolver(indexLibrary(libTree));
  const parsed = parseYamlTree(stringify(chain ?? {}), 'chain.yaml', 'chain');
  const tree = parsed.tree;
  if (tree?.t !== 'map') return [];
  const resolving: Problem[] = [];
  const merged: AMap = {
    ...tree,
    entries: tree.entries.map((e) => {
      if (e.key !== 'nodes' || e.value.t !== 'seq') return e;
      const items = e.value.items.map((n, i) => {
        if (n.t !== 'map') return n;
        const id = scalar(entry(n, 'id')?.value);
        return fillNodeDefaults(
          resolver.component('nodes', n, typeof id === 'string' ? id : `#${i}`, resolving),
        );
      });
      return { ...e, value: { ...e.value, items } };
    }),
  };
  const data = toPlain(merged);
  return checkOrder(walkChain(data), reporter(data, merged))
    .filter((p) => ORDER.some((re) => re.test(p.message)))
    .map((p) => `${[p.path, p.field].filter(Boolean).join('.')}: ${p.message}`);
}
