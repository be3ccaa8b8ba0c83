import { describe, expect, it } from 'vitest';
import { compareVersions, newestOnChannel, tagsOf } from './versions.js';

describe('release versions and channels', () => {
  it('orders releases and pre-releases as SemVer does', () => {
    expect(compareVersions('2.0.0', '2.0.1')).toBeLessThan(0);
    expect(compareVersions('2.1.0', '2.0.9')).toBeGreaterThan(0);
    expect(compareVersions('2.1.0-rc.1', '2.1.0')).toBeLessThan(0);
    expect(compareVersions('2.1.0-rc.2', '2.1.0-rc.10')).toBeLessThan(0);
    expect(compareVersions('2.1.0-alpha', '2.1.0-beta')).toBeLessThan(0);
    expect(compareVersions('2.1.0+build.1', '2.1.0')).toBe(0);
    expect(compareVersions('2.x', '2.0.0')).toBeNull();
  });

  it('a channel follows its own tag and every more stable one', () => {
    expect(tagsOf('stable')).toEqual(['latest']);
    expect(tagsOf('beta')).toEqual(['latest', 'rc', 'beta']);
    const tags = { latest: '2.1.0', rc: '2.1.0-rc.3', beta: '2.2.0-beta.1' };
    expect(newestOnChannel(tags, 'stable')).toBe('2.1.0');
    expect(newestOnChannel(tags, 'rc')).toBe('2.1.0');
    expect(newestOnChannel(tags, 'beta')).toBe('2.2.0-beta.1');
    expect(newestOnChannel(tags, 'alpha')).toBe('2.2.0-beta.1');
    expect(newestOnChannel({}, 'stable')).toBeNull();
  });
});
