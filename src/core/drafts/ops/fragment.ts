import { parseDocument, stringify } from 'yaml';
import type { ChainOpOf } from '../../../contract/drafts/chain-ops.js';
import { isObj, libraryDoc, OpRefused, type Obj, type OpDocs } from './context.js';
import { locateInChain, locateInLibrary, mustLocate, type Located } from './locate.js';

/*
 * A component as YAML text (`GET …/fragment?path=`) and `set_fragment`, which writes such text
 * back: what the editor shows is exactly what it sends. The text holds the component's own keys
 * as written, `id` included where the component has one; a library component's name is its key in
 * the section, so its text has no `id`.
 *
 * The tasks shorthand (`node.main`) reads as `{id: main, tasks}`. Writing it keeps the shorthand
 * while it holds only tasks; any other key makes it a real step `main` under `steps:`.
 */

/** The id a component answers to (slots have fixed defaults), or null: it has none. */
function currentId(docs: OpDocs, l: Located): string | null {
  if (l.library) return l.library.name;
  if (l.kind === 'chain') return docs.chainFile().replace(/^chains\/(.*)\.yaml$/, '$1');
  if (typeof l.value.id === 'string' && l.value.id !== '') return l.value.id;
  if (l.kind === 'escalation') return 'escalate';
  if (l.kind === 'judge') return 'judge';
  if (l.kind === 'auto_review') return 'reviewer';
  if (l.kind === 'node' || l.kind === 'step' || l.kind === 'task') return l.path.split('.').pop() ?? null;
  return null;
}

/** Replaces `from` by `to` in an object, keeping the key's place (files are written in key order). */
export function replaceKey(obj: Obj, from: string, to: string, value: unknown): void {
  const entries = Object.entries(obj).map(([k, v]): [string, unknown] => (k === from ? [to, value] : [k, v]));
  for (const k of Object.keys(obj)) delete obj[k];
  for (const [k, v] of entries) obj[k] = v;
}

/** Writes the shorthand's step back: as `tasks:` while it is only tasks, else as a step `main`. */
export function writeShorthand(owner: Obj, step: Obj): void {
  const onlyTasks = Object.keys(step).every((k) => k === 'id' || k === 'tasks') && Array.isArray(step.tasks);
  if (onlyTasks && (step.id === undefined || step.id === 'main')) {
    owner.tasks = step.tasks;
    return;
  }
  replaceKey(owner, 'tasks', 'steps', [{ id: 'main', ...step }]);
}

/** Puts a new value where a located component sits (the chain itself is the caller's). */
export function replaceComponent(l: Located, value: Obj): void {
  const h = l.holder;
  if (h.type === 'list') h.list[h.index] = value;
  else if (h.type === 'key') h.obj[h.key] = value;
  else writeShorthand(h.owner, value);
}

/** The document an op on this draft works on: its chain file, or library.yaml. */
export function opDoc(docs: OpDocs): { doc: unknown; library: boolean; file: string } {
  if (docs.area === 'library') return { doc: libraryDoc(docs), library: true, file: 'library.yaml' };
  const file = docs.chainFile();
  return { doc: docs.doc(file), library: false, file };
}

/** The YAML text of the component at `path`, or null when nothing is there. */
export function fragmentOf(
  doc: unknown,
  path: string,
  library: boolean,
): { path: string; text: string } | null {
  const l = library ? locateInLibrary(doc, path) : locateInChain(doc, path);
  if (!l) return null;
  return { path: l.path, text: stringify(l.value, { lineWidth: 0 }) };
}

function parseFragment(text: string): Obj {
  const parsed = parseDocument(text, { prettyErrors: true });
  const err = parsed.errors[0];
  if (err) {
    const pos = err.linePos?.[0] ?? { line: 1, col: 1 };
    const why = err.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? 'not YAML';
    throw new OpRefused(`yaml does not parse at line ${pos.line}, column ${pos.col}: ${why}`, {
      line: pos.line,
      col: pos.col,
    });
  }
  const value: unknown = parsed.toJS();
  if (!isObj(value)) {
    const what =
      value === null || value === undefined ? 'empty' : Array.isArray(value) ? 'a list' : 'a scalar';
    throw new OpRefused(`yaml is ${what}: a component is a mapping`);
  }
  return value;
}

export function setFragment(docs: OpDocs, op: ChainOpOf<'set_fragment'>): undefined {
  const { doc, library, file } = opDoc(docs);
  const l = mustLocate(doc, op.path, library);
  const value = parseFragment(op.yaml);
  const id = currentId(docs, l);
  if (Object.hasOwn(value, 'id')) {
    if (id === null) throw new OpRefused(`\`${op.path}\` has no id: the fragment cannot set one`);
    if (value.id !== id) {
      throw new OpRefused(
        `the fragment changes the id of \`${l.path || id}\` to ${JSON.stringify(value.id)}: use rename`,
      );
    }
    // A library component's name is its key; the chain's id is its file stem.
    if (l.library) delete value.id;
  }
  if (l.kind === 'chain') {
    docs.setDoc(file, value);
    return undefined;
  }
  // The id is kept where the component wrote one, first as a file has it.
  const kept = typeof l.value.id === 'string' && !l.library ? { id: l.value.id, ...value } : value;
  replaceComponent(l, kept);
  return undefined;
}
