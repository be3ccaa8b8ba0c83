import { own } from '../../json/own.js';
import { LIBRARY_SECTIONS, type LibrarySection } from '../../../contract/config/library.js';
import { TASK_KINDS } from '../../../contract/config/task.js';
import type { ChainOpOf } from '../../../contract/drafts/chain-ops.js';
import { checkNewId, isObj, LIBRARY_FILE, libraryDoc, OpRefused, type Obj, type OpDocs } from './context.js';
import { mustLocate, type Located } from './locate.js';

/*
 * Ops that add a component to library.yaml (spec drafts.md, `move_to_library` and
 * `add_component`): a chain's exec node or task moved there for reuse, or a new empty component
 * written in place for the editor to fill in.
 */

const WORD: Record<LibrarySection, string> = {
  nodes: 'node',
  steps: 'step',
  tasks: 'task',
  steering: 'steering',
};
const NODE_KINDS = ['exec', 'gate'] as const;

const includes = (list: readonly string[], v: string): boolean => list.includes(v);

const isSection = (s: string): s is LibrarySection => includes(LIBRARY_SECTIONS, s);

/**
 * The library document to read before changing it: refuses a library.yaml holding something other
 * than a mapping, which writing a component into would wipe. A missing file reads as empty.
 */
function libraryToRead(docs: OpDocs): Obj {
  const lib = docs.doc(LIBRARY_FILE);
  if (lib === null || lib === undefined) return {};
  if (!isObj(lib)) throw new OpRefused('library.yaml is not a mapping: fix it before adding to it');
  return lib;
}

/**
 * Refuses a name that is not allowed, or is taken in its section, and a section written as
 * something other than a mapping (adding to it would drop what it holds).
 */
function checkName(lib: Obj, section: LibrarySection, name: string): void {
  checkNewId(name, [], `library ${WORD[section]} name`);
  const existing = lib[section];
  if (existing !== undefined && existing !== null && !isObj(existing)) {
    throw new OpRefused(`library.yaml \`${section}\` is not a mapping: fix it before adding to it`);
  }
  if (isObj(existing) && Object.hasOwn(existing, name)) {
    throw new OpRefused(`library.yaml already has \`${section}.${name}\``);
  }
}

/** A section of the library to write into, created (in the file's usual section order) if missing. */
function sectionOf(lib: Obj, section: LibrarySection): Obj {
  const existing = lib[section];
  if (isObj(existing)) return existing;
  const fresh: Obj = {};
  const later = LIBRARY_SECTIONS.slice(LIBRARY_SECTIONS.indexOf(section) + 1);
  // Sections after it are written again after it, so the new one lands before them.
  const moved = Object.keys(lib).filter((k) => includes(later, k));
  const kept = moved.map((k) => [k, lib[k]] as const);
  for (const k of moved) delete lib[k];
  lib[section] = fresh;
  for (const [k, v] of kept) lib[k] = v;
  return fresh;
}

/** A node's kind: its own, else the kind of the library node it extends (exec by default). */
function nodeKind(node: Obj, lib: Obj): unknown {
  const seen = new Set<string>();
  let at: Obj = node;
  for (;;) {
    if (at.kind !== undefined && at.kind !== null) return at.kind;
    const parent =
      typeof at.extends === 'string' && isObj(lib.nodes) ? own(lib.nodes, at.extends) : undefined;
    if (typeof at.extends !== 'string' || seen.has(at.extends) || !isObj(parent)) return 'exec';
    seen.add(at.extends);
    at = parent;
  }
}

const TASK_LIKE: readonly Located['kind'][] = ['task', 'judge', 'escalation', 'auto_review'];

/** Which section a located chain component can move to, or a refusal saying why it cannot. */
function targetSection(found: Located, lib: Obj): 'nodes' | 'tasks' {
  if (TASK_LIKE.includes(found.kind)) return 'tasks';
  const where = `\`${found.path}\``;
  if (found.kind === 'node') {
    if (nodeKind(found.value, lib) === 'gate') {
      throw new OpRefused(`${where} is a gate: only an exec node or a task can move to the library`);
    }
    return 'nodes';
  }
  const what =
    found.kind === 'chain'
      ? 'the chain'
      : found.kind === 'step'
        ? 'a step'
        : found.kind === 'on_base_changed'
          ? 'an `on_base_changed` block'
          : `a handler (\`${found.kind}\`)`;
  throw new OpRefused(
    `${found.path === '' ? 'path ""' : where} is ${what}: only an exec node or a task can move to the library`,
  );
}

