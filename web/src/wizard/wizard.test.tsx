// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { aProbe, aRepo } from '../fixtures.js';
import { boardTest } from '../test-kit.js';
import { Wizard } from './wizard.js';

/*
 * The first run: the path field starts with what the server suggests (nothing when it was started
 * in Jig's own clone), and after Connect the step says it is done.
 */
const noRepos = { repos: [], workspaces: [], suggested: null, warnings: [] };

describe('the first-run wizard', () => {
  it('prefills only what the server suggests', () => {
    boardTest({}).render(
      <Wizard
        repos={{ ...noRepos, suggested: { path: '/home/ada/src/app', name: 'app' } }}
        onSkip={() => {}}
      />,
    );
    expect(screen.getByLabelText<HTMLInputElement>('Path of a git checkout on this machine').value).toBe(
      '/home/ada/src/app',
    );
  });

  it('starts with an empty path without a suggestion, and shows the repository connected after Connect', async () => {
    const t = boardTest({
      probeRepo: () => aProbe(),
      connectRepo: () => aRepo({ test_command: 'npm test' }),
    });
    t.render(<Wizard repos={noRepos} onSkip={() => {}} />);
    const path = screen.getByLabelText<HTMLInputElement>('Path of a git checkout on this machine');
    expect(path.value).toBe('');
    await userEvent.type(path, '/src/app');
    await userEvent.click(screen.getByRole('button', { name: 'Look at it' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Connect app' }));
    const done = (await screen.findByText(/Connected/)).closest('.wizard-done');
    expect(done?.getAttribute('role')).toBe('status');
    expect(done?.textContent).toBe('✓ Connected app /src/app · tests: npm test');
    // The form is gone: the step is finished, and the next ones show.
    expect(screen.queryByLabelText('Path of a git checkout on this machine')).toBeNull();
    await screen.findByRole('heading', { name: '2. Chains and limits' });
  });
});
