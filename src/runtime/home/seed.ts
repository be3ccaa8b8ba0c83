import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { writeFileAtomic } from './atomic-write.js';
import { join, relative } from 'node:path';
import { packageRoot } from '../package-root.js';

export const defaultsConfigDir = join(packageRoot, 'defaults', 'config');
const packagedSchemasDir = join(packageRoot, 'schemas');

/**
 * Writes the JSON Schemas of the config files into `<config>/.schemas/`, where the seeded files'
 * `# yaml-language-server: $schema=…` comments point, so an editor completes and checks them.
 * These are Jig's own files, rewritten at every start so they match the running version.
 */
export function writeSchemas(configDir: string): void {
  const dir = join(configDir, '.schemas');
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(packagedSchemasDir)) {
    if (!name.endsWith('.schema.json')) continue;
    const text = readFileSync(join(packagedSchemasDir, name));
    const dest = join(dir, name);
    if (existsSync(dest) && readFileSync(dest).equals(text)) continue;
    // Derived from the package at every start: a crash that loses it costs nothing.
    writeFileAtomic(dest, text, 0o644, { durable: false });
  }
}

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
