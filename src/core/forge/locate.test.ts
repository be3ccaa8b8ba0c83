import { describe, expect, it } from 'vitest';
import { locateForge, parseRemote } from './locate.js';

describe('where a repository’s merge requests live', () => {
  it('reads the remote forms', () => {
    expect(parseRemote('git@github.com:acme/app.git')).toEqual({
      scheme: 'https',
      host: 'github.com',
      port: null,
      path: 'acme/app',
    });
    expect(parseRemote('ssh://git@gitlab.example.com:2222/group/sub/app')).toMatchObject({
      host: 'gitlab.example.com',
      path: 'group/sub/app',
    });
    expect(parseRemote('http://127.0.0.1:3000/acme/app.git')).toEqual({
      scheme: 'http',
      host: '127.0.0.1',
      port: '3000',
      path: 'acme/app',
    });
    expect(parseRemote('/srv/git/app.git')).toBeNull();
    expect(parseRemote(null)).toBeNull();
  });

  it('derives forge, project and API base from origin', () => {
    expect(locateForge({}, 'git@github.com:acme/app.git')).toEqual({
      ok: true,
      location: { forge: 'github', project: 'acme/app', api_url: 'https://api.github.com' },
    });
    expect(locateForge({}, 'https://gitlab.com/group/sub/app.git')).toEqual({
      ok: true,
      location: { forge: 'gitlab', project: 'group/sub/app', api_url: 'https://gitlab.com/api/v4' },
    });
    expect(locateForge({}, 'https://codeberg.org/acme/app')).toEqual({
      ok: true,
      location: { forge: 'gitea', project: 'acme/app', api_url: 'https://codeberg.org/api/v1' },
    });
    expect(locateForge({ forge: 'github' }, 'https://git.corp.example/acme/app.git')).toEqual({
      ok: true,
      location: { forge: 'github', project: 'acme/app', api_url: 'https://git.corp.example/api/v3' },
    });
  });

  it('lets repos.yaml name what origin cannot say', () => {
    expect(
      locateForge(
        { forge: 'gitea', project: 'acme/app', forge_url: 'http://127.0.0.1:4000/api/v1/' },
        '/srv/git/app.git',
      ),
    ).toEqual({
      ok: true,
      location: { forge: 'gitea', project: 'acme/app', api_url: 'http://127.0.0.1:4000/api/v1' },
    });
    expect(locateForge({}, '/srv/git/app.git')).toEqual({
      ok: false,
      reason:
        'the repository has no origin remote and repos.yaml sets no forge; add an origin or set forge and project',
    });
    expect(locateForge({}, 'git@git.example.org:acme/app.git')).toEqual({
      ok: false,
      reason:
        'the forge of origin (git.example.org) is not known; set forge: github, gitlab or gitea in repos.yaml',
    });
    expect(locateForge({ forge: 'github', project: 'a/b/c', forge_url: 'http://x' }, null)).toEqual({
      ok: false,
      reason: 'project a/b/c is not owner/name',
    });
  });
});
