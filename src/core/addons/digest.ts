import { ADDON_MANIFEST_PATH } from '../../contract/addons.js';
import type { AddonFiles } from './types.js';

/** Each file Jig reads of an add-on, by its path in the add-on's directory, in a fixed order. */
export function addonFileList(files: AddonFiles): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  if (files.manifest !== null) out.push({ path: ADDON_MANIFEST_PATH, text: files.manifest });
  if (files.library !== null) out.push({ path: 'library.yaml', text: files.library });
  if (files.profiles !== null) out.push({ path: 'profiles.yaml', text: files.profiles });
  for (const id of Object.keys(files.chains).sort())
    out.push({ path: `chains/${id}.yaml`, text: files.chains[id]! });
  for (const s of Object.keys(files.skills).sort())
    out.push({ path: `skills/${s}/SKILL.md`, text: files.skills[s]! });
  return out;
}

/**
 * What the content digest is taken over (ADR 0020): each file as `<path>\0<length>\0<text>`, so a
 * README change is no update and two different splits of the same bytes never collide. The
 * length is in UTF-8 bytes, as the text is hashed; the caller hashes it (sha256) where hashing is
 * at hand.
 */
export function digestInput(files: AddonFiles): string {
  const utf8 = new TextEncoder();
  return addonFileList(files)
    .map((f) => `${f.path}\0${utf8.encode(f.text).length}\0${f.text}`)
    .join('');
}
