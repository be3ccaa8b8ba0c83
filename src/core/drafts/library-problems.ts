import { LIBRARY_SECTIONS } from '../../contract/config/library.js';
import type { Problem } from '../../contract/problems.js';
import type { ChainLoad } from '../chain/load-chain.js';
import { LIBRARY_FILE } from '../chain/load-library.js';
import { walkChain, type Visit } from '../chain/walk.js';
import { child, entry, toPlain, type AEntry, type ANode, type PathSeg } from '../config/tree.js';
import type { ConfigSet } from '../config/validate-set.js';

/*
 * A library draft's `problems` (spec drafts.md, "The result object"): everything a library save
 * would refuse, checked against every chain and repo, each saying what it breaks (`chain`,
 * `repo`, both null for library.yaml itself) and the library component it comes from.
 */

export type LibraryProblem = Problem & {
  chain: string | null;
  repo: string | null;
  component: string | null;
};

const SECTIONS: readonly string[] = LIBRARY_SECTIONS;
const keyOf = (p: Problem): string => `${p.file}:${p.line}:${p.col}:${p.path}:${p.message}`;
const local = (name: unknown): name is string =>
  typeof name === 'string' && name !== '' && !name.includes(':');
const SECTION_OF = { node: 'nodes', step: 'steps', task: 'tasks' } as const;

/** `tasks.implementer` from a library path (`tasks.implementer.on_failure.main.retry`). */
function componentOfPath(path: string): string | null {
  const [section, name] = path.split('.');
  return section !== undefined && name !== undefined && SECTIONS.includes(section)
    ? `${section}.${name}`
    : null;
}

/**
 * The library component a chain problem comes from: the component an `extends` or `steering` at
 * the problem names, else the library layer that wrote the value the problem is about.
 */
function chainComponent(c: ChainLoad, visits: Visit[], p: Problem): string | null {
  const steering = p.field?.split('.')[0] === 'steering' ? /^steering `([^`]+)`/.exec(p.message) : null;
  if (steering) return local(steering[1]) ? `steering.${steering[1]}` : null;
  const visit = visits.find((v) => v.path === p.path);
  if (!visit) return null;
  const ext = visit.value.extends;
  const aboutExtends = p.field === 'extends' || (p.field === 'kind' && p.message.includes('does not match'));
  if (aboutExtends) return local(ext) ? `${SECTION_OF[visit.kind]}.${ext}` : null;
  if (!c.tree) return null;
  return writtenBy(c.tree, [...visit.dataPath, ...(p.field?.split('.') ?? [])]);
}

/** The `library:<ref>` layer that wrote the deepest piece of the merged tree along a path. */
function writtenBy(tree: ANode, path: PathSeg[]): string | null {
  let node: ANode | undefined = tree;
  let source: string = tree.origin.source;
  for (const seg of path) {
    if (!node) break;
    const e: AEntry | undefined = node.t === 'map' ? entry(node, String(seg)) : undefined;
    if (e) source = e.origin.source;
    node = node.t === 'seq' ? child(node, Number(seg)) : e?.value;
    if (node) source = node.origin.source;
  }
  return source.startsWith('library:') ? source.slice('library:'.length) : null;
}

/** A repos.yaml problem about a repo's `steering:`, at path `steering`; null for any other. */
function repoSteering(set: ConfigSet, p: Problem): LibraryProblem | null {
  const m = /^repos\.(\d+)$/.exec(p.path);
  const [head, index, ...rest] = p.field?.split('.') ?? [];
  if (!m || head !== 'steering') return null;
  const r = set.repos.model?.repos[Number(m[1])];
  const name = index !== undefined ? r?.steering?.[Number(index)] : undefined;
  return {
    ...p,
    path: 'steering',
    field: index === undefined ? null : [index, ...rest].join('.'),
    chain: null,
    repo: r?.path ?? null,
    component: local(name) ? `steering.${name}` : null,
  };
}

/**
 * Every problem of library.yaml, of each chain file and of repos.yaml's `steering:` lists, each
 * once. A library problem a chain repeats (library components are resolved once and their
 * problems repeated to each user) is listed once, as the library's own.
 */
export function libraryProblems(set: ConfigSet): LibraryProblem[] {
  const seen = new Set<string>();
  const out: LibraryProblem[] = [];
  const put = (p: Problem, tagged: LibraryProblem | null): void => {
    const k = keyOf(p);
    if (!tagged || seen.has(k)) return;
    seen.add(k);
    out.push(tagged);
  };
  for (const p of set.library.problems) {
    put(p, { ...p, chain: null, repo: null, component: componentOfPath(p.path) });
  }
  for (const c of Object.values(set.chains)) {
    if (c.problems.length === 0) continue;
    const visits = walkChain(c.tree ? toPlain(c.tree) : c.model);
    const paths = new Set(visits.map((v) => v.path));
    for (const p of c.problems) {
      // A library component's own problem, met while resolving this chain: it is library.yaml's.
      const own = p.file === LIBRARY_FILE && !paths.has(p.path);
      const component = own ? componentOfPath(p.path) : chainComponent(c, visits, p);
      put(p, { ...p, chain: own ? null : c.id, repo: null, component });
    }
  }
  for (const p of set.repos.problems) put(p, repoSteering(set, p));
  return out;
}
