import { describe, expect, it } from 'vitest';
import { readMrMeta } from './mr-meta.js';

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
