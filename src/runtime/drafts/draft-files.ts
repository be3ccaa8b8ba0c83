import { isDeepStrictEqual } from 'node:util';
import { parseText } from '../../core/drafts/texts.js';
import type { DraftState } from '../../store/drafts.js';
import { readConfigText, sha256Text } from '../config/config-dir.js';

/*
 * A draft's files against the published ones (spec drafts.md, "Draft answer" and "Draft
 * lifecycle"): the text the editors see is the published file with the draft's text laid over;
 * each file joins with the digest of its published text, and a publish is stale when a file on
 * disk no longer has that digest.
 */

/** The published text of each file (null for a file that does not exist), read as Jig reads config. */
export function readPublished(configDir: string, files: readonly string[]): Record<string, string | null> {
  return Object.fromEntries(files.map((f) => [f, readConfigText(configDir, f)]));
}

/** The files as the editors see them: the published text, with the draft's text (or deletion) over it. */
export function overlay(
  published: Record<string, string | null>,
  draft: DraftState | null,
): Record<string, string | null> {
  return { ...published, ...(draft?.files ?? {}) };
}

/** The draft's digests, or with no draft the digests of the published files. */
export function baseOf(
  published: Record<string, string | null>,
  draft: DraftState | null,
): Record<string, string | null> {
  if (draft) return { ...draft.base };
  return Object.fromEntries(Object.entries(published).map(([f, t]) => [f, sha256Text(t)]));
}

/**
 * The draft with `file` set to `text`: a file joining for the first time records the digest of its
 * published text as its base.
 */
export function withFile(
  draft: DraftState | null,
  file: string,
  text: string | null,
  published: string | null,
): DraftState {
  const base = draft?.base ?? {};
  return {
    files: { ...draft?.files, [file]: text },
    base: file in base ? base : { ...base, [file]: sha256Text(published) },
  };
}

/** Files whose text on disk changed since they joined the draft (a publish would overwrite them). */
export function staleFiles(draft: DraftState, published: Record<string, string | null>): string[] {
  return Object.keys(draft.files).filter((f) => sha256Text(published[f] ?? null) !== (draft.base[f] ?? null));
}

/**
 * Whether every file of the draft parses to what its published file parses to: a PUT that brings
 * the draft back there drops it (comments and layout alone do not keep a draft open).
 */
export function sameAsPublished(draft: DraftState, published: Record<string, string | null>): boolean {
  return Object.entries(draft.files).every(([f, text]) => {
    const a = parseText(text);
    const b = parseText(published[f] ?? null);
    return a.ok && b.ok && isDeepStrictEqual(a.value, b.value);
  });
}
