import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { LayoutRefused, writeOver } from './write-over.js';

const TEXT = `# top comment
max_concurrent: 3 # running at once

# loops section
loops: {}
budget:
  work_item_usd: 10 # per item
  daily_usd: 50
list:
  - a # first
  - b
`;

describe('writeOver', () => {
  it('changes a value and keeps every comment', () => {
    const after = { ...parse(TEXT), max_concurrent: 5 };
    expect(writeOver(TEXT, after)).toBe(TEXT.replace('max_concurrent: 3', 'max_concurrent: 5'));
  });

  it('adds into an empty flow mapping in block style and removes a key', () => {
    const before = parse(TEXT);
    const after = {
      ...before,
      loops: { 'verification.fix_loop': { attempts: 2 } },
      budget: { work_item_usd: 10 },
    };
    const out = writeOver(TEXT, after);
    expect(out).toContain('# loops section\nloops:\n  verification.fix_loop:\n    attempts: 2\n');
    expect(out).toContain('  work_item_usd: 10 # per item\n');
    expect(out).not.toContain('daily_usd');
    expect(out).toContain('# top comment');
    expect(parse(out)).toEqual(after);
  });

  it('grows and shrinks a list keeping the comments of the items that stay', () => {
    const grown = writeOver(TEXT, { ...parse(TEXT), list: ['a', 'b', 'c'] });
    expect(grown).toContain('  - a # first\n  - b\n  - c\n');
    const shrunk = writeOver(TEXT, { ...parse(TEXT), list: ['a'] });
    expect(shrunk).toContain('  - a # first\n');
    expect(parse(shrunk).list).toEqual(['a']);
  });

  it('replaces a value of another kind and writes a missing file fresh', () => {
    expect(parse(writeOver(TEXT, { ...parse(TEXT), list: { x: 1 } })).list).toEqual({ x: 1 });
    expect(writeOver(null, { a: 1 })).toBe('a: 1\n');
    expect(writeOver('# only a comment\n', { a: 1 })).toContain('a: 1');
  });

  it('refuses a change an alias would carry elsewhere', () => {
    const text = 'a: &x\n  n: 1\nb: *x\n';
    expect(() => writeOver(text, { a: { n: 2 }, b: { n: 1 } })).toThrow(LayoutRefused);
    expect(() => writeOver(text, { a: { n: 1 }, b: { n: 2 } })).toThrow(LayoutRefused);
    expect(writeOver(text, { a: { n: 1 }, b: { n: 1 }, c: 3 })).toBe('a: &x\n  n: 1\nb: *x\nc: 3\n');
  });
});

const CHAIN = `# yaml-language-server: $schema=../.schemas/chain.schema.json
nodes:
  - id: a # first
    tasks: # one step
      - id: t
        prompt: >-
          A long prompt folded
          over two lines.

  - id: b
    kind: gate
`;

describe('writeOver on a chain file', () => {
  it('changes one line and leaves moved comments and folded text as written', () => {
    const after = parse(CHAIN);
    after.nodes[1].kind = 'exec';
    expect(writeOver(CHAIN, after)).toBe(CHAIN.replace('kind: gate', 'kind: exec'));
  });

  it('moves a list item by its id, with its comments, and spaces a new one like its siblings', () => {
    const after = parse(CHAIN);
    after.nodes.reverse();
    after.nodes.push({ id: 'c', kind: 'gate' });
    const out = writeOver(CHAIN, after);
    expect(out).toContain('nodes:\n  - id: b\n    kind: gate\n\n  - id: a # first\n    tasks: # one step\n');
    expect(out.endsWith('\n\n  - id: c\n    kind: gate\n')).toBe(true);
    expect(parse(out)).toEqual(after);
  });

  it('renames a key in place and puts a new key where the op put it', () => {
    const text = 'tasks:\n  old: # the task\n    kind: agent # an agent\n';
    // The comment stays; the writer puts one after a key above a mapping on its own line.
    expect(writeOver(text, { tasks: { new: { kind: 'agent' } } })).toBe(
      'tasks:\n  new:\n    # the task\n    kind: agent # an agent\n',
    );
    expect(writeOver('id: x # node\ndescription: d\n', { id: 'x', extends: 'y', description: 'd' })).toBe(
      'id: x # node\nextends: y\ndescription: d\n',
    );
  });

  it('rewrites folded text it changes, and only that', () => {
    const after = parse(CHAIN);
    after.nodes[0].tasks[0].prompt = 'Short.';
    const out = writeOver(CHAIN, after);
    expect(out).toContain(
      '    tasks: # one step\n      - id: t\n        prompt: >-\n          Short.\n\n  - id: b',
    );
    expect(parse(out)).toEqual(after);
  });
});
