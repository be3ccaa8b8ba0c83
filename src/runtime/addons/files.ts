import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { digestInput } from '../../core/addons/digest.js';
import { readAddonDir, readInstalled, type InstalledRead, type ReadFs } from '../../core/addons/installed.js';
import type { AddonFiles } from '../../core/addons/types.js';
import { readConfigFile } from '../fs/config-text.js';

/** The node file system as core/addons reads it: only regular files, each bounded (readConfigFile). */
export const nodeReadFs: ReadFs = {
  text: (path) => {
    const r = readConfigFile(path);
    return r.ok ? r.text : null;
  },
  names: (dir) => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  },
};

/**
 * The files Jig reads of an add-on directory (ADR 0020): the manifest, library.yaml,
 * profiles.yaml, chains/*.yaml and skills/<s>/SKILL.md. Names that are not identifiers are
 * skipped (they could not be referred to).
 */
export function readAddonFiles(dir: string): AddonFiles {
  return readAddonDir(nodeReadFs, dir);
}

/** What addons.yaml, addons.lock and the content store hold (core/addons/installed.ts). */
export function readInstalledAddons(configDir: string, addonsDir: string): InstalledRead {
  return readInstalled(nodeReadFs, configDir, addonsDir);
}

/** `sha256:<hex>` over what Jig reads of the add-on (core/addons/digest.ts). */
export function addonDigest(files: AddonFiles): string {
  return `sha256:${createHash('sha256').update(digestInput(files), 'utf8').digest('hex')}`;
}
