import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/server.js';

/*
 * The README and docs/ link only to files that exist inside the repository: a clone on its own
 * (no ../shared beside it) must not have dead links.
 */
function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownFiles(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
  );
}

describe('documentation links', () => {
  it('every relative link in README.md and docs/ names a file inside the repository', () => {
    const files = [join(repoRoot, 'README.md'), ...markdownFiles(join(repoRoot, 'docs'))];
    const bad: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!.split('#')[0]!;
        if (target === '' || /^[a-z]+:/i.test(target)) continue;
        const abs = resolve(dirname(file), target);
        const where = relative(repoRoot, abs);
        if (where.startsWith('..') || !existsSync(abs)) bad.push(`${relative(repoRoot, file)}: ${m[1]}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
