import { ChainFile } from '../../contract/config/chain.js';
import { IDENTIFIER_MAX, IDENTIFIER_PATTERN } from '../../contract/config/ids.js';
import { ResolvedChainInput } from '../../contract/config/resolved-chain.js';
import type { Problem } from '../../contract/problems.js';
import { entry, parseYamlTree, scalar, type AMap } from '../config/tree.js';
import { validateTree } from '../config/validate-tree.js';
import { checkIds } from './check-ids.js';
import { checkOrder } from './check-order.js';
import { checkShape } from './check-shape.js';
import { fillNodeDefaults, withId } from './fill-defaults.js';
import { chainKeyHint } from './key-hints.js';
import type { LibraryIndex } from './library-index.js';
import { toModel, type ResolvedChain } from './model.js';
import { describeChainPath } from './paths.js';
import { reporter } from './report.js';
import { Resolver } from './resolve.js';
import { walkChain } from './walk.js';

export interface ChainLoad {
  id: string;
  file: string;
  /** The file as written, when it passes the file schema. */
  model: ChainFile | null;
  /** extends expanded, `main` steps, canonical paths; null when the chain does not resolve. */
  resolved: ResolvedChain | null;
  /** The merged chain as checked (tasks shorthand kept), for sources and policy layering. */
  checked: ResolvedChainInput | null;
  /** The merged tree: where each value was written and by which layer. */
  tree: AMap | null;
  problems: Problem[];
  warnings: Problem[];
}

export interface ChainContext {
  library: LibraryIndex;
  resolver: Resolver;
}

export function chainFileName(id: string): string {
  return `chains/${id}.yaml`;
}

/**
 * Loads one chain file: YAML with positions, the file schema, `extends` against the library,
 * the resolved schema, then ids, shape and order rules. Each stage runs only when the one
 * before found nothing, so one mistake does not echo as several.
 */
export function loadChain(
  id: string,
  text: string,
  ctx: ChainContext,
  opts: { file?: string; transform?: (tree: AMap) => { tree: AMap; problems: Problem[] } } = {},
): ChainLoad {
  const file = opts.file ?? chainFileName(id);
  const out: ChainLoad = {
    id,
    file,
    model: null,
    resolved: null,
    checked: null,
    tree: null,
    problems: [],
    warnings: [],
  };
  const parsed = parseYamlTree(text, file, 'chain');
  if (!parsed.tree || parsed.tree.t !== 'map') {
    out.problems = parsed.problems;
    return out;
  }
  const shaped = opts.transform ? opts.transform(parsed.tree) : null;
  if (shaped?.problems.length) {
    out.problems = shaped.problems;
    return out;
  }
  const tree = shaped ? shaped.tree : parsed.tree;
  if (!IDENTIFIER_PATTERN.test(id) || id.length > IDENTIFIER_MAX) {
    out.problems.push({
      path: '',
      field: 'id',
      message: `chain id \`${id}\` (the file name) is not an identifier: a lowercase letter, then lowercase letters, digits, \`_\` or \`-\``,
      file,
      line: 1,
      col: 1,
    });
  }
  const own = entry(tree, 'id');
  if (own && typeof scalar(own.value) === 'string' && scalar(own.value) !== id) {
    out.problems.push({
      path: '',
      field: 'id',
      message: `id \`${String(scalar(own.value))}\` differs from the file name \`${id}\`: a chain's id is its file stem`,
      file,
      ...own.value.pos,
    });
  }
  const raw = validateTree(tree, ChainFile, { file, describe: describeChainPath, hint: chainKeyHint(false) });
  out.warnings.push(...raw.warnings);
  out.problems.push(...raw.problems);
  out.model = raw.data;
  if (out.problems.length) return out;

  // extends
  const resolving: Problem[] = [];
  const merged: AMap = {
    ...withId(tree, id),
    entries: withId(tree, id).entries.map((e) => {
      if (e.key !== 'nodes' || e.value.t !== 'seq') return e;
      const items = e.value.items.map((n, i) => {
        if (n.t !== 'map') return n;
        const nid = scalar(entry(n, 'id')?.value);
        return fillNodeDefaults(
          ctx.resolver.component('nodes', n, typeof nid === 'string' ? nid : `#${i}`, resolving),
        );
      });
      return { ...e, value: { ...e.value, items } };
    }),
  };
  out.tree = merged;
  if (resolving.length) {
    out.problems.push(...resolving);
    return out;
  }

  const checked = validateTree(merged, ResolvedChainInput, {
    file,
    describe: describeChainPath,
    hint: chainKeyHint(false),
  });
  if (checked.problems.length || !checked.data) {
    out.problems.push(...checked.problems);
    return out;
  }
  const visits = walkChain(checked.data);
  const report = reporter(checked.data, merged);
  out.problems.push(
    ...checkIds(visits, report),
    ...checkShape(visits, report),
    ...checkOrder(visits, report),
  );
  if (out.problems.length) return out;
  out.checked = checked.data;
  out.resolved = toModel(checked.data);
  return out;
}
