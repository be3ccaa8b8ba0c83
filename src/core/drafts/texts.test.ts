import { describe, expect, it } from 'vitest';
import { firstYamlError, textsWithDraft } from './texts.js';

const published = { library: 'tasks: {}\n', chains: { fast: 'a: 1\n', slow: 'b: 2\n' }, policy: null };

describe('textsWithDraft', () => {
  it('lays chain and settings files over the published set, and drops a chain the draft deletes', () => {
    expect(
      textsWithDraft(published, {
        'chains/fast.yaml': 'a: 2\n',
        'chains/new.yaml': 'c: 3\n',
        'chains/slow.yaml': null,
        'library.yaml': 'nodes: {}\n',
        'policy.yaml': 'max_concurrent: 2\n',
      }),
    ).toEqual({
      library: 'nodes: {}\n',
      chains: { fast: 'a: 2\n', new: 'c: 3\n' },
      policy: 'max_concurrent: 2\n',
    });
    // The published set is left as it was.
    expect(published.chains).toEqual({ fast: 'a: 1\n', slow: 'b: 2\n' });
  });

  it('refuses a file no draft area holds', () => {
    expect(() => textsWithDraft(published, { 'access.yaml': 'x' })).toThrow(
      'access.yaml is not a file a draft can hold',
    );
  });
});

describe('firstYamlError', () => {
  it('names the first file that does not parse, with its line and column', () => {
    expect(
      firstYamlError({ 'chains/b.yaml': 'a: [1\n', 'chains/a.yaml': 'ok: 1\n', 'library.yaml': null }),
    ).toEqual({
      file: 'chains/b.yaml',
      line: 2,
      col: 1,
      message: 'Flow sequence in block collection must be sufficiently indented and end with a ]',
    });
    expect(firstYamlError({ 'chains/a.yaml': 'nodes:\n  - id: x\n' })).toBeNull();
  });
});
