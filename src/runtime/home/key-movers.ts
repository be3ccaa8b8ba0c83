import { isDeepStrictEqual } from 'node:util';
import { isNode, isSeq, YAMLSeq, type Document } from 'yaml';

/** A key's path inside its file (top-level keys are one-element paths). */
export type KeyPath = readonly string[];

/** What a move did: its result for the notice, and whether the target document changed. */
export interface MoverResult<O> {
  outcome: O;
  targetChanged: boolean;
}

/**
 * How a value moves from one place to another. The source document always changes when a move
 * is made (that is what keeps a second run from finding it again); the target may not.
 */
export interface Mover<O> {
  /** Whether the source holds something this move takes. */
  found(source: Document, from: KeyPath): boolean;
  /** Null leaves both documents as they were: a shape this move does not take. */
  move(source: Document, target: Document, from: KeyPath, to: KeyPath): MoverResult<O> | null;
}

/** The plain JS value of a YAML node (or of a value that is already plain). */
function plain(node: unknown): unknown {
  return isNode(node) ? (node.toJSON() as unknown) : node;
}

/** The value at a path; a key holding null reads as undefined, as `Document.get` answers it. */
function valueAt(doc: Document, path: KeyPath): unknown {
  return doc.getIn(path) ?? undefined;
}

/**
 * A list appended to a block list at the target, skipping entries already there. An entry for
 * which `stays` holds is left at the source; the source key goes when nothing is left.
 */
export function appendItems(opts: {
  stays: (value: unknown) => boolean;
}): Mover<{ moved: number; kept: number }> {
  return {
    found: (source, from) => source.hasIn(from),
    move(source, target, from, to) {
      const items = source.getIn(from, true);
      if (!(items === null || items === undefined || isSeq(items))) return null;
      const at = target.getIn(to, true);
      const seq = isSeq(at) ? at : new YAMLSeq();
      if (seq !== at) target.setIn(to, seq);
      seq.flow = false;
      const existing = seq.items.map(plain);
      let moved = 0;
      const kept: unknown[] = [];
      for (const item of isSeq(items) ? items.items : []) {
        const value = plain(item);
        if (opts.stays(value)) {
          kept.push(item);
          continue;
        }
        if (existing.some((e) => isDeepStrictEqual(e, value))) continue;
        seq.items.push(item);
        moved++;
      }
      if (kept.length === 0) source.deleteIn(from);
      else if (isSeq(items)) items.items = kept;
      return { outcome: { moved, kept: kept.length }, targetChanged: true };
    },
  };
}

/** A value set at the target unless the target already sets one; either way the source key goes. */
export function setUnlessSet(): Mover<{ value: unknown; kept: boolean }> {
  return {
    found: (source, from) => source.hasIn(from),
    move(source, target, from, to) {
      const value = valueAt(source, from);
      const kept = target.hasIn(to);
      if (!kept) target.setIn(to, value);
      source.deleteIn(from);
      return { outcome: { value, kept }, targetChanged: !kept };
    },
  };
}

/**
 * One value becomes several keys under the target path (each set unless already set), by `map`
 * of its text; the source key goes.
 */
export function spreadInto<T extends Record<string, unknown>>(
  map: (value: string) => T,
): Mover<{ value: string; into: T }> {
  return {
    found: (source, from) => source.hasIn(from),
    move(source, target, from, to) {
      const value = String(valueAt(source, from));
      const into = map(value);
      for (const [k, v] of Object.entries(into)) if (!target.hasIn([...to, k])) target.setIn([...to, k], v);
      source.deleteIn(from);
      return { outcome: { value, into }, targetChanged: true };
    },
  };
}

/**
 * A value renamed in place (`from` and `to` the same key of the same file): found only while the
 * key holds `was`, so writing `now` is what makes a second run find nothing.
 */
export function replaceValue(was: unknown, now: unknown): Mover<{ was: unknown; now: unknown }> {
  return {
    found: (source, from) => source.getIn(from) === was,
    move(_source, target, _from, to) {
      target.setIn(to, now);
      return { outcome: { was, now }, targetChanged: true };
    },
  };
}
