import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A task's 0-based session count in a chain test: one marker file per session, taken with O_EXCL,
 * so two sessions of one task started together never take the same number.
 */
export function takeAttempt(stateDir: string, taskPath: string): number {
  const dir = join(stateDir, encodeURIComponent(taskPath));
  mkdirSync(dir, { recursive: true });
  for (let n = 0; ; n++) {
    try {
      closeSync(openSync(join(dir, String(n)), 'wx'));
      return n;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}
