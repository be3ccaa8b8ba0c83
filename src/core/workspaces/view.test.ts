import { describe, expect, it } from 'vitest';
import { ReposFile } from '../../contract/config/repos.js';
import { workspaceViews } from './view.js';

const file = (workspaces: unknown) =>
  ReposFile.parse({
    repos: [
      { path: '/src/shop', id: 'shop' },
      { path: '/src/api', id: 'api' },
      { path: '/src/web', id: 'web', enabled: false },
      { path: '/src/other' },
    ],
    workspaces,
  });

describe('workspaceViews', () => {
  it('resolves the root and members to their connected repositories', () => {
    expect(
      workspaceViews(
        file({
          all: {
            root: 'shop',
            root_pointer_default: 'bump',
            members: { api: { repository: 'api', path: 'services/api' } },
          },
        }),
      ),
    ).toEqual([
      {
        name: 'all',
        root: 'shop',
        root_path: '/src/shop',
        root_pointer_default: 'bump',
        members: [
          {
            name: 'api',
            repository: 'api',
            path: 'services/api',
            repo_path: '/src/api',
            enabled: true,
            problem: null,
          },
        ],
        ready: true,
        problems: [],
      },
    ]);
    expect(workspaceViews(file(undefined))).toEqual([]);
  });

  it('says what keeps a workspace from being used', () => {
    const [w] = workspaceViews(
      file({
        bad: {
          root: 'nope',
          members: {
            web: { repository: 'web', path: 'web' },
            up: { repository: 'api', path: '../api' },
            abs: { repository: 'api', path: '/api' },
            api: { repository: 'api', path: 'api' },
            again: { repository: 'api', path: 'api2' },
          },
        },
      }),
    );
    expect(w!.ready).toBe(false);
    expect(w!.root_pointer_default).toBe('ignore');
    expect(w!.problems).toEqual([
      'root nope is not a connected repository (no repos.yaml entry has id: nope)',
      'member web: web (/src/web) is disabled',
      'path ../api leaves the root',
      'path /api is absolute; give it relative to the root',
      'member again: repository api is already a member',
    ]);
    expect(w!.members.map((m) => [m.name, m.enabled])).toEqual([
      ['web', false],
      ['up', true],
      ['abs', true],
      ['api', true],
      ['again', true],
    ]);
    expect(workspaceViews(file({ empty: { root: 'shop' } }))[0]!.problems).toEqual(['it has no members']);
  });
});
