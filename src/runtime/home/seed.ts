import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { packageRoot } from '../package-root.js';

export const defaultsConfigDir = join(packageRoot, 'defaults', 'config');

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFiles(full));
    else out.push(full);
  }
  return out;
}

/**
 * Copies every packaged default file that the config dir lacks. An existing file is never
 * overwritten, whatever it holds: the user's edits win. Answers the files it created.
 */
export function seedConfig(configDir: string): string[] {
  const created: string[] = [];
  for (const src of listFiles(defaultsConfigDir)) {
    const rel = relative(defaultsConfigDir, src);
    const dest = join(configDir, rel);
    if (existsSync(dest)) continue;
    mkdirSync(join(dest, '..'), { recursive: true });
    // COPYFILE_EXCL: a file that appeared meanwhile is still not overwritten.
    try {
      copyFileSync(src, dest, 1);
      created.push(rel);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return created;
}
