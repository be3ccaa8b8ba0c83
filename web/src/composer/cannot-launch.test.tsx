// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CannotLaunch } from './basic-fields.js';

/* The composer says which agent tasks cannot start here before Create, one line per reason. */

describe('CannotLaunch', () => {
  it('groups the tasks by why they cannot launch, and says what to do', () => {
    const missing = 'claude: claude is not installed here (not on PATH)';
    render(
      <CannotLaunch
        problems={[
          { task: 'spec.main.author', reason: missing },
          { task: 'plan.main.planner', reason: missing },
          { task: 'review.auto_review', reason: 'policy does not allow harness codex' },
        ]}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert.querySelector('strong')?.textContent).toBe('3 agent tasks cannot start on this machine:');
    expect([...alert.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      `${missing} (spec.main.author, plan.main.planner)`,
      'policy does not allow harness codex (review.auto_review)',
    ]);
    expect(alert.textContent).toContain('pick a chain that needs none (manual)');
  });
});
