import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseManifest } from '../contract/package-manifest.js';

/** The installed package's root folder: two levels above this file (src/runtime or dist/runtime) in src/ and in dist/ alike. */
export const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The version of the package as it is on disk now (an update replaces it under a running server). */
export function installedVersion(): string {
  try {
    return parseManifest(readFileSync(`${packageRoot}package.json`, 'utf8'))?.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
