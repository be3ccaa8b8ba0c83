import { describe, expect, it } from 'vitest';
import { jsonWithoutNul, pgTypes, postgresParameter } from './postgres-values.js';

const TIMESTAMPTZ = 1184;
const JSONB = 3802;
const NUMERIC = 1700;

describe('values to and from PostgreSQL', () => {
  it('reads a timestamptz in any session zone as the ISO string toISOString writes', () => {
    const parse = pgTypes.getTypeParser(TIMESTAMPTZ);
    expect(parse('2026-12-02 15:30:44.123+00')).toBe('2026-12-02T15:30:44.123Z');
    expect(parse('2026-12-02 17:30:44.123+02')).toBe('2026-12-02T15:30:44.123Z');
    expect(parse('2026-12-02 15:30:44+00')).toBe('2026-12-02T15:30:44.000Z');
    expect(parse('2026-12-02 15:30:44.1+00')).toBe('2026-12-02T15:30:44.100Z');
  });

  it('reads jsonb as its text and numeric as a number', () => {
    expect(pgTypes.getTypeParser(JSONB)('{"a": [1, 2]}')).toBe('{"a": [1, 2]}');
    expect(pgTypes.getTypeParser(NUMERIC)('0.30000000000000004')).toBe(0.30000000000000004);
  });

  it('writes a NUL escaped in JSON as U+FFFD, leaving an escaped backslash before u0000 alone', () => {
    expect(jsonWithoutNul(JSON.stringify({ a: 'x\0y\0', b: '\\u0000', c: '\\\0' }))).toBe(
      '{"a":"x\\ufffdy\\ufffd","b":"\\\\u0000","c":"\\\\\\ufffd"}',
    );
    expect(JSON.parse(jsonWithoutNul(JSON.stringify({ k: 'a\0' })))).toEqual({ k: 'a\uFFFD' });
    expect(jsonWithoutNul('{"plain":1}')).toBe('{"plain":1}');
  });

  it('cleans a parameter by its form: text with a NUL, a JSON document with the escape; other text kept', () => {
    expect(postgresParameter('a\0b')).toBe('a\uFFFDb');
    expect(postgresParameter(JSON.stringify(['\0']))).toBe('["\\ufffd"]');
    // Not a JSON document: the six characters are the text itself.
    expect(postgresParameter('see \\u0000 in the log')).toBe('see \\u0000 in the log');
    expect(postgresParameter('{not json \\u0000')).toBe('{not json \\u0000');
    expect(postgresParameter(7)).toBe(7);
  });
});
