import { describe, expect, it } from 'vitest';
import { changeWords } from './change-words.js';

/* Review & publish's change lines read once: no "change change changed message (message)". */
describe('a change in words', () => {
  it('names the move once, and the fields only when the summary does not', () => {
    const line = (w: ReturnType<typeof changeWords>) => `${w.chip} ${w.where}: ${w.what}`;
    expect(
      line(changeWords({ path: 'change', kind: 'change', summary: 'changed message', fields: ['message'] })),
    ).toBe('edited change: changed message');
    expect(
      line(changeWords({ path: 'build.main.lint', kind: 'change', summary: 'moved', fields: ['after'] })),
    ).toBe('edited build.main.lint: moved (after)');
    expect(line(changeWords({ path: '', kind: 'add', summary: 'node added' }))).toBe(
      'added (chain): node added',
    );
  });
});
