import { describe, expect, it } from 'vitest';
import { closingLines, readMrMeta, withClosingLines } from './mr-meta.js';

describe('the merge request metadata document', () => {
  it('takes the first heading as the title and the rest as the description', () => {
    expect(readMrMeta('\n# fix(api): refuse empty names\r\n\nWhy.\n\n## Testing\n- unit\n', 'x')).toEqual({
      title: 'fix(api): refuse empty names',
      body: 'Why.\n\n## Testing\n- unit',
    });
  });
  it('without a heading, the first line; empty or missing, the fallback', () => {
    expect(readMrMeta('Refuse empty names\nbecause.', 'x')).toEqual({
      title: 'Refuse empty names',
      body: 'because.',
    });
    expect(readMrMeta('  \n', 'Item title')).toEqual({ title: 'Item title', body: '' });
    expect(readMrMeta(null, 'Item title')).toEqual({ title: 'Item title', body: '' });
  });
});

describe('closing lines', () => {
  const forge = { forge: 'github', project: 'acme/app' };
  it('closes issues of its own project, fixes Linear, names Jira, leaves beads and other projects', () => {
    expect(
      closingLines(
        [
          { tracker: 'github', id: 'acme/app#12' },
          { tracker: 'github', id: 'acme/other#3' },
          { tracker: 'gitlab', id: 'acme/app#4' },
          { tracker: 'linear', id: 'ENG-42' },
          { tracker: 'jira', id: 'SHOP-7' },
          { tracker: 'beads', id: 'shop-a1' },
        ],
        forge,
      ),
    ).toEqual(['Closes #12', 'Fixes ENG-42', 'Jira: SHOP-7']);
  });

  it('adds only the lines the description lacks, after a blank line', () => {
    expect(withClosingLines('Body.\n', ['Closes #12', 'Fixes ENG-42'])).toBe(
      'Body.\n\nCloses #12\nFixes ENG-42',
    );
    expect(withClosingLines('Body.\nCloses #12\n', ['Closes #12'])).toBe('Body.\nCloses #12\n');
    expect(withClosingLines('Closes #123\nFixes ENG-420', ['Closes #12', 'Fixes ENG-42'])).toBe(
      'Closes #123\nFixes ENG-420\n\nCloses #12\nFixes ENG-42',
    );
    expect(withClosingLines('', ['Closes #12'])).toBe('Closes #12');
  });
});
