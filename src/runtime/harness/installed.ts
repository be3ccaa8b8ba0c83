import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** Where a command resolves on this machine (PATH search, or the path itself), or null. */
export function resolveExecutable(command: string, path = process.env.PATH ?? ''): string | null {
  const usable = (p: string): boolean => {
    try {
      accessSync(p, constants.X_OK);
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (isAbsolute(command) || command.includes('/')) return usable(command) ? command : null;
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, command);
    if (usable(p)) return p;
  }
  return null;
}

const versions = new Map<string, { key: string; version: string | null }>();

/**
 * The CLI's own `--version` answer (first line), cached while the executable file is unchanged.
 * Null when it has none within 5 s: an unknown version, not an error.
 */
export async function executableVersion(path: string): Promise<string | null> {
  let key: string;
  try {
    const st = statSync(path);
    key = `${st.mtimeMs}:${st.size}`;
  } catch {
    return null;
  }
  const hit = versions.get(path);
  if (hit?.key === key) return hit.version;
  const version = await new Promise<string | null>((resolve) => {
    execFile(path, ['--version'], { timeout: 5_000, maxBuffer: 64 * 1024 }, (err, stdout) => {
      const line = stdout
        .toString()
        .split('\n')
        .find((l) => l.trim() !== '');
      resolve(err || !line ? null : line.trim().slice(0, 200));
    });
  });
  versions.set(path, { key, version });
  return version;
}
