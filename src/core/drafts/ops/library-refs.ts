import type { LibrarySection } from '../../../contract/config/library.js';
import { isObj, LIBRARY_FILE, type Obj, type OpDocs } from './context.js';

/*
 * Where a library component is named: every `extends:` of a node, step or task and every task's
 * `steering:` entry, in library.yaml and every chain file. Renaming a library component rewrites
 * them; removing one reports them as dangling. Paths are canonical (core/chain/paths.ts): the
 * walk below follows the same shapes as locate.ts, so each path found here locates again.
 */

export interface LibraryRef {
  file: string;
  /** Canonical path of the component holding the reference (library paths start with the section). */
  path: string;
  field: 'extends' | 'steering';
}

export type WalkKind = 'node' | 'step' | 'task';

/** Called for each node, step (not the shorthand's `main`) and task, slot tasks included. */
export type Visit = (kind: WalkKind, path: string, value: Obj) => void;

const idOf = (v: unknown, fallback: string): string =>
  isObj(v) && typeof v.id === 'string' && v.id !== '' ? v.id : fallback;

const join = (comp: readonly string[]): string => comp.join('.');

function walkTask(comp: string[], v: unknown, visit: Visit): void {
  if (!isObj(v)) return;
  visit('task', join(comp), v);
  walkPlan([...comp, 'on_failure'], v.on_failure, visit);
}

function walkTasks(comp: string[], list: unknown, visit: Visit): void {
  if (!Array.isArray(list)) return;
  list.forEach((t, i) => walkTask([...comp, idOf(t, `#${i}`)], t, visit));
}

function walkStep(comp: string[], v: unknown, visit: Visit): void {
  if (!isObj(v)) return;
  visit('step', join(comp), v);
  walkTasks(comp, v.tasks, visit);
  walkPlan([...comp, 'on_failure'], v.on_failure, visit);
}

/** The steps of a node or plan: the tasks shorthand as step `main`, or the `steps` list. */
function walkChildren(comp: string[], owner: Obj, visit: Visit): void {
  walkTasks([...comp, 'main'], owner.tasks, visit);
  if (Array.isArray(owner.steps))
    owner.steps.forEach((s, i) => walkStep([...comp, idOf(s, `#${i}`)], s, visit));
}

function walkPlan(comp: string[], v: unknown, visit: Visit): void {
  if (!isObj(v)) return;
  walkChildren(comp, v, visit);
  walkTask([...comp, 'judge'], v.judge, visit);
}

export function walkNode(comp: string[], v: unknown, visit: Visit): void {
  if (!isObj(v)) return;
  visit('node', join(comp), v);
  walkChildren(comp, v, visit);
  walkPlan([...comp, 'on_failure'], v.on_failure, visit);
  walkPlan([...comp, 'fix_loop'], v.fix_loop, visit);
  walkTask([...comp, 'escalation', idOf(v.escalation, 'escalate')], v.escalation, visit);
  if (isObj(v.on_base_changed))
    walkPlan([...comp, 'on_base_changed', 'on_conflict'], v.on_base_changed.on_conflict, visit);
  walkTask([...comp, 'auto_review'], v.auto_review, visit);
}

/** Every node, step and task of a chain document. */
export function walkChain(doc: unknown, visit: Visit): void {
  if (!isObj(doc) || !Array.isArray(doc.nodes)) return;
  doc.nodes.forEach((n, i) => walkNode([idOf(n, `#${i}`)], n, visit));
}

/** Every node, step and task of library.yaml (steering entries are not components that refer). */
export function walkLibrary(doc: unknown, visit: Visit): void {
  if (!isObj(doc)) return;
  const section = (name: string): [string, unknown][] => (isObj(doc[name]) ? Object.entries(doc[name]) : []);
  for (const [name, v] of section('nodes')) walkNode(['nodes', name], v, visit);
  for (const [name, v] of section('steps')) walkStep(['steps', name], v, visit);
  for (const [name, v] of section('tasks')) walkTask(['tasks', name], v, visit);
}

const EXTENDS_SECTION: Record<WalkKind, LibrarySection> = { node: 'nodes', step: 'steps', task: 'tasks' };

/**
 * Visits each reference to `<section>.<name>` with a setter that retargets it; `to` null only
 * collects. Library first, then chain files in order.
 */
function eachRef(docs: OpDocs, section: LibrarySection, name: string, to: string | null): LibraryRef[] {
  const refs: LibraryRef[] = [];
  const files = [LIBRARY_FILE, ...docs.chainFiles()];
  for (const file of files) {
    const doc = docs.doc(file);
    const visit: Visit = (kind, path, v) => {
      if (EXTENDS_SECTION[kind] === section && v.extends === name) {
        refs.push({ file, path, field: 'extends' });
        if (to !== null) v.extends = to;
      }
      if (
        section === 'steering' &&
        kind === 'task' &&
        Array.isArray(v.steering) &&
        v.steering.includes(name)
      ) {
        refs.push({ file, path, field: 'steering' });
        if (to !== null) v.steering = v.steering.map((s: unknown) => (s === name ? to : s));
      }
    };
    if (file === LIBRARY_FILE) walkLibrary(doc, visit);
    else walkChain(doc, visit);
  }
  return refs;
}

/** Every `extends:` or `steering:` entry naming library component `<section>.<name>`. */
export function libraryRefs(docs: OpDocs, section: LibrarySection, name: string): LibraryRef[] {
  return eachRef(docs, section, name, null);
}

/**
 * Rewrites every reference to `<section>.<name>` to name `to`; answers the references, with the
 * paths the documents have when it is called (rename moves the component's key first).
 */
export function retargetLibraryRefs(
  docs: OpDocs,
  section: LibrarySection,
  name: string,
  to: string,
): LibraryRef[] {
  return eachRef(docs, section, name, to);
}
