import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AddonProblem } from '../../contract/addon-review.js';
import { AddonManifest, type AddonsFile, type AddonsLock } from '../../contract/addons.js';
import type { CollectionInfo, InstalledAddon } from '../../contract/addons-api.js';
import { versionDir } from '../../core/addons/installed.js';
import type { AddonSetLoad } from '../../core/addons/load.js';
import { storedSource, type CollectionSnapshot } from './sources.js';
import { own } from '../../core/json/own.js';

/** The answers of the add-on routes, built from the files and the loaded set. */

function manifestOf(text: string | null): AddonManifest | null {
  if (text === null) return null;
  try {
    const r = AddonManifest.safeParse(JSON.parse(text));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** One installed namespace as the running config loaded it. */
export function installedView(
  ns: string,
  file: AddonsFile,
  lock: AddonsLock,
  set: AddonSetLoad | null,
  addonsDir: string,
): InstalledAddon {
  const pin = own(lock.addons, ns)!;
  const entry = own(file.addons, ns);
  const load = own(set?.addons, ns);
  const present = existsSync(join(versionDir(addonsDir, ns, pin.digest), '.jig', 'addon.json'));
  const enabled = entry?.enabled ?? true;
  const prefix = `addons/${ns}/`;
  const problems: AddonProblem[] = (load?.problems ?? []).map((p) => ({
    file: p.file.startsWith(prefix) ? p.file.slice(prefix.length) : p.file,
    line: p.line,
    message: p.path ? `${p.path}${p.field ? ` ${p.field}` : ''}: ${p.message}` : p.message,
  }));
  const q = (names: readonly string[]) => names.map((n) => `${ns}:${n}`).sort();
  return {
    namespace: ns,
    addon: pin.addon,
    collection: pin.collection,
    version: pin.version,
    description: load?.manifest?.description ?? null,
    commit: pin.commit,
    digest: pin.digest,
    installed_at: pin.installed_at,
    enabled,
    auto_update: entry?.auto_update ?? false,
    state: !present ? 'missing' : problems.length > 0 ? 'problems' : !enabled ? 'disabled' : 'ok',
    problems,
    chains: q(Object.keys(load?.chains ?? {})),
    components: {
      nodes: q(load?.names.nodes ?? []),
      steps: q(load?.names.steps ?? []),
      tasks: q(load?.names.tasks ?? []),
      steering: q(load?.names.steering ?? []),
    },
    profiles: q(Object.keys(load?.profiles ?? {})),
    skills: q(load?.skills ?? []),
  };
}

/** A collection with the add-ons it lists and their versions, as its local copy has them. */
export async function collectionInfo(
  name: string,
  file: AddonsFile,
  lock: AddonsLock,
  snapshot: CollectionSnapshot | null,
  error: string | null,
): Promise<CollectionInfo> {
  const entry = own(file.collections, name)!;
  const addons: CollectionInfo['addons'] = [];
  for (const a of snapshot?.index.addons ?? []) {
    const files = await snapshot!.addonFiles(a.name).catch(() => null);
    addons.push({
      name: a.name,
      description: a.description ?? null,
      version: manifestOf(files?.manifest ?? null)?.version ?? null,
      installed_as: Object.entries(lock.addons)
        .filter(([, p]) => p.collection === name && p.addon === a.name)
        .map(([ns]) => ns)
        .sort(),
    });
  }
  return {
    name,
    description: snapshot?.index.description ?? null,
    source: entry.source,
    kind: storedSource(entry.source).kind,
    ref: entry.ref ?? null,
    auto_update: entry.auto_update,
    commit: own(lock.collections, name)?.commit ?? null,
    addons,
    error,
  };
}
