import { describe, expect, it } from 'vitest';
import { editorChoices } from './choices.js';

describe('editorChoices', () => {
  it('offers every value the schema accepts, each with a summary, and marks the forge waits', () => {
    const c = editorChoices();
    expect(c.ref.map((x) => x.value)).toEqual(['jig.verify_changed_test_scopes', 'jig.mr_rebase']);
    expect(c.target.map((x) => [x.value, x.waits])).toEqual([
      ['mr.open_draft', false],
      ['mr.sync', false],
      ['mr.ci', true],
      ['mr.automated_review', true],
      ['mr.mark_ready', false],
      ['mr.external_approval', true],
      ['mr.merge', true],
      ['mr.post_merge_ci', true],
    ]);
    expect(c.inputs.map((x) => x.value)).toEqual(['review_package', 'carried_findings', 'previous_review']);
    expect(c.grants.map((x) => x.value)).toEqual(['git-commit', 'git-rebase', 'git-push']);
    for (const x of [...c.ref, ...c.target, ...c.inputs, ...c.grants])
      expect(x.summary).toMatch(/^[A-Z].+\.$/);
  });
});
