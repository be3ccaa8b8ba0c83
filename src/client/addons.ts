import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AddonProblem, AddonReview } from '../contract/addon-review.js';
import { COLLECTION_INDEX_PATH, CollectionIndex } from '../contract/addons.js';
import type {
  AddonsAnswer,
  AutoUpdateAnswer,
  CollectionInfo,
  InstalledAddon,
  UpdatesAnswer,
} from '../contract/addons-api.js';
import { parseManifest } from '../contract/package-manifest.js';
import {
  addCollection as addRoute,
  applyUpdate as applyRoute,
  autoUpdate as autoRoute,
  checkUpdates as updatesRoute,
  installAddon as installRoute,
  listAddons as listRoute,
  patchAddon as patchRoute,
  patchCollection as patchCollectionRoute,
  removeCollection as removeCollectionRoute,
  reviewInstall as reviewRoute,
  reviewUpdate as reviewUpdateRoute,
  uninstallAddon as uninstallRoute,
} from '../contract/routes/addons.js';
import { digestInput } from '../core/addons/digest.js';
import { readAddonDir, type ReadFs } from '../core/addons/installed.js';
import { loadAddonSet } from '../core/addons/load.js';
import type { AddonFiles, InstanceFacts } from '../core/addons/types.js';
import { loadHarnesses } from '../core/config/load-settings.js';
import type { JigClient } from './http.js';

/*
 * Add-ons from the CLI (docs/adr/0020-addons.md): `validate` reads an add-on directory (or a
 * collection of them) and runs the install checks on this machine, with no server; every other
 * verb is a call of the /api/addons routes.
 */

/** A collection's files are text a person reads in the review (the server's limit too). */
const MAX_FILE_BYTES = 1024 * 1024;

/**
 * The node file system as core/addons reads an add-on: only regular files, each at most 1 MiB (a
 * FIFO or a device where a file should be is skipped, as the server skips it).
 */
export const addonReadFs: ReadFs = {
  text: (path) => {
    try {
      const st = statSync(path);
      if (!st.isFile() || st.size > MAX_FILE_BYTES) return null;
      return readFileSync(path, 'utf8');
    } catch {
      return null;
    }
  },
  names: (dir) => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  },
};

/** `sha256:<hex>` over what Jig reads of the add-on: the digest addons.lock pins for it. */
export function addonDigest(files: AddonFiles): string {
  return `sha256:${createHash('sha256').update(digestInput(files), 'utf8').digest('hex')}`;
}

/** This CLI's own version: what `requires.jig` is checked against. */
export function cliVersion(): string {
  try {
    return (
      parseManifest(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))?.version ?? '0.0.0'
    );
  } catch {
    return '0.0.0';
  }
}

/**
 * What this machine's Jig home offers an add-on's `requires`: the CLI's version and the harnesses
 * and profiles of `harnesses.yaml`; null when there is no home (no readable harnesses.yaml), so the
 * instance checks are listed as skipped. A harnesses.yaml that does not load leaves its names unknown.
 */
export function instanceFacts(configDir: string): InstanceFacts | null {
  const text = addonReadFs.text(join(configDir, 'harnesses.yaml'));
  if (text === null) return null;
  const h = loadHarnesses(text);
  return {
    version: cliVersion(),
    harnesses: h.model ? Object.keys(h.model.harnesses) : null,
    profiles: h.model ? Object.keys(h.model.profiles) : null,
  };
}

/** One add-on as `validate` found it; `problems` empty means it can be installed. */
export interface ValidatedAddon {
  /** The add-on's directory. */
  dir: string;
  /** The manifest's name (else the directory's or the collection entry's). */
  name: string;
  version: string | null;
  digest: string;
  /** Files are named relative to the directory validated. */
  problems: AddonProblem[];
  /** Instance checks not made. */
  skipped: string[];
}

export interface ValidateReport {
  dir: string;
  kind: 'addon' | 'collection';
  /** The config dir whose harnesses.yaml `requires` was checked against; null: none. */
  checked_against: string | null;
  /** Problems of the collection itself (its collection.json). */
  problems: AddonProblem[];
  addons: ValidatedAddon[];
}

/** A problem of the core loader as the review shows it (runtime/addons/candidate.ts does the same). */
const shown = (p: {
  file: string;
  line: number | null;
  path: string;
  field: string | null;
  message: string;
}) => ({
  file: p.file,
  line: p.line,
  message: p.path ? `${p.path}${p.field ? ` ${p.field}` : ''}: ${p.message}` : p.message,
});

