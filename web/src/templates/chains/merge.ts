import { applyPatch, structuredPatch } from 'diff';

/*
 * A stale publish (409) says what is on disk now and what the draft holds, but not what the draft
 * started from; the server keeps only its sha256. The editor remembers every published text it has
 * seen whose hash is a draft's base, so it can carry the draft's own edits onto the newer file: a
 * three-way merge, offered beside the server's rebase (which keeps the draft's text as it is).
 */

const seen = new Map<string, string>();

export async function sha256(text: string): Promise<string> {
  const bytes = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Keeps each published file whose hash is the draft's base for that file. */
export async function remember(d: {
  published: Record<string, string | null>;
  base: Record<string, string | null>;
}): Promise<void> {
  for (const [file, text] of Object.entries(d.published)) {
    const base = d.base[file];
    if (text === null || !base || seen.has(base)) continue;
    if ((await sha256(text)) === base) seen.set(base, text);
  }
}

export const baseText = (hash: string | null | undefined): string | null =>
  hash ? (seen.get(hash) ?? null) : null;

/**
 * The draft's edits (base → mine) laid onto theirs; null when a hunk does not apply (the same
 * lines changed on both sides), so the person chooses instead.
 */
export function threeWay(base: string, mine: string, theirs: string): string | null {
  if (mine === base) return theirs;
  if (theirs === base) return mine;
  const patch = structuredPatch('base', 'mine', base, mine, '', '', { context: 1 });
  const merged = applyPatch(theirs, patch);
  return merged === false ? null : merged;
}
