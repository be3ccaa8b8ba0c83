// @vitest-environment happy-dom
import { act, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { aProbe, aRepo } from '../fixtures.js';
import { reposQuery } from '../queries.js';
import { ConnectForm } from '../templates/repos/connect-form.js';
import { boardTest, refusal } from '../test-kit.js';
import { useRepoConnect, type RepoConnect } from './use-repo-connect.js';

/*
 * Connecting a repository, as the first-run wizard and Templates › Repos do it (the hook, the
 * shared path and command fields, and Templates › Repos' form): probed first, the commands the
 * probe proposes edited, then connected with them.
 */

const form = (c: RepoConnect) => ({
  path: c.path,
  probe: c.probe?.name ?? null,
  tests: c.tests,
  setup: c.setup,
  noSetup: c.noSetup,
  error: c.error,
});

describe('useRepoConnect', () => {
  it("probes the path, proposes the probe's commands, and connects with them as edited", async () => {
    const t = boardTest({ probeRepo: () => aProbe(), connectRepo: () => aRepo({ test_command: '' }) });
    t.client.setQueryData(reposQuery().queryKey, {
      repos: [],
      workspaces: [],
      suggested: null,
      warnings: [],
    });
    const { result } = t.hook(() => useRepoConnect('/src/app'));

    await act(() => result.current.look());
    expect(form(result.current)).toEqual({
      path: '/src/app',
      probe: 'app',
      tests: 'npm test',
      setup: 'npm ci',
      noSetup: false,
      error: null,
    });

    act(() => {
      result.current.setTests('');
      result.current.setNoSetup(true);
    });
    let repo: unknown;
    await act(async () => {
      repo = await result.current.connect();
    });
    expect(repo).toEqual(aRepo({ test_command: '' }));
    expect(t.api.calls).toEqual([
      { route: 'probeRepo', body: { path: '/src/app' } },
      // "No setup needed" sends an empty setup command, whatever the field held.
      { route: 'connectRepo', body: { path: '/src/app', test_command: '', setup_command: '' } },
    ]);
    // The list of repositories is stale now.
    expect(t.client.getQueryState(reposQuery().queryKey)?.isInvalidated).toBe(true);
  });

  it('says why a probe is refused; a path typed anew drops the probe of the old one', async () => {
    let answer: Response | null = null;
    const t = boardTest({ probeRepo: () => answer ?? aProbe({ setup_command: null }) });
    const { result } = t.hook(() => useRepoConnect('/src/app'));
    await act(() => result.current.look());
    // Nothing to set up was found: "No setup needed" starts ticked.
    expect(form(result.current)).toMatchObject({ probe: 'app', setup: '', noSetup: true });

    act(() => result.current.setPath('/tmp/notes'));
    expect(form(result.current)).toMatchObject({ path: '/tmp/notes', probe: null });

    answer = refusal(422, 'repo_not_git', '/tmp/notes is not a git checkout');
    await act(() => result.current.look());
    expect(form(result.current)).toMatchObject({ probe: null, error: '/tmp/notes is not a git checkout' });
    // Without a probe there is nothing to connect, and nothing is sent.
    expect(await act(() => result.current.connect())).toBeNull();
    expect(t.api.calls.map((c) => [c.route, c.body])).toEqual([
      ['probeRepo', { path: '/src/app' }],
      ['probeRepo', { path: '/tmp/notes' }],
    ]);
  });
});

describe('ConnectForm (Templates › Repos)', () => {
  it('shows what the probe found and connects the repository with the commands as edited', async () => {
    const user = userEvent.setup();
    const onDone = vi.fn();
    const t = boardTest({
      probeRepo: () => aProbe({ path: '/src/app', default_branch: 'trunk' }),
      connectRepo: () => aRepo({ test_command: 'npm run test:unit', setup_command: '' }),
    });
    t.render(<ConnectForm initial="" onDone={onDone} />);

    await user.type(screen.getByLabelText('Path of a git checkout on this machine'), '/src/app');
    await user.click(screen.getByRole('button', { name: 'Look at it' }));
    await screen.findByRole('button', { name: 'Connect app' });
    expect(screen.getByText('app').parentElement?.textContent).toBe('app at /src/app, on trunk');
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Tests: npm test — package.json has a test script',
      'Setup in a new worktree: npm ci — package-lock.json',
      'Forge: none (merge requests need one)',
    ]);

    const tests = screen.getByLabelText('Test command (empty: the repository has no tests)');
    expect(tests).toHaveProperty('value', 'npm test');
    await user.clear(tests);
    await user.type(tests, 'npm run test:unit');
    await user.click(screen.getByRole('checkbox', { name: 'No setup needed' }));
    expect(screen.getByLabelText('Setup command')).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'Connect app' }));

    await vi.waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(onDone).toHaveBeenCalledWith(aRepo({ test_command: 'npm run test:unit', setup_command: '' }));
    expect(t.api.calls).toEqual([
      { route: 'probeRepo', body: { path: '/src/app' } },
      {
        route: 'connectRepo',
        body: { path: '/src/app', test_command: 'npm run test:unit', setup_command: '' },
      },
    ]);
  });

  it("shows the server's refusal of a connect, and stays open", async () => {
    const user = userEvent.setup();
    const onDone = vi.fn();
    const t = boardTest({
      probeRepo: () => aProbe(),
      connectRepo: () => refusal(422, 'validation_failed', 'test_command: must be one line'),
    });
    t.render(<ConnectForm initial="/src/app" onDone={onDone} />);
    await user.click(screen.getByRole('button', { name: 'Look at it' }));
    await user.click(await screen.findByRole('button', { name: 'Connect app' }));

    expect((await screen.findByRole('alert')).textContent).toBe('test_command: must be one line');
    expect(onDone).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Connect app' })).toBeTruthy();
    expect(t.api.calls.map((c) => c.route)).toEqual(['probeRepo', 'connectRepo']);
  });
});
