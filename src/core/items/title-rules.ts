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
 * Format characters (zero-width joiner, bidi marks) are not controls and stay: emoji and
 * right-to-left titles need them.
 */
export const CONTROL = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udfff]/u;

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
  if (CONTROL.test(title)) return { ok: false, message: 'the title is plain text' };
  const length = codePointLength(trimmed);
  if (length > TITLE_MAX)
    return { ok: false, message: `the title is at most ${TITLE_MAX} characters (got ${length})` };
  return { ok: true, title: trimmed };
}
