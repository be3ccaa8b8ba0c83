import { KNOWN_ICONS } from '../../contract/config/icons.js';
import type { Problem } from '../../contract/problems.js';
import { describeReference } from './check-references.js';
import { findKeys } from './references.js';
import { suggest } from './suggest.js';
import type { ANode } from './tree.js';

const ICON = new Set(['icon']);

/**
 * A warning (never a refusal) for each `icon:` of a chain or library tree that is not a known
 * icon, with "did you mean" when a known one is close. Only values written in `file` itself are
 * checked, so an icon from library.yaml is warned about once, in the library.
 */
export function checkIcons(
  tree: ANode,
  file: string,
  library: boolean,
  known: readonly string[] = KNOWN_ICONS,
): Problem[] {
  const out: Problem[] = [];
  for (const { path, entry } of findKeys(tree, ICON)) {
    if (entry.origin.file !== file || entry.value.t !== 'scalar') continue;
    const name = entry.value.value;
    if (typeof name !== 'string' || known.includes(name)) continue;
    const s = suggest(name, known);
    out.push({
      ...describeReference(library, false, tree, path),
      message: `icon \`${name}\` is not a known icon${s ? `; did you mean \`${s}\`?` : ''}; the board shows a neutral icon`,
      file: entry.value.origin.file,
      ...entry.value.pos,
    });
  }
  return out;
}
