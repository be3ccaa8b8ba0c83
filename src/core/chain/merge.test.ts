import { describe, expect, it } from 'vitest';
import { parseYamlTree, toPlain, type AMap } from '../config/tree.js';
import { mergeMaps } from './merge.js';

const tree = (text: string, source: string) => parseYamlTree(text, `${source}.yaml`, source).tree as AMap;

describe('mergeMaps (extends)', () => {
  it('merges maps recursively and replaces lists', () => {
    const parent = tree(
      'policy: {time_cap_minutes: 120, budget_usd: 2}\ninputs: [a, b]\nprompt: p',
      'library',
    );
    const child = tree('policy: {budget_usd: 1}\ninputs: [c]', 'chain');
    expect(toPlain(mergeMaps(parent, child))).toEqual({
      policy: { time_cap_minutes: 120, budget_usd: 1 },
      inputs: ['c'],
      prompt: 'p',
    });
  });
  it('lets a null remove what the parent set', () => {
    const merged = mergeMaps(
      tree('fix_loop: {max_attempts: 2}\nid: x', 'library'),
      tree('fix_loop: null', 'chain'),
    );
    expect(toPlain(merged)).toEqual({ id: 'x' });
  });
  it('replaces a route whole: profile against model/effort, run against argv', () => {
    expect(toPlain(mergeMaps(tree('profile: strong', 'library'), tree('model: opus', 'chain')))).toEqual({
      model: 'opus',
    });
    expect(
      toPlain(mergeMaps(tree('model: opus\neffort: high', 'library'), tree('profile: fast', 'chain'))),
    ).toEqual({ profile: 'fast' });
    expect(
      toPlain(mergeMaps(tree('argv: [make]', 'library'), tree('run: make && make test', 'chain'))),
    ).toEqual({ run: 'make && make test' });
  });
  it('keeps who wrote each key', () => {
    const merged = mergeMaps(tree('prompt: p\nharness: claude', 'library'), tree('harness: codex', 'chain'));
    expect(merged.entries.map((e) => [e.key, e.origin.source])).toEqual([
      ['prompt', 'library'],
      ['harness', 'chain'],
    ]);
  });
});
