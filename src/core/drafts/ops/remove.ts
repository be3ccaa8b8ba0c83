import { LIBRARY_SECTIONS, type LibrarySection } from '../../../contract/config/library.js';
import type { ChainOpOf } from '../../../contract/drafts/chain-ops.js';
import { isObj, OpRefused, type OpDocs } from './context.js';
import { nullInherited, removeKeyed } from './handlers.js';
import { libraryRefs, type LibraryRef } from './library-refs.js';
import { detach, locateInChain, locateInLibrary, type Located } from './locate.js';
import type { NodeRef } from './rename.js';
import { target, type Target } from './structure.js';

/*
 * `remove` (spec drafts.md, "Chain and library ops"). What named the removed component is left
 * dangling, as problems the person fixes, and answered so the editor can point at each:
 * `reject_to` and `on_base_changed.restart_from` naming a removed node, `extends:` and
 * `steering:` entries naming a removed library component. Removing step `main` removes the
 * tasks shorthand. A handler, slot task or `on_base_changed` that a library parent supplies is
 * written null, whether the component overrides it or only inherits it (a judge, which cannot be
 * null, is deleted and an inherited one shows again).
 */

const isSection = (s: string): s is LibrarySection => (LIBRARY_SECTIONS as readonly string[]).includes(s);

/** Each `reject_to` and `on_base_changed.restart_from` of the chain naming node `id`. */
function nodeRefs(chain: unknown, id: string): NodeRef[] {
  const refs: NodeRef[] = [];
  if (!isObj(chain) || !Array.isArray(chain.nodes)) return refs;
  chain.nodes.forEach((n, i) => {
    if (!isObj(n)) return;
    const path = typeof n.id === 'string' ? n.id : `#${i}`;
    if (n.reject_to === id) refs.push({ path, field: 'reject_to' });
    if (isObj(n.on_base_changed) && n.on_base_changed.restart_from === id) {
      refs.push({ path, field: 'on_base_changed.restart_from' });
    }
  });
  return refs;
}

/**
 * A handler or slot task the component at the path's head only inherits: written null. Answers
 * whether the path named one.
 */
function removeInherited(t: Target, path: string): boolean {
  const segs = path.split('.');
  const at = (n: number): Located | null => {
    const head = segs.slice(0, -n).join('.');
    if (head === '') return null;
    return t.library ? locateInLibrary(t.doc, head) : locateInChain(t.doc, head);
  };
  const last = segs[segs.length - 1];
  if (segs.slice(-2).join('.') === 'on_base_changed.on_conflict') {
    const l = at(2);
    return l !== null && l.kind === 'node' && nullInherited(t, l, 'on_conflict');
  }
  if (last === 'on_failure' || last === 'fix_loop' || last === 'auto_review') {
    const l = at(1);
    const holds =
      l !== null &&
      (l.kind === 'node' || (last === 'on_failure' && (l.kind === 'step' || l.kind === 'task')));
    return holds && nullInherited(t, l, last);
  }
  if (segs[segs.length - 2] === 'escalation' && last !== undefined) {
    const l = at(2);
    return l !== null && l.kind === 'node' && nullInherited(t, l, 'escalation', last);
  }
  return false;
}

export function remove(docs: OpDocs, op: ChainOpOf<'remove'>): { broken: (NodeRef | LibraryRef)[] } {
  if (op.path === '') throw new OpRefused('path "" is the chain: remove it with delete_chain');
  const t = target(docs);
  const found = t.library ? locateInLibrary(t.doc, op.path) : locateInChain(t.doc, op.path);
  if (found === null) {
    if (removeInherited(t, op.path)) return { broken: [] };
    throw new OpRefused(`nothing at path \`${op.path}\``);
  }
  const l = found;
  if (l.library) {
    const { section, name } = l.library;
    detach(l);
    // Looked up after the removal: what the component itself named goes with it.
    return { broken: isSection(section) ? libraryRefs(docs, section, name) : [] };
  }
  if (l.kind === 'node') {
    detach(l);
    const id = typeof l.value.id === 'string' ? l.value.id : null;
    return { broken: id === null ? [] : nodeRefs(t.doc, id) };
  }
  if (l.kind === 'step' || l.kind === 'task') detach(l);
  else removeKeyed(t, l);
  return { broken: [] };
}
