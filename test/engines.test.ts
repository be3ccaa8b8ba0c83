import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/server.js';

/*
 * `engines` promises Node 20.19: every package `npm ci` installs must run there, or npm warns on a
 * fresh clone and the package may use what Node 20 lacks (a dependency once moved to Node 22 in a
 * patch release). The lockfile names each installed package's own `engines`.
 */
interface Lock {
  packages: Record<string, { version?: string; engines?: Record<string, string> | string[]; dev?: boolean }>;
}

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as Lock;

describe('engines', () => {
  it('installs no package that refuses the oldest Node the package promises', () => {
    const oldest = semver.minVersion(pkg.engines.node)!.version;
    expect(oldest).toBe('20.19.0');
    const refusing = Object.entries(lock.packages).flatMap(([path, p]) => {
      const range = p.engines && !Array.isArray(p.engines) ? p.engines.node : undefined;
      if (!path || !range) return [];
      return semver.satisfies(oldest, range) ? [] : [`${path}@${p.version} wants node ${range}`];
    });
    expect(refusing).toEqual([]);
  });
});
