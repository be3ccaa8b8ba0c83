import { LIBRARY_SECTIONS, type LibrarySection } from '../../../contract/config/library.js';
import { IDENTIFIER_MAX, IDENTIFIER_PATTERN } from '../../../contract/config/ids.js';
import type { ChainOpOf } from '../../../contract/drafts/chain-ops.js';
import { chainFileOf, checkNewId, idsOf, isObj, OpRefused, type Obj, type OpDocs } from './context.js';
import { opDoc, replaceKey } from './fragment.js';
import { retargetLibraryRefs, type LibraryRef } from './library-refs.js';
import { mustLocate, type Located } from './locate.js';

/*
 * `rename` (spec drafts.md, "rename by path kind"). Ids are how components name each other, so a
 * rename carries what names the component along: a node's `reject_to` and `restart_from`
 * pointers in its chain, a library component's `extends:` and `steering:` entries in every file.
 * A gate's `artifact` names a document kind, not a node, and is left alone. Renaming the chain
 * moves its file; a repo default naming the old id becomes a problem, as the spec says.
 */

export interface NodeRef {
  path: string;
  field: 'reject_to' | 'on_base_changed.restart_from';
}

type Updated = { updated: (NodeRef | LibraryRef)[] };

const NONE: Updated = { updated: [] };

const stemOf = (file: string): string => file.replace(/^chains\/(.*)\.yaml$/, '$1');

function renameChain(docs: OpDocs, id: string): Updated {
  if (docs.area !== 'chains') throw new OpRefused('renaming the chain applies only on a chains draft');
  const oldFile = docs.chainFile();
  const doc = docs.doc(oldFile);
  if (doc === null || doc === undefined) throw new OpRefused('nothing at path ``: this draft has no chain');
  if (id === stemOf(oldFile)) return NONE;
  if (id.length > IDENTIFIER_MAX || !IDENTIFIER_PATTERN.test(id)) {
    throw new OpRefused(
      `chain id ${JSON.stringify(id)} is not a chain id: a lowercase letter, then lowercase letters, digits, \`_\` or \`-\``,
    );
  }
  const newFile = chainFileOf(id);
  if (docs.chainFiles().includes(newFile)) throw new OpRefused(`chain \`${id}\` already exists`);
  // An `id:` must equal the file stem, so a kept one follows the move.
  if (isObj(doc) && Object.hasOwn(doc, 'id')) doc.id = id;
  // The moved file is written over the old one's text, so its comments move with it.
  docs.setDoc(newFile, doc, docs.text(oldFile));
  docs.setDoc(oldFile, null);
  return NONE;
}

const isSection = (s: string): s is LibrarySection => (LIBRARY_SECTIONS as readonly string[]).includes(s);

const WORD: Record<LibrarySection, string> = {
  nodes: 'node',
  steps: 'step',
  tasks: 'task',
  steering: 'steering',
};

function renameLibrary(
  docs: OpDocs,
  l: Located,
  library: { section: string; name: string },
  id: string,
): Updated {
  const { section, name } = library;
  if (id === name || !isSection(section) || l.holder.type !== 'key') return NONE;
  const sec = l.holder.obj;
  checkNewId(id, Object.keys(sec), `library ${WORD[section]} name`);
  replaceKey(sec, name, id, l.value);
  return { updated: retargetLibraryRefs(docs, section, name, id) };
}

/** Sets a component's id, first among its keys when it had none (a slot's default id). */
function setId(value: Obj, id: string): void {
  if (Object.hasOwn(value, 'id')) {
    value.id = id;
    return;
  }
  const entries = Object.entries(value);
  for (const k of Object.keys(value)) delete value[k];
  value.id = id;
  for (const [k, v] of entries) value[k] = v;
}

/** Rewrites the chain's pointers at node `from`: `reject_to` and `on_base_changed.restart_from`. */
function retargetNodeRefs(chain: unknown, from: string, to: string): NodeRef[] {
  const refs: NodeRef[] = [];
  if (!isObj(chain) || !Array.isArray(chain.nodes)) return refs;
  for (const [i, n] of chain.nodes.entries()) {
    if (!isObj(n)) continue;
    const path = typeof n.id === 'string' ? n.id : `#${i}`;
    if (n.reject_to === from) {
      n.reject_to = to;
      refs.push({ path, field: 'reject_to' });
    }
    if (isObj(n.on_base_changed) && n.on_base_changed.restart_from === from) {
      n.on_base_changed.restart_from = to;
      refs.push({ path, field: 'on_base_changed.restart_from' });
    }
  }
  return refs;
}

const SLOT_DEFAULT: Partial<Record<Located['kind'], string>> = {
  judge: 'judge',
  escalation: 'escalate',
  auto_review: 'reviewer',
};

export function rename(docs: OpDocs, op: ChainOpOf<'rename'>): Updated {
  if (op.path === '') return renameChain(docs, op.id);
  const { doc, library } = opDoc(docs);
  const l = mustLocate(doc, op.path, library);
  if (l.library) return renameLibrary(docs, l, l.library, op.id);
  const h = l.holder;
  const slot = SLOT_DEFAULT[l.kind];
  if (l.kind !== 'node' && l.kind !== 'step' && l.kind !== 'task' && slot === undefined) {
    throw new OpRefused(`\`${l.path}\` has no id to rename: rename the node or step holding it`);
  }
  const old =
    typeof l.value.id === 'string' && l.value.id !== '' ? l.value.id : (slot ?? l.path.split('.').pop());
  if (op.id === old) return NONE;
  const what = l.kind === 'node' ? 'node id' : l.kind === 'step' ? 'step id' : 'task id';
  let taken: string[] = [];
  if (h.type === 'list') taken = idsOf(h.list.filter((_, i) => i !== h.index));
  else if (h.type === 'shorthand') taken = idsOf(h.owner.steps);
  const id = checkNewId(op.id, taken, what);
  if (h.type === 'shorthand') {
    // The shorthand's step is always `main`: renamed, it becomes a real step.
    replaceKey(h.owner, 'tasks', 'steps', [{ id, tasks: h.owner.tasks }]);
    return NONE;
  }
  setId(l.value, id);
  if (l.kind === 'node' && typeof old === 'string') return { updated: retargetNodeRefs(doc, old, id) };
  return NONE;
}
