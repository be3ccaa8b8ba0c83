import { ProviderDefinition } from '../../contract/harness/provider.js';
import type { Problem } from '../../contract/problems.js';
import { mergeMaps } from '../chain/merge.js';
import { entry, parseYamlTree, scalar, type AMap, type ANode } from '../config/tree.js';
import { validateTree } from '../config/validate-tree.js';

/** One provider file's text, named as problems should name it. */
export interface ProviderSource {
  /** e.g. `defaults/harnesses/claude.yaml` or `config/harnesses/claude.yaml`. */
  file: string;
  text: string;
}

export interface ProvidersLoad {
  /** Every definition that loaded, by id. A provider with problems is left out. */
  providers: Record<string, ProviderDefinition>;
  problems: Problem[];
}

const baseName = (file: string): string => (file.split('/').pop() ?? file).replace(/\.ya?ml$/, '');

function problemAt(file: string, message: string, node?: ANode, line?: number, col?: number): Problem {
  return {
    path: '',
    field: null,
    message,
    file,
    line: line ?? node?.pos.line ?? null,
    col: col ?? node?.pos.col ?? null,
  };
}

interface Parsed {
  id: string;
  tree: AMap;
}

function parse(src: ProviderSource, source: string, problems: Problem[]): Parsed | null {
  const parsed = parseYamlTree(src.text, src.file, source);
  problems.push(...parsed.problems);
  if (!parsed.tree) return null;
  if (parsed.tree.t !== 'map') {
    problems.push(problemAt(src.file, 'a provider file is a mapping', parsed.tree));
    return null;
  }
  const name = baseName(src.file);
  const idEntry = entry(parsed.tree, 'id');
  const id = scalar(idEntry?.value);
  if (idEntry && id !== name) {
    problems.push({
      ...problemAt(src.file, `id \`${String(id)}\` does not match the file name \`${name}\``),
      field: 'id',
      line: idEntry.keyPos.line,
      col: idEntry.keyPos.col,
    });
    return null;
  }
  return { id: name, tree: parsed.tree };
}

/**
 * Packaged provider files plus the user's `config/harnesses/<id>.yaml` → definitions. A user file
 * whose id matches a packaged one is merged over it key by key (mappings merge, lists and scalars
 * replace, null removes), so an override can be a few lines; a new id adds a provider and must be
 * complete. Problems point at the file and line that wrote the offending value.
 */
export function loadProviders(input: { packaged: ProviderSource[]; user?: ProviderSource[] }): ProvidersLoad {
  const problems: Problem[] = [];
  const trees = new Map<string, AMap>();
  for (const src of input.packaged) {
    const p = parse(src, 'packaged', problems);
    if (p) trees.set(p.id, p.tree);
  }
  for (const src of input.user ?? []) {
    const p = parse(src, 'user', problems);
    if (!p) continue;
    const base = trees.get(p.id);
    trees.set(p.id, base ? mergeMaps(base, p.tree) : p.tree);
  }
  const providers: Record<string, ProviderDefinition> = {};
  for (const [id, tree] of trees) {
    const file = tree.origin.file;
    const checked = validateTree(tree, ProviderDefinition, { file });
    problems.push(...checked.problems);
    if (checked.data) providers[id] = checked.data;
  }
  return { providers, problems };
}
