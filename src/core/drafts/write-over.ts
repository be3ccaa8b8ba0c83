import {
  isAlias,
  isMap,
  isNode,
  isScalar,
  isSeq,
  parse,
  parseDocument,
  stringify,
  type Document,
  type Node,
  type Pair,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import { sameData } from '../json/same.js';
import { carryLines } from './carry-lines.js';
import { isObj } from './ops/context.js';

/*
 * Writing a config file back after draft ops (spec drafts.md: ops "write over each file's own
 * text; comments stay"), for every area: chains and the library as well as settings. The ops
 * change plain data; this carries the difference onto the file's YAML document node by node, so
 * every comment, blank line and quoting style of what did not change stays where it was and a
 * one-field change is a one-line diff. Hand-written because no YAML library offers "apply this new
 * value to the document, keeping the rest": `yaml`'s Document API gives the node edits used here.
 */

/** The file's layout cannot take the change (an anchor shared with another place, say). */
export class LayoutRefused extends Error {}

/** A new node for a value; an empty flow collection that gains items is written in block style. */
function fresh(doc: Document, value: unknown): Node {
  return doc.createNode(value);
}

const keyOf = (pair: Pair): unknown => (isScalar(pair.key) ? pair.key.value : pair.key);

/**
 * A key renamed in place: the same keys in the same order but one, whose old name is gone and new
 * name is new. Its pair keeps its comments and its value node (a renamed library component keeps
 * the comments inside it).
 */
function renameKey(node: YAMLMap, value: Record<string, unknown>): void {
  const was = node.items.map(keyOf);
  const now = Object.keys(value);
  if (was.length !== now.length) return;
  const differ = was.flatMap((k, i) => (k === now[i] ? [] : [i]));
  if (differ.length !== 1) return;
  const i = differ[0] ?? 0;
  const pair = node.items[i];
  const key = pair?.key;
  if (!pair || !isScalar(key) || typeof key.value !== 'string' || Object.hasOwn(value, key.value)) return;
  if (was.includes(now[i])) return;
  key.value = now[i];
}

function reconcileMap(doc: Document, node: YAMLMap, value: Record<string, unknown>): void {
  renameKey(node, value);
  for (const pair of [...node.items]) {
    const key = keyOf(pair);
    if (typeof key !== 'string' || !Object.hasOwn(value, key)) node.delete(pair.key);
  }
  // A mapping whose entries stand apart by a blank line (library.yaml's components) keeps that look.
  const spaced =
    node.items.length > 1 && node.items.slice(1).every((p) => isNode(p.key) && p.key.spaceBefore);
  let after = -1; // index in node.items of the last key of `value` seen so far
  for (const [k, v] of Object.entries(value)) {
    const at = node.items.findIndex((p) => keyOf(p) === k);
    if (at < 0) {
      if (node.flow && node.items.length === 0) node.flow = false;
      // A new key goes where the op put it among the keys already there (`extends` after `id`).
      const pair = doc.createPair(k, fresh(doc, v));
      if (spaced && after >= 0 && isNode(pair.key)) pair.key.spaceBefore = true;
      node.items.splice(after + 1, 0, pair);
      after += 1;
      continue;
    }
    const pair = node.items[at];
    if (!pair) continue;
    const next = reconcile(doc, pair.value, v);
    if (next !== pair.value) pair.value = next;
    after = Math.max(after, at);
  }
}

/** A list's item id (`id:` of a node, step or task), for matching items across an insert or a move. */
function idOf(v: unknown): string | undefined {
  if (isMap(v)) {
    const id = v.get('id');
    return typeof id === 'string' ? id : undefined;
  }
  return isObj(v) && typeof v.id === 'string' ? v.id : undefined;
}

function uniqueIds(ids: (string | undefined)[]): boolean {
  return ids.every((id) => id !== undefined) && new Set(ids).size === ids.length;
}

function reconcileSeq(doc: Document, node: YAMLSeq, value: unknown[]): void {
  if (node.flow && node.items.length === 0 && value.length > 0) node.flow = false;
  const oldIds = node.items.map(idOf);
  const newIds = value.map(idOf);
  if (node.items.length > 0 && uniqueIds(oldIds) && uniqueIds(newIds)) {
    // Items with ids (nodes, steps, tasks) follow their id, so an insert or a move carries each
    // item's comments with it instead of leaving them at the old position.
    const spaced = node.items.length > 1 && node.items.slice(1).every((n) => isNode(n) && n.spaceBefore);
    const firstSpaced = isNode(node.items[0]) && node.items[0].spaceBefore === true;
    node.items = value.map((v, i) => {
      const at = oldIds.indexOf(newIds[i]);
      const old = at >= 0 ? node.items[at] : undefined;
      const item = old === undefined ? fresh(doc, v) : reconcile(doc, old, v);
      // A list whose items stand apart by a blank line (the chain's nodes) keeps that look.
      if (spaced) item.spaceBefore = i === 0 ? firstSpaced : true;
      return item;
    });
    return;
  }
  value.forEach((v, i) => {
    if (i < node.items.length) {
      const child = node.items[i];
      const next = reconcile(doc, child, v);
      if (next !== child) node.items[i] = next;
    } else {
      node.add(fresh(doc, v));
    }
  });
  node.items.splice(value.length);
}

function reconcile(doc: Document, node: unknown, value: unknown): Node {
  if (isAlias(node)) {
    // An alias left as it was is fine; changing one would change what it points at too.
    const target = node.resolve(doc);
    if (target && sameData(target.toJS(doc), value)) return node;
    throw new LayoutRefused('a value written as an alias (`*name`) cannot be changed in place');
  }
  if (isMap(node) && isObj(value)) {
    reconcileMap(doc, node, value);
    return node;
  }
  if (isSeq(node) && Array.isArray(value)) {
    reconcileSeq(doc, node, value);
    return node;
  }
  if (isScalar(node) && !isObj(value) && !Array.isArray(value)) {
    if (!sameData(node.value, value)) node.value = value;
    return node;
  }
  // A different kind of value (a mapping where a list was, say): a new node in its place.
  return fresh(doc, value);
}

/**
 * The file's text with `after` written over it. A file that did not exist (or held nothing) is
 * written fresh. The text written is parsed back and compared with `after`: anything the layout
 * would have changed beyond the op refuses with `LayoutRefused`, nothing half-written.
 */
export function writeOver(text: string | null, after: unknown): string {
  if (after === null || after === undefined) return '';
  if (text === null || text.trim() === '') return stringify(after, { lineWidth: 0 });
  const doc: Document = parseDocument(text);
  if (doc.errors.length > 0) throw new LayoutRefused('the file does not parse');
  const untouched = doc.toString(WRITE);
  if (doc.contents === null) {
    doc.contents = fresh(doc, after);
  } else {
    const next = reconcile(doc, doc.contents, after);
    if (next !== doc.contents) doc.contents = next;
  }
  const whole = doc.toString(WRITE);
  if (!sameData(parsed(whole), after)) {
    throw new LayoutRefused('the file uses anchors or aliases that would carry the change to other keys');
  }
  // Only the lines the change touched, over the original text; when that splice does not read
  // back as the change (it should), the document written whole is still right, if less tidy.
  const carried = carryLines(text, untouched, whole);
  let back: unknown;
  try {
    back = parse(carried);
  } catch {
    return whole;
  }
  return sameData(back, after) ? carried : whole;
}

const WRITE = { lineWidth: 0 } as const;

function parsed(text: string): unknown {
  try {
    return parse(text);
  } catch {
    throw new LayoutRefused('the file would not parse after the change');
  }
}
