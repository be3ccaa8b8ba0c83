import { stringify } from 'yaml';
import type { LibrarySection } from '../../../contract/config/library.js';
import { loadAddonSet, type AddonSetLoad } from '../../addons/load.js';
import type { ConfigTexts } from '../../config/validate-set.js';
import { parseText, textOf } from '../texts.js';
import { chainFileOf, OpRefused, type OpDocs } from './context.js';

const CHAIN_FILE = /^chains\/[^/]+\.yaml$/;
const asObj = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/**
 * The documents a request's ops work on: each file parsed from the config set with the draft laid
 * over it, copied the first time an op reads it. After the ops, `changedTexts` answers the files
 * an op really changed, each written back whole (comments are not kept: the draft's `warnings`
 * says so).
 */
export class Workspace implements OpDocs {
  private readonly start = new Map<string, unknown>();
  private readonly work = new Map<string, unknown>();

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

  setDoc(file: string, value: unknown): void {
    this.doc(file);
    this.work.set(file, value);
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

  /** The files the ops changed, as text to store (null: the draft deletes the file). */
  changedTexts(): Record<string, string | null> {
    const out: Record<string, string | null> = {};
    for (const [file, value] of this.work) {
      // Parsed YAML is plain data; key order counts, as the file is written back in that order.
      if (JSON.stringify(value) === JSON.stringify(this.start.get(file))) continue;
      out[file] = value === null || value === undefined ? null : stringify(value, { lineWidth: 0 });
    }
    return out;
  }
}
