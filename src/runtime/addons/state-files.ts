import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { Document, isMap, parseDocument, YAMLMap } from 'yaml';
import { ADDON_MANIFEST_PATH, AddonsFile, type AddonsLock } from '../../contract/addons.js';
import { addonFileList } from '../../core/addons/digest.js';
import { parseAddonsFile, parseAddonsLock, versionDir } from '../../core/addons/installed.js';
import type { AddonFiles } from '../../core/addons/types.js';
import { readConfigText } from '../config/config-dir.js';
import type { ConfigFiles } from '../config/config-writer.js';
import { assign } from '../config/yaml-edit.js';

/*
 * The add-on state on disk (ADR 0020): `addons.yaml` (the operator's choices; comments kept when
 * it is written), `addons.lock` (the pins, JSON) and the content store. The two files are written
 * inside an operation of the home's config writer (`ConfigFiles`). Each write is atomic; the
 * lock is written last, so a crash mid-install leaves an entry addons.yaml names and the lock
 * does not pin — which loads as not installed — and never a pin without its files.
 */

export const ADDONS_FILE = 'addons.yaml';
export const ADDONS_LOCK = 'addons.lock';

const HEADER = `# Add-ons this instance uses: the collections they come from and the add-ons installed, by
# namespace. Written by \`jig admin addon …\` and the board; addons.lock pins what was fetched.
# Copy this file and addons.lock to another home to reproduce these add-ons there.
`;

export function readState(configDir: string): { file: AddonsFile; lock: AddonsLock } {
  const f = parseAddonsFile(readConfigText(configDir, ADDONS_FILE));
  const l = parseAddonsLock(readConfigText(configDir, ADDONS_LOCK));
  if (!f.ok) throw new Error(`${ADDONS_FILE} ${f.message}; fix it by hand first`);
  if (!l.ok) throw new Error(`${ADDONS_LOCK} ${l.message}; fix it by hand first`);
  return { file: f.file, lock: l.lock };
}

/** Writes addons.yaml as `next`, keeping the comments of what stays. */
export function writeAddonsFile(files: ConfigFiles, next: AddonsFile): void {
  const checked = AddonsFile.parse(next);
  const text = files.read(ADDONS_FILE);
  const doc = text === null ? new Document({}) : parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0 || (doc.contents !== null && !isMap(doc.contents)))
    throw new Error(`${ADDONS_FILE} is not a YAML mapping; fix it by hand first`);
  if (doc.contents === null) doc.contents = new YAMLMap();
  const map = doc.contents as YAMLMap;
  assign(doc, map, 'collections', checked.collections);
  assign(doc, map, 'addons', checked.addons);
  if (text === null)
    doc.commentBefore = HEADER.trimEnd()
      .split('\n')
      .map((l) => l.replace(/^#/, ''))
      .join('\n');
  files.write(ADDONS_FILE, doc.toString());
}

export function writeAddonsLock(files: ConfigFiles, lock: AddonsLock): void {
  files.write(ADDONS_LOCK, `${JSON.stringify(lock, null, 2)}\n`);
}

/**
 * Puts one version's files in the content store at `<addonsDir>/<namespace>/<hex>/`, written in a
 * temporary folder and renamed into place: a folder that exists is complete. An existing version is
 * left as it is (it is content-addressed: the same digest is the same files).
 */
export function storeVersion(
  addonsDir: string,
  namespace: string,
  digest: string,
  files: AddonFiles,
): string {
  const dir = versionDir(addonsDir, namespace, digest);
  if (existsSync(join(dir, ADDON_MANIFEST_PATH))) return dir;
  const tmp = `${dir}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    for (const f of addonFileList(files)) {
      const path = join(tmp, f.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, f.text, { mode: 0o644 });
    }
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  return dir;
}
