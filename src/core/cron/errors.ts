import type { CronFieldName } from './fields.js';

/**
 * Why an expression was refused. The split into two kinds is policy, not taste: a legacy
 * `triggers:` entry in `policy.yaml` whose cron is `unreadable` (a word, the wrong number of
 * fields, a name, a stray character) makes the whole file refused, while one that is only
 * `out_of_range` (a well-formed number outside its field, a backwards range, a zero step, a digit
 * other than 0-9) skips that entry with a warning (spec: When a schedule fires, rule 4).
 */
export type CronErrorKind = 'unreadable' | 'out_of_range';

export interface CronError {
  readonly kind: CronErrorKind;
  /** The field at fault; null when the expression as a whole is wrong (the field count). */
  readonly field: CronFieldName | null;
  /** The offending text as written ('' when something is missing at the end). */
  readonly text: string;
  /**
   * 0-based offset of `text` in the expression exactly as passed to `parseCron` (leading
   * whitespace included), counted in UTF-16 code units like a JS string index, so a caller can add
   * it to the YAML node's own offset to point an editor at the spot.
   */
  readonly offset: number;
  /** A sentence for a person, prefixed with the field: `day_of_week: 8 is outside 0-7`. */
  readonly message: string;
}

export function cronError(
  kind: CronErrorKind,
  field: CronFieldName | null,
  text: string,
  offset: number,
  detail: string,
): CronError {
  return { kind, field, text, offset, message: field === null ? detail : `${field}: ${detail}` };
}

/** How a character is named in a message: printable ASCII as itself, anything else by code point. */
export function describeChar(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  if (cp > 0x20 && cp < 0x7f) return `"${ch}"`;
  // Invisible characters (controls, spaces, format marks) print as nothing useful; name them only.
  if (/[\p{C}\p{Z}]/u.test(ch)) return hex;
  return `"${ch}" (${hex})`;
}
