import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseManifest } from '../contract/package-manifest.js';

/** The installed package's root folder: two levels above this file (src/runtime or dist/runtime) in src/ and in dist/ alike. */
export const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

let read: { key: string; version: string } | null = null;

/**
 * The version of the package as it is on disk now (an update replaces it under a running server).
 * Health asks it at every probe: the file is read again only when its size or time changed.
 */
export function installedVersion(): string {
  const path = `${packageRoot}package.json`;
  try {
    const st = statSync(path, { bigint: true });
    const key = `${st.ino}:${st.size}:${st.mtimeNs}`;
    if (read?.key !== key)
      read = { key, version: parseManifest(readFileSync(path, 'utf8'))?.version ?? 'unknown' };
    return read.version;
  } catch {
    return 'unknown';
  }
}
