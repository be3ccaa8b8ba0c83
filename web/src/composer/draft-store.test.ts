// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { resetDraft, updateDraft } from './draft-store.js';

/*
 * The draft the dialog and the page share is kept in the tab's sessionStorage, so a reload of
 * /work-items/new finds it; filing or closing forgets it.
 */

const stored = () => JSON.parse(window.sessionStorage.getItem('jig.composer.draft') ?? 'null') as unknown;

describe('the shared composer draft', () => {
  it('keeps each change in the tab and forgets it on reset', () => {
    updateDraft((d) => ({ ...d, title: 'Add login' }));
    updateDraft((d) => ({ ...d, budget: '5' }));
    expect(stored()).toMatchObject({ title: 'Add login', budget: '5', nodes: { chain: '', by: {} } });
    resetDraft();
    expect(stored()).toBeNull();
    updateDraft((d) => ({ ...d, description: 'why' }));
    expect(stored()).toMatchObject({ title: '', description: 'why' });
    resetDraft();
  });
});
