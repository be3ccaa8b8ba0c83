import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../process/proc-info.js';

/** The temp name `writeFileAtomic` (runtime and client alike) gives: `.<file>.<pid>.<hex>.tmp`. */
const TEMP = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/**
 * Removes the temp files an atomic write left behind when its process died between creating the
 * temp and renaming it (a kill -9, a power cut): 0-byte or partial files that no one will ever
 * rename. A temp whose writer is still alive (the CLI setting a password while the server starts)
 * is left alone. Answers the paths removed, relative to `dir`.
 */
export function removeStaleTemps(dir: string, depth = 3): string[] {
  const removed: string[] = [];
  const walk = (at: string, rel: string, left: number): void => {
    let entries;
    try {
      entries = readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(at, e.name);
      const shown = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (left > 0) walk(path, shown, left - 1);
        continue;
      }
      const m = TEMP.exec(e.name);
      if (!m || !e.isFile()) continue;
      const pid = Number(m[1]);
      if (pid !== process.pid && isAlive(pid)) continue;
      rmSync(path, { force: true });
      removed.push(shown);
    }
  };
  walk(dir, '', depth);
  return removed;
}
