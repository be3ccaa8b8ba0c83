import type { DraftChangeRow } from '../../../contract/drafts/answers.js';
import { sameData } from '../../json/same.js';
import { isObj } from '../ops/context.js';

/*
 * The `changes` rows of the policy and intake drafts (spec drafts.md, "changes" details): one row
 * per dotted key of the file, a list of mappings keyed by index (`schedules.0.cron`), each summary
 * reading was -> now. A list of plain values is one key: its items have no identity of their own.
 */

export interface KeyChangeOptions {
  /** Dotted keys whose absence means "no bound" (a maximum) rather than "not set". */
  noBound?: (key: string) => boolean;
  /** The draft's text does not parse: one file-level row instead of key rows. */
  unparsable?: boolean;
  /** The draft deletes the file: one file-level row naming the keys it held. */
  deleted?: boolean;
}

/** Each leaf of a document by dotted key; an empty mapping or list is a leaf of its own. */
export function leaves(doc: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  const at = (k: string) => (prefix === '' ? k : `${prefix}.${k}`);
  if (isObj(doc) && Object.keys(doc).length > 0) {
    for (const [k, v] of Object.entries(doc)) leaves(v, at(k), out);
  } else if (Array.isArray(doc) && doc.length > 0 && doc.every(isObj)) {
    doc.forEach((v, i) => leaves(v, at(String(i)), out));
  } else if (prefix !== '') {
    out.set(prefix, doc);
  }
  return out;
}

/** A value as the summary shows it: text as written, anything else as JSON. */
export function shown(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

export function dottedChanges(
  file: string,
  before: unknown,
  after: unknown,
  opts: KeyChangeOptions = {},
): DraftChangeRow[] {
  const topKeys = (d: unknown) => (isObj(d) ? Object.keys(d) : []);
  if (opts.deleted) {
    return [{ path: file, kind: 'remove', summary: `${file} deleted`, fields: topKeys(before), file }];
  }
  if (opts.unparsable) {
    return [{ path: file, kind: 'change', summary: `${file} does not parse`, fields: topKeys(before), file }];
  }
  const was = leaves(before);
  const now = leaves(after);
  const absent = (k: string) => (opts.noBound?.(k) ? 'no bound' : 'not set');
  const rows: DraftChangeRow[] = [];
  // Keys in the order the draft has them, then the ones it dropped, in the order they were.
  for (const [k, v] of now) {
    if (!was.has(k)) rows.push({ path: k, kind: 'add', summary: `${absent(k)} -> ${shown(v)}`, file });
    else if (!sameData(was.get(k), v)) {
      rows.push({ path: k, kind: 'change', summary: `${shown(was.get(k))} -> ${shown(v)}`, file });
    }
  }
  for (const [k, v] of was) {
    if (!now.has(k)) rows.push({ path: k, kind: 'remove', summary: `${shown(v)} -> ${absent(k)}`, file });
  }
  return rows;
}
