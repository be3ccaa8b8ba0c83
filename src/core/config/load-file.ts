import type { z } from 'zod';
import type { Problem } from '../../contract/problems.js';
import { parseYamlTree, type ANode } from './tree.js';
import { validateTree, type HintFor } from './validate-tree.js';

/** One settings file, loaded: the model (null when it does not load), its tree, problems, warnings. */
export interface FileLoad<T> {
  file: string;
  model: T | null;
  tree: ANode | null;
  problems: Problem[];
  warnings: Problem[];
}

export interface FileRules<T> {
  hint?: HintFor;
  /** Rules beside the schema (both-set keys, nesting), run on a model that passed it. */
  rules?: (model: T, tree: ANode, file: string) => Problem[];
}

/**
 * Text → model with every problem at its line and column. A missing file (null) loads as an
 * empty one, so its defaults apply; whether a missing file is itself a problem is the caller's.
 */
export function loadFile<T>(
  file: string,
  text: string | null,
  schema: z.ZodType<T>,
  rules: FileRules<T> = {},
): FileLoad<T> {
  const parsed = parseYamlTree(text ?? '', file, 'file');
  const out: FileLoad<T> = {
    file,
    model: null,
    tree: parsed.tree,
    problems: [...parsed.problems],
    warnings: [],
  };
  if (!parsed.tree) return out;
  const checked = validateTree(parsed.tree, schema, { file, ...(rules.hint ? { hint: rules.hint } : {}) });
  out.warnings.push(...checked.warnings);
  out.problems.push(...checked.problems);
  if (checked.data === null) return out;
  const more = rules.rules?.(checked.data, parsed.tree, file) ?? [];
  out.problems.push(...more);
  out.model = more.length ? null : checked.data;
  return out;
}
