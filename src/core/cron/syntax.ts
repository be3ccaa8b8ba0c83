import { cronError, describeChar, type CronError } from './errors.js';
import type { CronField } from './fields.js';

/**
 * The grammar of one field, read into items without judging their values (that is `compile.ts`),
 * so every error found here is `unreadable`:
 *
 *   field := item (',' item)*
 *   item  := ('*' | num | num '-' num) ('/' num)?
 *   num   := a run of decimal digits (any script; only 0-9 pass compile)
 *
 * A number token takes every Unicode decimal digit (\p{Nd}) so that `３` or `٣` is read as a
 * number written with the wrong digits (out of range) rather than as a stray character: the
 * spec treats a non-ASCII digit like a value outside its field (When a schedule fires, rule 4).
 */

export interface NumberToken {
  readonly text: string;
  /** Offset in the whole expression. */
  readonly offset: number;
}

export interface CronItem {
  readonly form: 'all' | 'value' | 'range';
  /** The item as written, and where it starts in the whole expression. */
  readonly text: string;
  readonly offset: number;
  /** `value` and `range` only. */
  readonly start?: NumberToken;
  /** `range` only. */
  readonly end?: NumberToken;
  readonly step?: NumberToken;
}

interface Token {
  kind: 'num' | 'word' | 'other' | '*' | '-' | '/' | ',';
  text: string;
  offset: number;
}

const NUM = /\p{Nd}+/uy;
const WORD = /[\p{L}\p{M}]+/uy;

function tokenize(text: string, base: number): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    NUM.lastIndex = i;
    WORD.lastIndex = i;
    const num = NUM.exec(text);
    const word = num === null ? WORD.exec(text) : null;
    let tok: Token;
    if (num !== null) tok = { kind: 'num', text: num[0], offset: base + i };
    else if (word !== null) tok = { kind: 'word', text: word[0], offset: base + i };
    else {
      const ch = String.fromCodePoint(text.codePointAt(i) ?? 0);
      const kind = ch === '*' || ch === '-' || ch === '/' || ch === ',' ? ch : 'other';
      tok = { kind, text: ch, offset: base + i };
    }
    tokens.push(tok);
    i += tok.text.length;
  }
  return tokens;
}

const MONTHS = [
  ...['JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE'],
  ...['JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER'],
];
const DAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'];

/** `JAN`, `Janu`, `january` are month names; `MON`, `Thurs` are day names. */
function isName(word: string, names: readonly string[]): boolean {
  const w = word.toUpperCase();
  return w.length >= 3 && names.some((n) => n.startsWith(w));
}

function wordError(field: CronField, tok: Token): CronError {
  if (field.name === 'month' && isName(tok.text, MONTHS))
    return cronError(
      'unreadable',
      field.name,
      tok.text,
      tok.offset,
      `names such as ${tok.text} are not read; use 1-12`,
    );
  if (field.name === 'day_of_week' && isName(tok.text, DAYS))
    return cronError(
      'unreadable',
      field.name,
      tok.text,
      tok.offset,
      `names such as ${tok.text} are not read; use 0-7 (0 and 7 are Sunday)`,
    );
  return cronError('unreadable', field.name, tok.text, tok.offset, `"${tok.text}" is not a number`);
}

function unexpected(field: CronField, tok: Token, after?: string): CronError {
  if (tok.kind === 'word') return wordError(field, tok);
  const what = tok.kind === 'num' ? `"${tok.text}"` : describeChar(tok.text);
  return cronError(
    'unreadable',
    field.name,
    tok.text,
    tok.offset,
    after === undefined ? `unexpected ${what}` : `unexpected ${what} after ${after}`,
  );
}

export type FieldSyntax = { ok: true; items: CronItem[] } | { ok: false; error: CronError };

/** Reads one whitespace-free field written at `offset` of the expression. */
export function readField(field: CronField, text: string, offset: number): FieldSyntax {
  const toks = tokenize(text, offset);
  const items: CronItem[] = [];
  let i = 0;
  const fail = (error: CronError): FieldSyntax => ({ ok: false, error });

  /** A number after `sign`; a word there gets the word's own message. */
  const expectNumber = (sign: Token): NumberToken | CronError => {
    const t = toks[i];
    if (t?.kind === 'num') {
      i++;
      return { text: t.text, offset: t.offset };
    }
    if (t?.kind === 'word') return wordError(field, t);
    return cronError(
      'unreadable',
      field.name,
      sign.text,
      sign.offset,
      `"${sign.text}" needs a number after it`,
    );
  };

  for (;;) {
    const first = toks[i];
    // An item is missing: before a comma, or after a trailing one.
    if (first === undefined || first.kind === ',') {
      const comma = first ?? toks[i - 1];
      // Not reached from parseCron, whose fields are never empty; kept so the function is total.
      if (comma === undefined) return fail(cronError('unreadable', field.name, '', offset, 'is empty'));
      return fail(
        cronError('unreadable', field.name, ',', comma.offset, 'a comma needs a value on each side'),
      );
    }
    let form: CronItem['form'];
    let start: NumberToken | undefined;
    let end: NumberToken | undefined;
    let step: NumberToken | undefined;
    if (first.kind === '*') {
      form = 'all';
      i++;
      const next = toks[i];
      if (next?.kind === '-') return fail(unexpected(field, next, '"*"'));
    } else if (first.kind === 'num') {
      form = 'value';
      start = { text: first.text, offset: first.offset };
      i++;
      const dash = toks[i];
      if (dash?.kind === '-') {
        i++;
        const n = expectNumber(dash);
        if ('message' in n) return fail(n);
        form = 'range';
        end = n;
      }
    } else if (first.kind === 'word') {
      return fail(wordError(field, first));
    } else if (first.kind === '-' || first.kind === '/') {
      const before = first.kind === '-' ? 'a number' : '* or a number';
      return fail(
        cronError(
          'unreadable',
          field.name,
          first.text,
          first.offset,
          `"${first.text}" needs ${before} before it`,
        ),
      );
    } else {
      return fail(unexpected(field, first));
    }
    const slash = toks[i];
    if (slash?.kind === '/') {
      i++;
      const n = expectNumber(slash);
      if ('message' in n) return fail(n);
      step = n;
    }
    const last = toks[i - 1] ?? first;
    const itemEnd = last.offset + last.text.length;
    items.push({
      form,
      text: text.slice(first.offset - offset, itemEnd - offset),
      offset: first.offset,
      ...(start && { start }),
      ...(end && { end }),
      ...(step && { step }),
    });
    const sep = toks[i];
    if (sep === undefined) return { ok: true, items };
    if (sep.kind !== ',') return fail(unexpected(field, sep, `"${items[items.length - 1]?.text ?? ''}"`));
    i++;
  }
}