/** Every install check of one add-on directory; files are named with `prefix` before them. */
function validateOne(
  dir: string,
  fallbackName: string,
  facts: InstanceFacts | null,
  prefix: string,
  listedAs: string | null,
): ValidatedAddon {
  const files = readAddonDir(addonReadFs, dir);
  const digest = addonDigest(files);
  let manifestName: string | null = null;
  try {
    const raw = files.manifest === null ? null : (JSON.parse(files.manifest) as { name?: unknown });
    if (typeof raw?.name === 'string' && /^[a-z][a-z0-9_-]*$/.test(raw.name)) manifestName = raw.name;
  } catch {
    manifestName = null;
  }
  const namespace = manifestName ?? fallbackName;
  const set = loadAddonSet([{ namespace, digest, files, enabled: true }], facts, () => prefix);
  const load = set.addons[namespace];
  if (!load) throw new Error(`the add-on in ${dir} did not load`);
  const problems = load.problems.map(shown);
  if (listedAs !== null && load.manifest && load.manifest.name !== listedAs)
    problems.unshift({
      file: `${prefix}.jig/addon.json`,
      line: null,
      message: `\`name\` is \`${load.manifest.name}\`, and collection.json lists it as \`${listedAs}\`: they must be equal`,
    });
  return {
    dir,
    name: load.manifest?.name ?? namespace,
    version: load.manifest?.version ?? null,
    digest,
    problems,
    skipped: load.skipped,
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function basename(dir: string): string {
  return dir.replace(/\/+$/, '').split('/').pop() ?? dir;
}

/**
 * `jig admin addon validate DIR`: the checks an install makes, without a server. DIR is an add-on
 * directory, or a collection root (it has .jig/collection.json), whose every add-on is checked.
 * `configDir` is the home's config dir; without a readable harnesses.yaml there the checks against
 * the instance are skipped and listed.
 */
export function validateAddons(dir: string, configDir: string): ValidateReport {
  const facts = instanceFacts(configDir);
  const base: Omit<ValidateReport, 'kind' | 'addons'> = {
    dir,
    checked_against: facts === null ? null : configDir,
    problems: [],
  };
  const indexText = addonReadFs.text(join(dir, COLLECTION_INDEX_PATH));
  const isCollection = indexText !== null || addonReadFs.names(join(dir, '.jig')).includes('collection.json');
  if (!isCollection)
    return { ...base, kind: 'addon', addons: [validateOne(dir, basename(dir), facts, '', null)] };

  const file = COLLECTION_INDEX_PATH;
  if (indexText === null)
    return {
      ...base,
      kind: 'collection',
      problems: [{ file, line: null, message: 'is not a regular file of at most 1 MiB' }],
      addons: [],
    };
  let data: unknown;
  try {
    data = JSON.parse(indexText);
  } catch (e) {
    return {
      ...base,
      kind: 'collection',
      problems: [{ file, line: null, message: `is not JSON: ${(e as Error).message}` }],
      addons: [],
    };
  }
  const index = CollectionIndex.safeParse(data);
  if (!index.success)
    return {
      ...base,
      kind: 'collection',
      problems: index.error.issues.map((i) => {
        const path = i.path.map(String).join('.');
        return { file, line: null, message: `${path === '' ? 'collection' : `\`${path}\``}: ${i.message}` };
      }),
      addons: [],
    };
  const addons: ValidatedAddon[] = [];
  const problems: AddonProblem[] = [];
  for (const entry of index.data.addons) {
    const rel = entry.source.replace(/^\.\//, '');
    const addonDir = join(dir, rel);
    if (!isDirectory(addonDir)) {
      problems.push({
        file,
        line: null,
        message: `lists ${entry.name} at ${entry.source}, which is not a directory`,
      });
      continue;
    }
    addons.push(validateOne(addonDir, entry.name, facts, `${rel}/`, entry.name));
  }
  return { ...base, kind: 'collection', problems, addons };
}

// The /api/addons routes (docs/addons.md), one function each, shared by the CLI verbs and doctor.

export const listAddons = (c: JigClient): Promise<AddonsAnswer> => c.call(listRoute);

export const addCollection = (c: JigClient, source: string, ref?: string): Promise<CollectionInfo> =>
  c.call(addRoute, { body: { source, ...(ref ? { ref } : {}) } });

export const setCollectionAutoUpdate = (c: JigClient, name: string, on: boolean): Promise<CollectionInfo> =>
  c.call(patchCollectionRoute, { params: { name }, body: { auto_update: on } });

export const removeCollection = async (c: JigClient, name: string): Promise<void> => {
  await c.call(removeCollectionRoute, { params: { name } });
};

export const reviewInstall = (
  c: JigClient,
  b: { addon: string; collection: string; as?: string },
): Promise<AddonReview> => c.call(reviewRoute, { body: b });

export const installAddon = (
  c: JigClient,
  b: { addon: string; collection: string; as?: string; review: string },
): Promise<InstalledAddon> => c.call(installRoute, { body: b });

export const checkUpdates = (c: JigClient, fetch = true): Promise<UpdatesAnswer> =>
  c.call(updatesRoute, { query: { fetch: fetch ? '1' : '0' } });

export const reviewUpdate = (c: JigClient, namespace: string, fetch = true): Promise<AddonReview> =>
  c.call(reviewUpdateRoute, { params: { namespace }, query: { fetch: fetch ? '1' : '0' } });

export const applyUpdate = (c: JigClient, namespace: string, review: string): Promise<InstalledAddon> =>
  c.call(applyRoute, { params: { namespace }, body: { review } });

export const runAutoUpdate = (c: JigClient): Promise<AutoUpdateAnswer> => c.call(autoRoute);

export const patchAddon = (
  c: JigClient,
  namespace: string,
  b: { enabled?: boolean; auto_update?: boolean },
): Promise<InstalledAddon> => c.call(patchRoute, { params: { namespace }, body: b });

export const uninstallAddon = async (c: JigClient, namespace: string): Promise<void> => {
  await c.call(uninstallRoute, { params: { namespace } });
};
