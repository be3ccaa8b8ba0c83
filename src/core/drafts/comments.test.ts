import { describe, expect, it } from 'vitest';
import { commentWarnings, hasComments } from './comments.js';

describe('comments', () => {
  it('finds a comment token, not a # inside a string', () => {
    expect(hasComments('a: 1 # why\n')).toBe(true);
    expect(hasComments('# top\na: 1\n')).toBe(true);
    expect(hasComments('a: "#x"\nb: \'# y\'\n')).toBe(false);
    expect(hasComments(null)).toBe(false);
  });

  it('warns for a rewritten file only when its published text has comments', () => {
    expect(
      commentWarnings(['chains/a.yaml', 'chains/b.yaml', 'library.yaml'], {
        'chains/a.yaml': '# kept until now\nnodes: []\n',
        'chains/b.yaml': 'nodes: []\n',
        'library.yaml': null,
      }),
    ).toEqual([
      {
        file: 'chains/a.yaml',
        message:
          'an edit rewrote chains/a.yaml whole: publishing drops the comments of the published file (edit its text to keep them)',
      },
    ]);
  });
});
