import pg from 'pg';
import { postgresText } from './dialect.js';

/*
 * What Jig's values look like on the wire to PostgreSQL and back (issue 50: timestamptz, jsonb,
 * numeric since migration 32). Callers write and read exactly what they do on SQLite: a time is
 * the ISO string `toISOString()` writes, a JSON column the JSON text, a number a number.
 */

const INT8 = 20;
const NUMERIC = 1700;
const JSON_OID = 114;
const JSONB = 3802;
const TIMESTAMPTZ = 1184;

type Parser = (value: string) => unknown;
const builtin = pg.types.getTypeParser as (oid: number, format?: 'text' | 'binary') => Parser;
const asDate = builtin(TIMESTAMPTZ) as (v: string) => Date;
const asText = (v: string): string => v;

/**
 * - `bigint` and `numeric` come back as strings; Jig's values (seq, counts, tokens, sums, dollars)
 *   fit a JavaScript number.
 * - A timestamptz is read as the ISO string it was written as (milliseconds, `Z`), whatever the
 *   session's time zone: comparisons, cursors and sorting are the same as text on SQLite.
 * - jsonb stays text: each store module parses and validates its own columns. (jsonb keeps
 *   object keys in its own order: by length, then bytes. Nothing Jig reads depends on key order.)
 */
export const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary'): Parser {
    if (format === undefined || format === 'text') {
      if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
      if (oid === TIMESTAMPTZ) return (v: string) => asDate(v).toISOString();
      if (oid === JSONB || oid === JSON_OID) return asText;
    }
    return builtin(oid, format);
  },
};

/**
 * JSON text with each `\u0000` escape (a NUL in a string) written `\ufffd`: jsonb cannot hold a
 * NUL, and PostgreSQL text columns keep U+FFFD in its place too. Escapes are read in order, so an
 * escaped backslash followed by `u0000` (the literal text) is left alone.
 */
export function jsonWithoutNul(json: string): string {
  let out = '';
  let from = 0;
  for (let i = json.indexOf('\\'); i !== -1; i = json.indexOf('\\', i + 2)) {
    if (json.startsWith('u0000', i + 1)) {
      out += `${json.slice(from, i)}\\ufffd`;
      from = i + 6;
    }
  }
  return from === 0 ? json : out + json.slice(from);
}

/** Whether `s` is JSON text of an object or array: what every JSON column holds. */
function isJsonDocument(s: string): boolean {
  if (!(s.startsWith('{') || s.startsWith('['))) return false;
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/**
 * One parameter as PostgreSQL can store it: a NUL in text becomes U+FFFD, and so does a NUL
 * escaped in a JSON document (a parameter carries no column, so a JSON document is known by its
 * form; a text column given a whole JSON document that spells `\u0000` sees U+FFFD there too,
 * as it would for the character itself).
 */
export function postgresParameter(p: unknown): unknown {
  if (typeof p !== 'string') return p;
  const text = postgresText(p);
  return text.includes('\\u0000') && isJsonDocument(text) ? jsonWithoutNul(text) : text;
}

/** Whether any parameter needs changing (the common case: none; the query is sent as it is). */
export const needsCleaning = (p: unknown): boolean =>
  typeof p === 'string' && (p.includes('\0') || p.includes('\\u0000'));
