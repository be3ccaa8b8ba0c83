import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { validateConfigSet, type ConfigSet, type ConfigTexts } from '../../core/config/validate-set.js';
import { readConfigFile } from '../fs/config-text.js';
import { installedVersion } from '../package-root.js';
import { readInstalledAddons } from '../addons/files.js';
import { HarnessCatalog } from '../harness/catalog.js';

/** The files a reload reads: what runs (library, chains, policy, intake) and what it checks (harnesses, repos). */
export const RELOADED_FILES = ['library.yaml', 'policy.yaml', 'intake.yaml'] as const;
export const READ_WHEN_NEEDED_FILES = ['harnesses.yaml', 'repos.yaml'] as const;

export function chainIdsOnDisk(configDir: string): string[] {
  const dir = join(configDir, 'chains');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length))
    .sort();
}

/**
 * A config file's text, or null when it does not exist or cannot be read (a FIFO or a device in
 * its place included: readConfigFile never waits on one).
 */
export function readConfigText(configDir: string, file: string): string | null {
  const read = readConfigFile(join(configDir, file));
  return read.ok ? read.text : null;
}

/** sha256 hex digest of a file's text; null for a file that does not exist. */
export function sha256Text(text: string | null): string | null {
  return text === null ? null : createHash('sha256').update(text, 'utf8').digest('hex');
}

export interface ConfigDirRead {
  texts: ConfigTexts;
  /** File name (`library.yaml`, `chains/default.yaml`, ...) → sha256 of the text read, null if missing. */
  hashes: Map<string, string | null>;
}

/**
 * Reads the files a reload validates as one set: library, every chain, harnesses, policy, repos
 * and intake (access.yaml and theme.yaml are read by their own owners).
 */
export function readConfigDir(configDir: string, addonsDir: string | null): ConfigDirRead {
  const hashes = new Map<string, string | null>();
  const read = (file: string): string | null => {
    const text = readConfigText(configDir, file);
    hashes.set(file, sha256Text(text));
    return text;
  };
  const chains: Record<string, string> = {};
  for (const id of chainIdsOnDisk(configDir)) {
    const text = read(`chains/${id}.yaml`);
    if (text !== null) chains[id] = text;
  }
  return {
    texts: {
      library: read('library.yaml'),
      chains,
      harnesses: read('harnesses.yaml'),
      policy: read('policy.yaml'),
      repos: read('repos.yaml'),
      intake: read('intake.yaml'),
      addons: addonsDir === null ? null : installedAddons(configDir, addonsDir),
      unmetered: unmeteredProviders(configDir),
    },
    hashes,
  };
}

/**
 * One digest of everything a read holds (each file's hash, the installed add-ons whole): two reads
 * with the same digest validate to the same set.
 */
function readDigest(read: ConfigDirRead): string {
  const files = [...read.hashes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const { addons, unmetered } = read.texts;
  return sha256Text(JSON.stringify({ files, addons: addons ?? null, unmetered: unmetered ?? null })) ?? '';
}

/**
 * The last config set validated, kept by the digest of the files it came from: routes that read the
 * whole published set on every request (templates, settings drafts) validate it again only when a
 * file changed (issue 43). The set is shared between requests, so its readers never change it.
 */
export class LastValidated {
  private last: { digest: string; set: ConfigSet } | null = null;

  of(read: ConfigDirRead): ConfigSet {
    const digest = readDigest(read);
    if (this.last?.digest !== digest) this.last = { digest, set: validateConfigSet(read.texts) };
    return this.last.set;
  }
}

/** sha256 of each file now on disk, for the files named plus every chain file. */
export function hashesOnDisk(configDir: string, files: readonly string[]): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const f of files) out.set(f, sha256Text(readConfigText(configDir, f)));
  for (const id of chainIdsOnDisk(configDir)) {
    const f = `chains/${id}.yaml`;
    out.set(f, sha256Text(readConfigText(configDir, f)));
  }
  return out;
}

/** The add-ons addons.lock pins, read from the content store, for the config set (docs/addons.md). */
function installedAddons(configDir: string, addonsDir: string): NonNullable<ConfigTexts['addons']> {
  const read = readInstalledAddons(configDir, addonsDir);
  return { version: installedVersion(), installed: read.inputs };
}

/** One catalog per config folder: it re-reads the definitions only when config/harnesses/ changes. */
const catalogs = new Map<string, HarnessCatalog>();

/** The providers whose CLI tells no usage, for the dollar-cap check of the config set. */
function unmeteredProviders(configDir: string): string[] {
  let catalog = catalogs.get(configDir);
  if (!catalog) catalogs.set(configDir, (catalog = new HarnessCatalog(configDir)));
  const defs = Object.values(catalog.providers().providers);
  return defs.filter((d) => d.usage_reported === 'none').map((d) => d.id);
}
