import { LIBRARY_SECTIONS, type LibrarySection } from '../../contract/config/library.js';
import { walkChain } from '../chain/walk.js';
import { chainChanges, type Change } from './chain-changes.js';

/*
 * A library draft's `changes` (spec drafts.md, "The result object"): rows at library component
 * paths (`tasks.implementer`, `nodes.verification.review.code_review`), each with `reaches`, the
 * chains that use the component. Each component is compared by wrapping it in a one-node chain
 * and running the chain comparison, so what counts as a change inside a component (moves of steps
 * and tasks, handlers, slots) is the same in the library as in a chain file.
 */

type Obj = Record<string, unknown>;

/** A library component ref (`tasks.implementer`) → ids of the chains that use it. */
export type LibraryUses = (ref: string) => string[];

export type LibraryChange = Change & { reaches: string[] };

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Not an identifier, so no id inside a component can meet it. */
const HOLE = '\u0000';

const WORD: Record<LibrarySection, string> = {
  nodes: 'node',
  steps: 'step',
  tasks: 'task',
  steering: 'steering',
};

/** The components of one section by name; entries that are not mappings count as absent. */
function section(file: unknown, s: LibrarySection): Map<string, Obj> {
  const sec = isObj(file) ? file[s] : undefined;
  if (!isObj(sec)) return new Map();
  return new Map(Object.entries(sec).filter((e): e is [string, Obj] => isObj(e[1])));
}

/**
 * A component as a one-node chain, and the canonical path it gets there. A steering entry is
 * wrapped as a task (its keys are plain fields either way).
 */
function wrap(s: LibrarySection, v: Obj | undefined): { chain: unknown; at: string } {
  if (s === 'nodes') return { chain: { nodes: v ? [{ ...v, id: HOLE }] : [] }, at: HOLE };
  if (s === 'steps')
    return { chain: { nodes: [{ id: HOLE, steps: v ? [{ ...v, id: HOLE }] : [] }] }, at: `${HOLE}.${HOLE}` };
  return {
    chain: { nodes: [{ id: HOLE, tasks: v ? [{ ...v, id: HOLE }] : [] }] },
    at: `${HOLE}.main.${HOLE}`,
  };
}

/** One component's rows, at library paths; the wrapper node's own rows are left out. */
function componentChanges(
  s: LibrarySection,
  name: string,
  was: Obj | undefined,
  now: Obj | undefined,
): Change[] {
  const before = wrap(s, was);
  const after = wrap(s, now);
  const ref = `${s}.${name}`;
  const out: Change[] = [];
  for (const c of chainChanges(before.chain, after.chain)) {
    if (c.path === before.at) {
      const summary =
        c.kind === 'add' ? `${WORD[s]} added` : c.kind === 'remove' ? `${WORD[s]} removed` : c.summary;
      out.push({ ...c, path: ref, summary });
    } else if (c.path.startsWith(`${before.at}.`)) {
      out.push({ ...c, path: `${ref}${c.path.slice(before.at.length)}` });
    }
  }
  return out;
}

/**
 * What a library draft changes against the published library.yaml, section by section, each
 * row with the chains it reaches. Components are found by name, so reordering a section's
 * entries changes nothing; a reordered step or task inside a component is a change that says
 * moved, as in a chain.
 */
export function libraryChanges(published: unknown, draft: unknown, uses: LibraryUses): LibraryChange[] {
  const out: LibraryChange[] = [];
  for (const s of LIBRARY_SECTIONS) {
    const before = section(published, s);
    const after = section(draft, s);
    const names = [...after.keys(), ...[...before.keys()].filter((n) => !after.has(n))];
    for (const name of names) {
      const reaches = uses(`${s}.${name}`);
      for (const c of componentChanges(s, name, before.get(name), after.get(name)))
        out.push({ ...c, reaches });
    }
  }
  return out;
}

/** The library refs a chain-like value names: `extends` by where it sits, and `steering` names. */
function refsIn(chain: unknown): Set<string> {
  const refs = new Set<string>();
  const add = (ref: string, name: unknown): void => {
    // `<namespace>:<name>` belongs to an add-on, not to this library.
    if (typeof name === 'string' && name !== '' && !name.includes(':')) refs.add(`${ref}.${name}`);
  };
  for (const v of walkChain(chain)) {
    add(v.kind === 'node' ? 'nodes' : v.kind === 'step' ? 'steps' : 'tasks', v.value.extends);
    if (v.kind === 'task') for (const n of list(v.value.steering)) add('steering', n);
  }
  return refs;
}

/** The refs each library component names itself (its own `extends` and everything inside it). */
function libraryRefs(library: unknown): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const s of ['nodes', 'steps', 'tasks'] as const) {
    for (const [name, v] of section(library, s)) {
      const chain =
        s === 'nodes' ? { nodes: [v] } : { nodes: [s === 'steps' ? { steps: [v] } : { tasks: [v] }] };
      out.set(`${s}.${name}`, refsIn(chain));
    }
  }
  return out;
}

/**
 * Which chains use which library component, from parsed chain files (id → file) and a parsed
 * library.yaml: a node's `extends` names a library node, a step's a step, a task's (slots and
 * handler tasks too) a task; a task's `steering` names steering entries. A library component
 * passes its users on to what it names in turn. This reads files as written: a chain that
 * overrides a list its library parent sets (a task's `steering`, a node's `tasks`) is still
 * counted as using what that list named, which errs towards reaching more chains.
 */
export function libraryUses(chains: Record<string, unknown>, library: unknown): LibraryUses {
  const inLibrary = libraryRefs(library);
  const users = new Map<string, Set<string>>();
  for (const [id, file] of Object.entries(chains)) {
    const todo = [...refsIn(file)];
    const seen = new Set<string>();
    for (let ref = todo.pop(); ref !== undefined; ref = todo.pop()) {
      if (seen.has(ref)) continue;
      seen.add(ref);
      let set = users.get(ref);
      if (!set) users.set(ref, (set = new Set()));
      set.add(id);
      todo.push(...(inLibrary.get(ref) ?? []));
    }
  }
  return (ref) => [...(users.get(ref) ?? [])].sort();
}

/** Chains reached either way: as published or as drafted. */
export function eitherUses(...uses: LibraryUses[]): LibraryUses {
  return (ref) => [...new Set(uses.flatMap((u) => u(ref)))].sort();
}
