import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ADDON_MANIFEST_PATH } from '../../contract/addons.js';
import { digestInput } from '../../core/addons/digest.js';
import type { AddonFiles } from '../../core/addons/types.js';
import { readConfigFile } from '../fs/config-text.js';

const NAME = /^[a-z][a-z0-9_-]*$/;

const text = (file: string): string | null => {
  const r = readConfigFile(file);
  return r.ok ? r.text : null;
};

/**
 * The files Jig reads of an add-on directory (ADR 0020): the manifest, library.yaml,
 * profiles.yaml, chains/*.yaml and skills/<s>/SKILL.md. Names that are not identifiers are
 * skipped (they could not be referred to); the content checks say so.
 */
export function readAddonFiles(dir: string): AddonFiles {
  const chains: Record<string, string> = {};
  const chainsDir = join(dir, 'chains');
  if (existsSync(chainsDir))
    for (const f of readdirSync(chainsDir).sort()) {
      if (!f.endsWith('.yaml') || !NAME.test(f.slice(0, -5))) continue;
      const t = text(join(chainsDir, f));
      if (t !== null) chains[f.slice(0, -5)] = t;
    }
  const skills: Record<string, string> = {};
  const skillsDir = join(dir, 'skills');
  if (existsSync(skillsDir))
    for (const s of readdirSync(skillsDir).sort()) {
      if (!NAME.test(s)) continue;
      const t = text(join(skillsDir, s, 'SKILL.md'));
      if (t !== null) skills[s] = t;
    }
  return {
    manifest: text(join(dir, ADDON_MANIFEST_PATH)),
    library: text(join(dir, 'library.yaml')),
    profiles: text(join(dir, 'profiles.yaml')),
    chains,
    skills,
  };
}

/** `sha256:<hex>` over what Jig reads of the add-on (core/addons/digest.ts). */
export function addonDigest(files: AddonFiles): string {
  return `sha256:${createHash('sha256').update(digestInput(files), 'utf8').digest('hex')}`;
}
