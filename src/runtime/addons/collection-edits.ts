import type { AddonsFile, AddonsLock } from '../../contract/addons.js';
import { JigError } from '../../contract/errors.js';
import { own } from '../../core/json/own.js';
import type { ConfigFiles } from '../config/config-writer.js';
import { unknownCollection } from './addon-errors.js';
import { sourceText, type CollectionSource } from './sources.js';
import { readState, writeAddonsFile, writeAddonsLock } from './state-files.js';

/*
 * What adding, changing and removing a collection does to addons.yaml and addons.lock: each runs
 * inside one operation of the home's config writer (AddonsService.edit), so the files it checks are
 * the files it writes over.
 */

export type AddonState = { file: AddonsFile; lock: AddonsLock };

/** addons.yaml and addons.lock as they are; files that do not load refuse the change (409). */
export function addonState(configDir: string): AddonState {
  try {
    return readState(configDir);
  } catch (err) {
    throw new JigError('config_refused', { files: err instanceof Error ? err.message : String(err) });
  }
}

/** Records a fetched collection under its index's name, pinned at the commit read. */
export function addCollectionTo(
  files: ConfigFiles,
  configDir: string,
  c: { name: string; source: CollectionSource; ref: string | undefined; commit: string | null },
): AddonState {
  const { file, lock } = addonState(configDir);
  const had = own(file.collections, c.name);
  if (had) throw new JigError('addon_collection_exists', { name: c.name, source: had.source });
  if (c.source.kind === 'dir' && c.ref)
    throw new JigError('addon_collection_unreadable', {
      source: sourceText(c.source),
      reason: '--ref needs a git source; a directory is read as it is',
    });
  const source = sourceText(c.source);
  writeAddonsFile(files, {
    ...file,
    collections: {
      ...file.collections,
      [c.name]: { source, ...(c.ref ? { ref: c.ref } : {}), auto_update: false },
    },
  });
  writeAddonsLock(files, {
    ...lock,
    collections: { ...lock.collections, [c.name]: { commit: c.commit } },
  });
  return addonState(configDir);
}

export function patchCollectionIn(
  files: ConfigFiles,
  configDir: string,
  name: string,
  autoUpdate: boolean,
): AddonState {
  const { file } = addonState(configDir);
  const entry = own(file.collections, name);
  if (!entry) throw unknownCollection(file, name);
  writeAddonsFile(files, {
    ...file,
    collections: { ...file.collections, [name]: { ...entry, auto_update: autoUpdate } },
  });
  return addonState(configDir);
}

/** Removes a collection no installed add-on comes from (else 409 naming them). */
export function removeCollectionFrom(files: ConfigFiles, configDir: string, name: string): void {
  const { file, lock } = addonState(configDir);
  if (!own(file.collections, name)) throw unknownCollection(file, name);
  const users = Object.entries(lock.addons)
    .filter(([, p]) => p.collection === name)
    .map(([ns]) => ns);
  if (users.length > 0) throw new JigError('addon_collection_in_use', { name, namespaces: users.join(', ') });
  const { [name]: _gone, ...collections } = file.collections;
  const { [name]: _pin, ...pins } = lock.collections;
  writeAddonsFile(files, { ...file, collections });
  writeAddonsLock(files, { ...lock, collections: pins });
}
