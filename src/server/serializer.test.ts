import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serializerCompiler } from './serializer.js';

const Item = z.object({ id: z.string(), n: z.number() });
const Refused = z.object({
  detail: z.string(),
  code: z.literal('config_refused'),
  refused: z.array(z.string()),
});
const compile = (schema: unknown, httpStatus: string) =>
  serializerCompiler({ schema, method: 'GET', url: '/x', httpStatus });

describe('serializerCompiler', () => {
  it('checks an answer against its schema and drops keys the schema does not name', () => {
    expect(compile(Item, '200')({ id: 'a', n: 1, secret: 'x' })).toBe('{"id":"a","n":1}');
  });

  it('refuses an answer that does not match, as a serialization error', () => {
    expect(() => compile(Item, '200')({ id: 'a', n: 'one' })).toThrow(/Response doesn't match the schema/);
  });

  it('lets any catalogue error through a route whose error schema is narrower', () => {
    const body = { detail: 'body.x: nests deeper than 32 levels', code: 'validation_failed', issues: [] };
    expect(JSON.parse(compile(Refused, '422')(body))).toEqual(body);
    expect(() => compile(Refused, '422')({ nope: true })).toThrow(/Response doesn't match the schema/);
  });

  it('reads a schema given as {properties}', () => {
    expect(compile({ properties: Item }, '200')({ id: 'b', n: 2 })).toBe('{"id":"b","n":2}');
  });
});
