import { LIBRARY_SECTIONS, type LibrarySection } from '../../contract/config/library.js';
import { child, withOrigin, type AMap, type ANode } from '../config/tree.js';

/**
 * Finds a library component by section and name. Bare names are this instance's library;
 * `<namespace>:<name>` belongs to an add-on, answered by the lookup an add-on registry passes in.
 */
export type ComponentLookup = (section: LibrarySection, name: string) => AMap | undefined;
/** An add-on's component, already labelled with its own origin (file and `source`). */
export type AddonLookup = (section: LibrarySection, namespace: string, name: string) => AMap | undefined;

export interface LibraryIndex {
  lookup: ComponentLookup;
  names: Record<LibrarySection, string[]>;
}

/** Indexes library.yaml, labelling each component's pieces `library:<section>.<name>` for `sources`. */
export function indexLibrary(tree: ANode | null, addons?: AddonLookup): LibraryIndex {
  const own = new Map<string, AMap>();
  const names = { nodes: [], steps: [], tasks: [], steering: [] } as Record<LibrarySection, string[]>;
  for (const section of LIBRARY_SECTIONS) {
    const sec = child(tree ?? undefined, section);
    if (sec?.t !== 'map') continue;
    for (const e of sec.entries) {
      if (e.value.t !== 'map') continue;
      names[section].push(e.key);
      own.set(
        `${section}.${e.key}`,
        withOrigin(e.value, { file: e.origin.file, source: `library:${section}.${e.key}` }) as AMap,
      );
    }
  }
  return {
    names,
    lookup: (section, name) => {
      const colon = name.indexOf(':');
      if (colon > 0) return addons?.(section, name.slice(0, colon), name.slice(colon + 1));
      return own.get(`${section}.${name}`);
    },
  };
}
