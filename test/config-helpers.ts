import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfigTexts } from '../src/core/config/validate-set.js';

export const DEFAULTS = join(import.meta.dirname, '..', 'defaults', 'config');

/** The texts of a config directory laid out as $JIG_HOME/config is. */
export function readConfigDir(dir: string): ConfigTexts {
  const read = (f: string): string | null => {
    try {
      return readFileSync(join(dir, f), 'utf8');
    } catch {
      return null;
    }
  };
  const chains: Record<string, string> = {};
  let names: string[] = [];
  try {
    names = readdirSync(join(dir, 'chains'));
  } catch {
    names = [];
  }
  for (const f of names)
    if (f.endsWith('.yaml')) chains[f.slice(0, -5)] = readFileSync(join(dir, 'chains', f), 'utf8');
  return {
    library: read('library.yaml'),
    chains,
    harnesses: read('harnesses.yaml'),
    policy: read('policy.yaml'),
    repos: read('repos.yaml'),
    intake: read('intake.yaml'),
    access: read('access.yaml'),
    theme: read('theme.yaml'),
  };
}
