import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  parse,
  parseDocument,
  stringify,
  type Document,
  type Node,
} from 'yaml';
import { sameData } from '../../json/same.js';
import { isObj } from '../ops/context.js';

/*
 * Writing a settings file back after ops (spec drafts.md: "Settings areas write over each file's
 * own text; comments stay"). The ops change plain data; this carries the difference onto the
 * file's YAML document node by node, so every comment, blank line and quoting style of what did
 * not change stays where it was. Hand-written because no YAML library offers "apply this new
 * value to the document, keeping the rest": `yaml`'s Document API gives the node edits used here.
 */

/** The file's layout cannot take the change (an anchor shared with another place, say). */
export class LayoutRefused extends Error {}

type Collection = Extract<Node, { items: unknown[] }>;

/** A new node for a value; an empty flow collection that gains items is written in block style. */
function fresh(doc: Document, value: unknown): Node {
  return doc.createNode(value);
}

function reconcile(doc: Document, node: unknown, value: unknown): Node {
  if (isAlias(node)) {
    // An alias left as it was is fine; changing one would change what it points at too.
    const target = node.resolve(doc);
    if (target && sameData(target.toJS(doc), value)) return node;
    throw new LayoutRefused('a value written as an alias (`*name`) cannot be changed in place');
  }
  if (isMap(node) && isObj(value)) {
    for (const pair of [...node.items]) {
      const key = isScalar(pair.key) ? pair.key.value : pair.key;
      if (typeof key !== 'string' || !Object.hasOwn(value, key)) node.delete(pair.key);
    }
    for (const [k, v] of Object.entries(value)) {
      const child = node.get(k, true);
      if (child === undefined) {
        if (node.flow && node.items.length === 0) node.flow = false;
        node.set(k, fresh(doc, v));
      } else {
        const next = reconcile(doc, child, v);
        if (next !== child) node.set(k, next);
      }
    }
    return node;
  }
  if (isSeq(node) && Array.isArray(value)) {
    const seq: Collection = node;
    if (node.flow && node.items.length === 0 && value.length > 0) node.flow = false;
    value.forEach((v, i) => {
      if (i < seq.items.length) {
        const child = seq.items[i];
        const next = reconcile(doc, child, v);
        if (next !== child) seq.items[i] = next;
      } else {
        node.add(fresh(doc, v));
      }
    });
    seq.items.splice(value.length);
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
  if (doc.contents === null) {
    doc.contents = fresh(doc, after);
  } else {
    const next = reconcile(doc, doc.contents, after);
    if (next !== doc.contents) doc.contents = next;
  }
  const out = doc.toString({ lineWidth: 0 });
  let back: unknown;
  try {
    back = parse(out);
  } catch {
    throw new LayoutRefused('the file would not parse after the change');
  }
  if (!sameData(back, after)) {
    throw new LayoutRefused('the file uses anchors or aliases that would carry the change to other keys');
  }
  return out;
}
