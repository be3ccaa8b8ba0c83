import { describe, expect, it } from 'vitest';
import { mapPath, parsePathMap, unmapPath } from './path-map.js';

describe('repo path map', () => {
  it('maps a repo or a folder above it, the longest match first, and leaves others alone', () => {
    const map = parsePathMap(['/srv/repos=/home/w/src', '/srv/repos/special/=/data/special']);
    expect(map).toEqual([
      { from: '/srv/repos', to: '/home/w/src' },
      { from: '/srv/repos/special', to: '/data/special' },
    ]);
    expect(mapPath(map, '/srv/repos/app')).toBe('/home/w/src/app');
    expect(mapPath(map, '/srv/repos')).toBe('/home/w/src');
    expect(mapPath(map, '/srv/repos/special/x')).toBe('/data/special/x');
    expect(mapPath(map, '/srv/repository')).toBe('/srv/repository');
    expect(mapPath(map, '/elsewhere/app')).toBe('/elsewhere/app');
  });

  it('undoes the map for records shared with the server: a mapped path comes back as filed', () => {
    const map = parsePathMap(['/srv/repos=/home/w/src', '/srv/repos/special=/home/w/src/special-copy']);
    for (const p of ['/srv/repos/app', '/srv/repos', '/srv/repos/special/x'])
      expect(unmapPath(map, mapPath(map, p))).toBe(p);
    expect(unmapPath(map, '/home/w/src/special-copy/y')).toBe('/srv/repos/special/y');
    expect(unmapPath(map, '/home/w/srcx')).toBe('/home/w/srcx');
    expect(unmapPath([], '/a/b')).toBe('/a/b');
  });

  it('refuses a pair without two absolute paths, quoting it', () => {
    expect(() => parsePathMap(['/a'])).toThrow('--repo-map takes FROM=TO with two absolute paths (got "/a")');
    expect(() => parsePathMap(['a=/b'])).toThrow('(got "a=/b")');
    expect(() => parsePathMap(['/a=b'])).toThrow('(got "/a=b")');
  });
});
