// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AnswerOf } from '../api.js';
import { anItem } from '../fixtures.js';
import { boardTest } from '../test-kit.js';
import { ItemBranches } from './item-branches.js';

/*
 * A completed item says where its change is: the branch, its commits (short sha and subject),
 * whether the base branch has them, and what to do next while it does not.
 */

const done = anItem({
  id: 'k3f9ab2c',
  title: 'Add a greeting',
  status: 'completed',
  display_status: 'done',
  branch: 'jig/k3f9ab2c-add-a-greeting',
  base_branch: 'main',
  repo: '/src/app',
  started_at: '2026-11-24T10:01:00.000Z',
  ended_at: '2026-11-24T10:05:00.000Z',
});

const answer = (merged: boolean): AnswerOf<'itemCommits'> => ({
  branches: [
    {
      repo: '/src/app',
      branch: done.branch,
      base_branch: 'main',
      exists: true,
      merged,
      more: false,
      commits: [
        {
          sha: 'a'.repeat(40),
          short: 'aaaaaaa',
          subject: 'Add a greeting',
          author: 'Ann',
          at: '2026-11-24T10:04:00Z',
        },
      ],
    },
  ],
});

describe('ItemBranches', () => {
  it('shows the branch, its commits and what to do next while the base does not have them', async () => {
    const t = boardTest({ itemCommits: () => answer(false) });
    t.render(<ItemBranches item={done} />);
    const commits = await screen.findByRole('list', { name: `commits on ${done.branch}` });
    expect(commits.textContent).toBe('aaaaaaa Add a greeting');
    const section = screen.getByRole('region', { name: 'where the change is' });
    expect(section.textContent).toContain(
      `The change is on branch ${done.branch} in /src/app, 1 commit: not merged into main yet.`,
    );
    expect(section.textContent).toContain(`git -C /src/app merge ${done.branch} with main checked out`);
    expect(section.textContent).toContain(`git -C /src/app push -u origin ${done.branch}`);
    expect(section.textContent).toContain(`jig repo path ${done.id}`);
    expect(t.api.of('itemCommits')).toEqual([{ route: 'itemCommits', params: { id: done.id } }]);
  });

  it('says when the base branch has the commits, and offers no next step then', async () => {
    boardTest({ itemCommits: () => answer(true) }).render(<ItemBranches item={done} />);
    const section = await screen.findByRole('region', { name: 'where the change is' });
    await screen.findByText(/merged into/);
    expect(section.textContent).toContain('1 commit: merged into main.');
    expect(section.textContent).not.toContain('git -C /src/app merge');
  });
});