export function moveToLibrary(docs: OpDocs, op: ChainOpOf<'move_to_library'>): { path: string } {
  const found = mustLocate(docs.doc(docs.chainFile()), op.path, false);
  const lib = libraryToRead(docs);
  const section = targetSection(found, lib);
  checkName(lib, section, op.name);
  const { id, ...fields } = found.value;
  sectionOf(libraryDoc(docs), section)[op.name] = fields;
  // What stays in the chain is a use of the component: its id (a slot task may have none) and the link.
  const use: Obj = id === undefined ? { extends: op.name } : { id, extends: op.name };
  const h = found.holder;
  if (h.type === 'list') h.list[h.index] = use;
  else if (h.type === 'key') h.obj[h.key] = use;
  return { path: `${section}.${op.name}` };
}

/** A new component as add_component writes it: the least that says what it is. */
function freshComponent(section: LibrarySection, kind: string | undefined): Obj {
  if (kind !== undefined && (section === 'steps' || section === 'steering')) {
    throw new OpRefused(`kind is not taken for \`${section}\`: only nodes and tasks have a kind`);
  }
  if (section === 'nodes') {
    const k = kind ?? 'exec';
    if (!includes(NODE_KINDS, k))
      throw new OpRefused(`kind \`${k}\` is not a node kind: \`exec\` or \`gate\``);
    return { kind: k };
  }
  if (section === 'tasks') {
    // Most library tasks are agent tasks; its prompt is a problem until written.
    const k = kind ?? 'agent';
    if (!includes(TASK_KINDS, k)) {
      throw new OpRefused(
        `kind \`${k}\` is not a task kind: ${TASK_KINDS.map((t) => `\`${t}\``).join(', ')}`,
      );
    }
    return { kind: k };
  }
  // An empty steering text is a problem until written, which is the point: the editor asks for it.
  return section === 'steps' ? { tasks: [] } : { instructions: '' };
}

export function addComponent(docs: OpDocs, op: ChainOpOf<'add_component'>): { path: string } {
  const section = op.section;
  if (!isSection(section)) {
    throw new OpRefused(
      `section \`${section}\` is not a library section: ${LIBRARY_SECTIONS.map((s) => `\`${s}\``).join(', ')}`,
    );
  }
  checkName(libraryToRead(docs), section, op.name);
  const component = freshComponent(section, op.kind);
  sectionOf(libraryDoc(docs), section)[op.name] = component;
  return { path: `${section}.${op.name}` };
}

/**
 * Copies an installed add-on's component into library.yaml under `name` (default: its own name),
 * as written with its names qualified: the copy is yours to change, and what it builds on stays the
 * add-on's (`extends: release:base`) until you copy that too.
 */
export function copyComponent(docs: OpDocs, op: ChainOpOf<'copy_component'>): { path: string } {
  const section = op.section;
  if (!isSection(section)) {
    throw new OpRefused(
      `section \`${section}\` is not a library section: ${LIBRARY_SECTIONS.map((s) => `\`${s}\``).join(', ')}`,
    );
  }
  if (!op.from.includes(':'))
    throw new OpRefused(`from \`${op.from}\` is not an add-on's component: \`<namespace>:<name>\``);
  const found = docs.addonSource(section, op.from);
  if ('known' in found)
    throw new OpRefused(
      `from \`${op.from}\` names no add-on ${section.replace(/s$/, '')} (installed: ${found.known.map((k) => `\`${k}\``).join(', ') || 'none'})`,
    );
  if (!isObj(found.value)) throw new OpRefused(`add-on component \`${op.from}\` is not a mapping`);
  const name = op.name ?? op.from.slice(op.from.indexOf(':') + 1);
  checkName(libraryToRead(docs), section, name);
  sectionOf(libraryDoc(docs), section)[name] = found.value;
  return { path: `${section}.${name}` };
}
