import type { LibrarySection } from '../../../contract/config/library.js';
import { loadAddonSet, type AddonSetLoad } from '../../addons/load.js';
import type { ConfigTexts } from '../../config/validate-set.js';
import { sameData } from '../../json/same.js';
import { parseText, textOf } from '../texts.js';
import { writeOver } from '../write-over.js';
import { chainFileOf, OpRefused, type OpDocs } from './context.js';

const CHAIN_FILE = /^chains\/[^/]+\.yaml$/;
const asObj = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/**
 * The documents a request's ops work on: each file parsed from the config set with the draft laid
 * over it, copied the first time an op reads it. After the ops, `changedTexts` answers the files
 * an op really changed, each written over its own text (or the text `setDoc` named), so comments
 * and layout stay and a one-field change is a one-line diff.
 */
export class Workspace implements OpDocs {
  private readonly start = new Map<string, unknown>();
  private readonly work = new Map<string, unknown>();
  /** Text a file is written over instead of its own (a renamed or copied chain). */
  private readonly over = new Map<string, string | null>();

  constructor(
    readonly area: 'chains' | 'library',
    readonly key: string,
    /** The config set with the draft's files laid over. */
    private readonly texts: ConfigTexts,
    /** Files the stored draft holds that were never published (a chain a rename moved). */
    private readonly added: readonly string[] = [],
    readonly opened = false,
    /** Other chains' drafts, by chain id: the text each holds for its own file. */
    private readonly otherDrafts: Readonly<Record<string, string | null>> = {},
  ) {}

  private addonSet: AddonSetLoad | null = null;

  addonSource(section: 'chains' | LibrarySection, ref: string): { value: unknown } | { known: string[] } {
    // Only add-ons that load: a copy of a part of one that does not would carry its problems.
    this.addonSet ??= loadAddonSet(this.texts.addons?.installed ?? [], null);
    const offered = Object.values(this.addonSet.addons).filter((a) => a.problems.length === 0);
    const known: string[] = [];
    for (const a of offered) {
      const names =
        section === 'chains'
          ? Object.keys(a.sources.chains)
          : Object.keys(asObj(a.sources.library?.[section]) ?? {});
      for (const n of names) {
        const full = `${a.namespace}:${n}`;
        known.push(full);
        if (full !== ref) continue;
        const value = section === 'chains' ? a.sources.chains[n] : asObj(a.sources.library?.[section])?.[n];
        return { value: structuredClone(value) };
      }
    }
    return { known: known.sort() };
  }

  draftedChain(id: string): string | null | undefined {
    return Object.hasOwn(this.otherDrafts, id) ? this.otherDrafts[id] : undefined;
  }

  doc(file: string): unknown {
    if (!this.work.has(file)) {
      const read = parseText(textOf(this.texts, file));
      // A file that does not parse cannot be edited by an op without losing what it holds.
      if (!read.ok) throw new OpRefused(`${file} does not parse; fix its YAML first`);
      // Parses are shared (core/drafts/texts.ts): the working copy is this request's own.
      const parsed = structuredClone(read.value);
      this.start.set(file, structuredClone(parsed));
      this.work.set(file, parsed);
    }
    return this.work.get(file);
  }

  setDoc(file: string, value: unknown, over?: string | null): void {
    this.doc(file);
    this.work.set(file, value);
    if (over !== undefined) this.over.set(file, over);
  }

  text(file: string): string | null {
    return textOf(this.texts, file);
  }

  chainFiles(): string[] {
    const files = new Set(Object.keys(this.texts.chains).map(chainFileOf));
    for (const [f, v] of this.work) {
      if (!CHAIN_FILE.test(f)) continue;
      if (v === null) files.delete(f);
      else files.add(f);
    }
    return [...files].sort();
  }

  chainFile(): string {
    const own = chainFileOf(this.key);
    if (this.doc(own) !== null) return own;
    // A chain renamed by this draft lives in the one chain file the draft added.
    const moved = this.chainFiles().find((f) => f !== own && this.isNew(f));
    return moved ?? own;
  }

  /** Whether a file exists only in this draft: nothing was published under its name. */
  private isNew(file: string): boolean {
    return this.added.includes(file) || (this.work.has(file) && this.start.get(file) === null);
  }

  /**
   * The files the ops changed, as text to store (null: the draft deletes the file). Throws
   * `LayoutRefused` when a file's layout cannot take the change (an alias shared with another key).
   */
  changedTexts(): Record<string, string | null> {
    const out: Record<string, string | null> = {};
    for (const [file, value] of this.work) {
      if (sameData(value, this.start.get(file))) continue;
      if (value === null || value === undefined) {
        out[file] = null;
        continue;
      }
      const over = this.over.has(file) ? (this.over.get(file) ?? null) : this.text(file);
      out[file] = writeOver(over, value);
    }
    return out;
  }
}
