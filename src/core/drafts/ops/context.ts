import { IDENTIFIER_MAX, IDENTIFIER_PATTERN, RESERVED_SEGMENTS } from '../../../contract/config/ids.js';
import type { LibrarySection } from '../../../contract/config/library.js';

/*
 * What a chain or library op works on (spec drafts.md, "Chain and library ops"): the parsed
 * documents of the config files as the draft has them. An op reads a file's working copy, changes
 * it in place (or replaces it), and refuses with `OpRefused`; the caller compares each working copy
 * with what it started from, so a file joins the draft only when an op really changed it.
 */

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** An op that cannot apply: the request answers 422 `{detail, op, ...extra}` and nothing is saved. */
export class OpRefused extends Error {
  constructor(
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

export interface OpDocs {
  readonly area: 'chains' | 'library';
  /** The draft's key: a chain id for `chains`, `library` for the library. */
  readonly key: string;
  /**
   * The working copy of a config file (`chains/<id>.yaml`, `library.yaml`): the draft's text if the
   * file is in the draft, else the published one, parsed; null for a file that does not exist (or
   * that the draft deletes). Change it in place; `setDoc` replaces or deletes it.
   */
  doc(file: string): unknown;
  /**
   * Replaces or deletes a file's working copy. `over` is the text the new value is written over
   * when it is not the file's own: a renamed chain keeps its old file's comments, a copy its
   * source's.
   */
  setDoc(file: string, value: unknown, over?: string | null): void;
  /** A file's text as this request found it (the draft's when it holds the file), null when none. */
  text(file: string): string | null;
  /** Every chain file as this draft sees it (`chains/<id>.yaml`), sorted, deleted ones left out. */
  chainFiles(): string[];
  /**
   * The file holding this chains draft's chain: `chains/<key>.yaml`, or the file a `rename` of the
   * chain moved it to. Only meaningful on a chains draft.
   */
  chainFile(): string;
  /** Whether a draft of this key was stored before this request (`new_chain` needs none). */
  readonly opened: boolean;
  /**
   * The text another chain's open draft holds for its file (`new_chain` copies from a chain's
   * draft when it has one): undefined when that chain has no draft, null when the draft deletes it.
   */
  draftedChain(id: string): string | null | undefined;
  /**
   * An installed add-on's chain (`chains`) or library component, as written with its names
   * qualified (`release:notes`): what "copy to my library" copies. Undefined when none has that
   * name; `known` lists what there is, for the refusal.
   */
  addonSource(section: 'chains' | LibrarySection, ref: string): { value: unknown } | { known: string[] };
}

export const chainFileOf = (id: string): string => `chains/${id}.yaml`;
export const LIBRARY_FILE = 'library.yaml';

/** The library document (an empty mapping stands in for a missing or non-mapping file). */
export function libraryDoc(docs: OpDocs): Obj {
  const lib = docs.doc(LIBRARY_FILE);
  if (isObj(lib)) return lib;
  const fresh: Obj = {};
  docs.setDoc(LIBRARY_FILE, fresh);
  return fresh;
}

/**
 * Refuses an id that is not an identifier, is one of the reserved path segments, or is already
 * held by its container (`taken`). `what` names it in the message (`node id`, `step id`).
 */
export function checkNewId(id: unknown, taken: readonly string[], what: string): string {
  if (typeof id !== 'string' || id.length > IDENTIFIER_MAX || !IDENTIFIER_PATTERN.test(id)) {
    throw new OpRefused(
      `${what} ${JSON.stringify(id)} is not an identifier: a lowercase letter, then lowercase letters, digits, \`_\` or \`-\``,
    );
  }
  if ((RESERVED_SEGMENTS as readonly string[]).includes(id)) {
    throw new OpRefused(`${what} \`${id}\` is reserved: the chain model uses it for its own containers`);
  }
  if (taken.includes(id)) throw new OpRefused(`${what} \`${id}\` is already taken here`);
  return id;
}

/** A position in a list of `length` items: 0 to length (inserting) or length - 1 (moving). */
export function checkPosition(at: number, length: number, field: string, inserting: boolean): number {
  const last = inserting ? length : length - 1;
  if (!Number.isInteger(at) || at < 0 || at > last) {
    throw new OpRefused(`${field} ${at} is outside the list: 0 to ${Math.max(last, 0)}`);
  }
  return at;
}

/** `base`, `base_2`, `base_3`, …: the first not in `taken`. */
export function uniqueId(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base;
  for (let n = 2; ; n++) if (!taken.includes(`${base}_${n}`)) return `${base}_${n}`;
}

export const idsOf = (list: unknown): string[] =>
  Array.isArray(list) ? list.flatMap((x) => (isObj(x) && typeof x.id === 'string' ? [x.id] : [])) : [];
