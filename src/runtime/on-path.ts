import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** Where an executable is found on `env.PATH` (or the path itself when absolute), else null. */
export function onPath(exe: string, env: NodeJS.ProcessEnv): string | null {
  const dirs = isAbsolute(exe) ? [''] : (env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const dir of dirs) {
    const full = dir === '' ? exe : join(dir, exe);
    try {
      accessSync(full, constants.X_OK);
      return full;
    } catch {
      // not here; the next folder
    }
  }
  return null;
}
