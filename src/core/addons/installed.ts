import { parse as parseYaml } from 'yaml';
import { ADDON_MANIFEST_PATH, AddonsFile, AddonsLock } from '../../contract/addons.js';
import type { AddonInput } from './load.js';
import type { AddonFiles } from './types.js';

/*
 * What this instance installed (ADR 0020): `config/addons.yaml` (the operator's choices),
 * `config/addons.lock` (the pins) and the content store `$JIG_HOME/addons/<namespace>/<hex>/`.
 * Pure over a small file-reading interface, so the server and the CLI's offline checks
 * (`jig templates lint`) read the same add-ons the same way.
 */

/** Reads text files and folder names; null / [] for what does not exist. Paths join with `/`. */
export interface ReadFs {
  text(path: string): string | null;
  names(dir: string): string[];
}

const NAME = /^[a-z][a-z0-9_-]*$/;

/** The files Jig reads of an add-on directory; names that are not identifiers are left out. */
export function readAddonDir(fs: ReadFs, dir: string): AddonFiles {
  const chains: Record<string, string> = {};
  for (const f of fs.names(`${dir}/chains`).sort()) {
    if (!f.endsWith('.yaml') || !NAME.test(f.slice(0, -5))) continue;
    const t = fs.text(`${dir}/chains/${f}`);
    if (t !== null) chains[f.slice(0, -5)] = t;
  }
  const skills: Record<string, string> = {};
  for (const s of fs.names(`${dir}/skills`).sort()) {
    if (!NAME.test(s)) continue;
    const t = fs.text(`${dir}/skills/${s}/SKILL.md`);
    if (t !== null) skills[s] = t;
  }
  return {
    manifest: fs.text(`${dir}/${ADDON_MANIFEST_PATH}`),
    library: fs.text(`${dir}/library.yaml`),
    profiles: fs.text(`${dir}/profiles.yaml`),
    chains,
    skills,
  };
}

/** The folder of one installed version: `<addonsDir>/<namespace>/<hex of the digest>`. */
export function versionDir(addonsDir: string, namespace: string, digest: string): string {
  return `${addonsDir}/${namespace}/${digest.replace(/^sha256:/, '')}`;
}

export interface InstalledRead {
  file: AddonsFile;
  lock: AddonsLock;
  inputs: AddonInput[];
  /** Why a file or an installed version could not be read (the server fetches a missing version again). */
  problems: { file: string; message: string }[];
  /** Namespaces pinned in addons.lock whose folder is missing from the content store. */
  missing: string[];
}

export const EMPTY_FILE: AddonsFile = { collections: {}, addons: {} };
export const EMPTY_LOCK: AddonsLock = { lock_version: 1, collections: {}, addons: {} };

/** addons.yaml's text as its model, or why not. A missing file is an empty one. */
export function parseAddonsFile(
  text: string | null,
): { ok: true; file: AddonsFile } | { ok: false; message: string } {
  if (text === null) return { ok: true, file: EMPTY_FILE };
  let data: unknown;
  try {
    data = parseYaml(text) ?? {};
  } catch (e) {
    return { ok: false, message: `is not YAML: ${(e as Error).message.split('\n')[0]}` };
  }
  const r = AddonsFile.safeParse(data);
  if (r.success) return { ok: true, file: r.data };
  const i = r.error.issues[0]!;
  return { ok: false, message: `\`${i.path.map(String).join('.')}\`: ${i.message}` };
}

/** addons.lock's text as its model, or why not. A missing file is an empty one. */
export function parseAddonsLock(
  text: string | null,
): { ok: true; lock: AddonsLock } | { ok: false; message: string } {
  if (text === null) return { ok: true, lock: EMPTY_LOCK };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `is not JSON: ${(e as Error).message}` };
  }
  const r = AddonsLock.safeParse(data);
  if (r.success) return { ok: true, lock: r.data };
  const i = r.error.issues[0]!;
  return { ok: false, message: `\`${i.path.map(String).join('.')}\`: ${i.message}` };
}

/**
 * Every add-on addons.lock pins, with its files from the content store and whether addons.yaml
 * has it enabled. A namespace in addons.yaml that the lock does not pin is not installed (an
 * install writes the lock last), and a pinned folder that is missing is listed, not loaded.
 */
export function readInstalled(fs: ReadFs, configDir: string, addonsDir: string): InstalledRead {
  const problems: InstalledRead['problems'] = [];
  const f = parseAddonsFile(fs.text(`${configDir}/addons.yaml`));
  const l = parseAddonsLock(fs.text(`${configDir}/addons.lock`));
  if (!f.ok) problems.push({ file: 'addons.yaml', message: f.message });
  if (!l.ok) problems.push({ file: 'addons.lock', message: l.message });
  const file = f.ok ? f.file : EMPTY_FILE;
  const lock = l.ok ? l.lock : EMPTY_LOCK;
  const inputs: AddonInput[] = [];
  const missing: string[] = [];
  for (const [ns, pin] of Object.entries(lock.addons).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const dir = versionDir(addonsDir, ns, pin.digest);
    const files = readAddonDir(fs, dir);
    if (files.manifest === null) {
      missing.push(ns);
      continue;
    }
    inputs.push({ namespace: ns, digest: pin.digest, files, enabled: file.addons[ns]?.enabled ?? true });
  }
  return { file, lock, inputs, problems, missing };
}
