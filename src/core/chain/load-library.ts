import { z } from 'zod';
import { LibraryFile, type LibraryFile as LibraryModel } from '../../contract/config/library.js';
import { ResolvedNode, ResolvedStep, ResolvedTask } from '../../contract/config/resolved-chain.js';
import type { Problem } from '../../contract/problems.js';
import { child, parseYamlTree, type AEntry, type AMap, type ANode } from '../config/tree.js';
import { validateTree } from '../config/validate-tree.js';
import { checkIds } from './check-ids.js';
import { checkShape } from './check-shape.js';
import { fillNodeDefaults, withId } from './fill-defaults.js';
import { chainKeyHint } from './key-hints.js';
import { indexLibrary, type AddonLookup, type LibraryIndex } from './library-index.js';
import { describeLibraryPath } from './paths.js';
import { reporter } from './report.js';
import { Resolver } from './resolve.js';
import { walkChain } from './walk.js';

export const LIBRARY_FILE = 'library.yaml';

export interface LibraryLoadOptions {
  /** The file problems name: `library.yaml`, or an add-on's `addons/<namespace>/library.yaml`. */
  file?: string;
  /** Rewrites the parsed tree before anything reads it (an add-on's qualified names, core/addons). */
  transform?: (tree: ANode) => { tree: ANode; problems: Problem[] };
  /** Indexes the (rewritten) tree; default: the instance library's own index. */
  index?: (tree: ANode | null) => LibraryIndex;
}

export interface LibraryLoad {
  file: string;
  model: LibraryModel | null;
  tree: ANode | null;
  index: LibraryIndex;
  resolver: Resolver;
  problems: Problem[];
  warnings: Problem[];
}

const ResolvedLibrary = z.object({
  nodes: z.record(z.string(), ResolvedNode).optional(),
  steps: z.record(z.string(), ResolvedStep).optional(),
  tasks: z.record(z.string(), ResolvedTask).optional(),
});

const seq = (items: ANode[], like: AMap): ANode => ({ t: 'seq', items, origin: like.origin, pos: like.pos });
const mapOf = (like: AMap, entries: AEntry[]): AMap => ({
  t: 'map',
  entries,
  origin: like.origin,
  pos: like.pos,
});
const ent = (key: string, value: ANode): AEntry => ({ key, keyPos: value.pos, value, origin: value.origin });

/**
 * Loads library.yaml: the file schema, then each node, step and task resolved (its own
 * `extends`) and checked as a usable component, with problems at library paths
 * (`tasks.implementer`, `nodes.verification.review.code_review`). `addons` answers
 * `<namespace>:<name>` references.
 */
export function loadLibrary(
  text: string | null,
  addons?: AddonLookup,
  opts: LibraryLoadOptions = {},
): LibraryLoad {
  const file = opts.file ?? LIBRARY_FILE;
  const read = text === null ? { tree: null, problems: [] } : parseYamlTree(text, file, 'library');
  const shaped = read.tree && opts.transform ? opts.transform(read.tree) : null;
  const parsed = shaped ? { tree: shaped.tree, problems: [...read.problems, ...shaped.problems] } : read;
  const index = opts.index ? opts.index(parsed.tree) : indexLibrary(parsed.tree, addons);
  const resolver = new Resolver(index);
  const out: LibraryLoad = {
    file,
    model: null,
    tree: parsed.tree,
    index,
    resolver,
    problems: [...parsed.problems],
    warnings: [],
  };
  if (!parsed.tree || out.problems.length) return out;
  const raw = validateTree(parsed.tree, LibraryFile, {
    file,
    describe: describeLibraryPath,
    hint: chainKeyHint(true),
  });
  out.model = raw.data;
  out.warnings.push(...raw.warnings);
  out.problems.push(...raw.problems);
  if (raw.problems.length) return out;

  const resolved: Record<'nodes' | 'steps' | 'tasks', AEntry[]> = { nodes: [], steps: [], tasks: [] };
  for (const section of ['nodes', 'steps', 'tasks'] as const) {
    for (const name of index.names[section]) {
      const r = resolver.libraryComponent(section, name, out.problems);
      if (!r) continue;
      const withName = withId(r, name);
      resolved[section].push(ent(name, section === 'nodes' ? fillNodeDefaults(withName) : withName));
    }
  }
  if (out.problems.length) return out;

  const top = parsed.tree as AMap;
  const wrapper = mapOf(
    top,
    (['nodes', 'steps', 'tasks'] as const).map((s) =>
      ent(s, mapOf((child(top, s) as AMap | undefined) ?? top, resolved[s])),
    ),
  );
  const checked = validateTree(wrapper, ResolvedLibrary, {
    file,
    describe: describeLibraryPath,
    hint: chainKeyHint(true),
  });
  out.problems.push(...checked.problems);
  if (checked.problems.length) return out;

  // Shape and id rules, by wrapping each component in a one-node chain and renaming the paths back.
  for (const section of ['nodes', 'steps', 'tasks'] as const) {
    for (const e of resolved[section]) {
      const name = e.key;
      const comp = e.value as AMap;
      const node =
        section === 'nodes'
          ? comp
          : fillNodeDefaults(
              mapOf(comp, [
                ent('id', { t: 'scalar', value: name, origin: comp.origin, pos: comp.pos }),
                ent(section, seq([comp], comp)),
              ]),
            );
      const chainTree = mapOf(comp, [ent('nodes', seq([node], comp))]);
      const data = { nodes: [toPlainObj(node)] };
      const visits = walkChain(data);
      const report = reporter(data, chainTree);
      const prefix =
        section === 'nodes' ? `${name}` : section === 'steps' ? `${name}.${name}` : `${name}.main.${name}`;
      for (const p of [...checkIds(visits, report), ...checkShape(visits, report)]) {
        const rest =
          p.path === prefix ? '' : p.path.startsWith(`${prefix}.`) ? p.path.slice(prefix.length) : null;
        if (rest === null) continue; // a rule about the made-up wrapper node
        out.problems.push({ ...p, path: `${section}.${name}${rest}` });
      }
    }
  }
  return out;
}

function toPlainObj(n: ANode): unknown {
  if (n.t === 'scalar') return n.value;
  if (n.t === 'seq') return n.items.map(toPlainObj);
  return Object.fromEntries(n.entries.map((e) => [e.key, toPlainObj(e.value)]));
}
