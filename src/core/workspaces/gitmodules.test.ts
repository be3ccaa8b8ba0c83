import { describe, expect, it } from 'vitest';
import { memberName, parseGitmodules } from './gitmodules.js';

describe('parseGitmodules', () => {
  it('reads each submodule section with a path; other sections, comments and url lines are left out', () => {
    const text = [
      '# a comment',
      '[submodule "libs/api"]',
      '\tpath = services/api',
      '\turl = ../api.git',
      '[core]',
      '\tpath = not-a-submodule',
      '[submodule "no path"]',
      '\turl = x',
      '[submodule "web \\"ui\\""]',
      '  path = "web ui" ; trailing comment',
    ].join('\n');
    expect(parseGitmodules(text)).toEqual([
      { name: 'libs/api', path: 'services/api' },
      { name: 'web "ui"', path: 'web ui' },
    ]);
    expect(parseGitmodules('')).toEqual([]);
  });
});

describe('memberName', () => {
  it('makes an identifier from the last segment, unique among those taken', () => {
    expect(memberName('libs/API.Client', new Set())).toBe('api-client');
    expect(memberName('3d', new Set())).toBe('d');
    expect(memberName('123', new Set())).toBe('member');
    expect(memberName('api', new Set(['api', 'api-2']))).toBe('api-3');
  });
});
