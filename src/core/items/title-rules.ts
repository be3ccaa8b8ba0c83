/**
 * The strict title check used wherever a person or a script sends a title (`POST /api/triggers`,
 * CLI create, MCP `create_work_item`, `PATCH /api/work-items/{id}`): a bad title is refused
 * with a 422 and one of the spec's messages, never cleaned (spec: Errors; Behavior changes). A
 * schedule's title is cleaned instead (`core/schedule/title.ts`) and uses the same character
 * classes below, so the two cannot disagree on what a line break or a control character is.
 */

/** At most 500 characters, counted as Unicode code points (an emoji is one, not two). */
export const TITLE_MAX = 500;

/** \r\n, \n and \r, and Unicode's line and paragraph separators and NEXT LINE. */
export const LINE_BREAK = /\r\n|[\n\r\u2028\u2029\u0085]/;

/**
 * C0 controls (tab and escape among them), DEL, C1 controls, and a lone surrogate (half of a
 * UTF-16 pair: no character at all, and invalid in UTF-8 storage). With the `u` flag a
 * well-formed pair is one code point and does not match the surrogate range; only lone halves do.
 */
export const CONTROL = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udfff]/u;

/**
 * Invisible format characters (Unicode category Cf): bidi overrides, embeddings, isolates and
 * marks, zero-width spaces, word joiners, the BOM, tag characters. A title is shown to people and
 * handed to agents, so a character that reorders or hides text ("Trojan Source", tag smuggling)
 * would make the two read different things. Three uses are real text and stay: a zero-width joiner
 * or non-joiner between two visible characters (emoji sequences, Indic and Persian scripts), and
 * the tag run that spells a subdivision flag after U+1F3F4 (🏴 + tags + CANCEL TAG). A flag's tags
 * are a region code, 2 to 6 lowercase letters and digits (`gbsct`); any other tag run could spell
 * hidden words, so it is refused even after a flag.
 */
const FORMAT = /\p{Cf}/gu;
const VISIBLE = /[\p{L}\p{M}\p{N}\p{S}\p{P}]/u;
const JOINERS = new Set([0x200c, 0x200d]);
const FLAG_TAGS = /\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{2,6}\u{E007F}/gu;

/** The code point that ends just before UTF-16 index `at`, or -1 at the start. */
function codePointBefore(text: string, at: number): number {
  if (at <= 0) return -1;
  const low = text.charCodeAt(at - 1);
  if (low >= 0xdc00 && low <= 0xdfff && at >= 2) {
    const high = text.charCodeAt(at - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(at - 2)!;
  }
  return low;
}

const visible = (cp: number | undefined): boolean =>
  cp !== undefined && cp >= 0 && VISIBLE.test(String.fromCodePoint(cp));

/**
 * The UTF-16 ranges of `text` that are invisible format characters no real text needs. One pass
 * and constant work per character (a title is checked before its length is), so a megabyte of
 * joiners costs milliseconds.
 */
function hiddenRanges(text: string): [number, number][] {
  const allowed = new Set<number>();
  for (const m of text.matchAll(FLAG_TAGS)) {
    for (let i = m.index + 2; i < m.index + m[0].length; i++) allowed.add(i);
  }
  const out: [number, number][] = [];
  for (const m of text.matchAll(FORMAT)) {
    const at = m.index;
    if (allowed.has(at)) continue;
    if (JOINERS.has(m[0].codePointAt(0)!)) {
      const end = at + m[0].length;
      if (visible(codePointBefore(text, at)) && visible(text.codePointAt(end))) continue;
    }
    out.push([at, at + m[0].length]);
  }
  return out;
}

/** Whether the text holds an invisible format character that no real text needs (see above). */
export function hasHiddenCharacter(text: string): boolean {
  return hiddenRanges(text).length > 0;
}

/** The text without those characters: how a schedule's title and a duplicate are cleaned. */
export function dropHiddenCharacters(text: string): string {
  let out = '';
  let from = 0;
  for (const [a, b] of hiddenRanges(text)) {
    out += text.slice(from, a);
    from = b;
  }
  return out + text.slice(from);
}

export type TitleCheck = { ok: true; title: string } | { ok: false; message: string };

/** Length in code points, the unit of the 500-character limit. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Checks in the spec's order: empty, then a line break, then a control character, then the
 * length. An accepted title comes back without surrounding spaces (which the spec does not refuse
 * and which no one means to file); the limit counts the title as it will be stored.
 */
export function checkTitle(title: string): TitleCheck {
  const trimmed = title.trim();
  if (trimmed === '') return { ok: false, message: 'title cannot be empty' };
  if (LINE_BREAK.test(title)) return { ok: false, message: 'the title is one line' };
  if (CONTROL.test(title) || hasHiddenCharacter(title))
    return { ok: false, message: 'the title is plain text' };
  const length = codePointLength(trimmed);
  if (length > TITLE_MAX)
    return { ok: false, message: `the title is at most ${TITLE_MAX} characters (got ${length})` };
  return { ok: true, title: trimmed };
}
