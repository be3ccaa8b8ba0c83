import { fileURLToPath } from 'node:url';

/**
 * A file of the installed package, by its path from the package root. This module sits two
 * levels below the root in src/, in dist/ and in the bundle (dist/bundle, scripts/bundle.mjs)
 * alike; a module deeper down would name a different folder once bundled, so the CLI's commands
 * ask here instead of resolving `../../../…` from where they are.
 */
export function packageFile(path: string): string {
  return fileURLToPath(new URL(`../../${path}`, import.meta.url));
}
