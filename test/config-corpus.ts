import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ConfigTexts } from '../src/core/config/validate-set.js';
import { DEFAULTS, readConfigDir } from './config-helpers.js';

export const CORPUS = join(import.meta.dirname, 'fixtures', 'config');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

/**
 * A corpus case is a folder of config files laid over the seeded set: `library.yaml`,
 * `chains/<id>.yaml` and so on replace or add a file; `<file>.deleted` removes one.
 */
export function caseTexts(dir: string): ConfigTexts {
  const texts = readConfigDir(DEFAULTS);
  for (const p of files(dir)) {
    const rel = relative(dir, p);
    if (rel.startsWith('expected')) continue;
    const deleted = rel.endsWith('.deleted');
    const name = deleted ? rel.slice(0, -'.deleted'.length) : rel;
    const text = deleted ? null : readFileSync(p, 'utf8');
    if (name.startsWith('chains/')) {
      const id = name.slice('chains/'.length, -'.yaml'.length);
      if (text === null) delete texts.chains[id];
      else texts.chains[id] = text;
    } else {
      const key = name.slice(0, -'.yaml'.length) as Exclude<
        keyof ConfigTexts,
        'chains' | 'addons' | 'unmetered'
      >;
      texts[key] = text;
    }
  }
  return texts;
}

export function cases(kind: 'mistakes' | 'valid'): { name: string; dir: string; expected: unknown }[] {
  const root = join(CORPUS, kind);
  return readdirSync(root)
    .sort()
    .map((name) => {
      const dir = join(root, name);
      const exp = join(dir, 'expected.json');
      return {
        name,
        dir,
        expected: existsSync(exp) ? (JSON.parse(readFileSync(exp, 'utf8')) as unknown) : null,
      };
    });
}
