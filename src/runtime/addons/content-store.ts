import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { AddonsFile, AddonsLock } from '../../contract/addons.js';
import { versionDir } from '../../core/addons/installed.js';
import { own } from '../../core/json/own.js';
import { candidate, openCollection } from './candidate.js';
import { storeVersion } from './state-files.js';

/*
 * The content store `addons/<ns>/<digest>/` kept to what is pinned: versions no one names go, and
 * versions addons.lock pins that are missing (a home copied from another machine) come back.
 */

/**
 * Removes versions that neither addons.lock nor an open item (`open`: namespace → digests) pins: an
 * item keeps the version it started with until it ends (docs/addons.md).
 */
export function sweepVersions(addonsDir: string, lock: AddonsLock, open: Map<string, Set<string>>): void {
  if (!existsSync(addonsDir)) return;
  for (const ns of readdirSync(addonsDir)) {
    if (ns.startsWith('.')) continue;
    const dir = join(addonsDir, ns);
    const keep = new Set([...(open.get(ns) ?? [])].map((d) => d.replace(/^sha256:/, '')));
    const pin = own(lock.addons, ns);
    if (pin) keep.add(pin.digest.replace(/^sha256:/, ''));
    let left = 0;
    for (const v of readdirSync(dir)) {
      if (keep.has(v)) left++;
      else rmSync(join(dir, v), { recursive: true, force: true });
    }
    if (left === 0) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Fetches each version addons.lock pins that the store lacks, at its pinned commit, and keeps it
 * only when its content has the pinned digest. Answers how many came back.
 */
export async function restorePinned(
  d: { addonsDir: string; cacheDir: string; texts: Parameters<typeof candidate>[0]['texts']; log: Logger },
  file: AddonsFile,
  lock: AddonsLock,
): Promise<number> {
  let restored = 0;
  for (const [ns, pin] of Object.entries(lock.addons)) {
    if (existsSync(join(versionDir(d.addonsDir, ns, pin.digest), '.jig', 'addon.json'))) continue;
    try {
      const snapshot = await openCollection(file, pin.collection, {
        cacheDir: d.cacheDir,
        fetch: true,
        commit: pin.commit,
      });
      const c = await candidate({
        texts: d.texts,
        snapshot,
        collection: pin.collection,
        addon: pin.addon,
        namespace: ns,
        installed: null,
      });
      if (c.input.digest !== pin.digest) {
        d.log.warn(
          { namespace: ns, pinned: pin.digest, found: c.input.digest },
          'add-on at its pinned commit is not the pinned content; not restored',
        );
        continue;
      }
      storeVersion(d.addonsDir, ns, pin.digest, c.input.files);
      restored++;
    } catch (err) {
      d.log.warn({ err, namespace: ns }, 'add-on could not be restored');
    }
  }
  return restored;
}
