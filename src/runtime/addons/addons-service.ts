import { join } from 'node:path';
import type { Logger } from 'pino';
import type { AddonReview } from '../../contract/addon-review.js';
import { AddonManifest, type AddonsLock } from '../../contract/addons.js';
import type {
  AddonsAnswer,
  AutoUpdateAnswer,
  CollectionInfo,
  InstalledAddon,
  UpdatesAnswer,
} from '../../contract/addons-api.js';
import { JigError } from '../../contract/errors.js';
import type { ReviewSide } from '../../core/addons/review.js';
import { versionDir } from '../../core/addons/installed.js';
import { openAddonPins } from '../../store/work-items.js';
import type { Store } from '../../store/database.js';
import type { Clock } from '../clock.js';
import { readConfigDir } from '../config/config-dir.js';
import type { ConfigState } from '../config/config-state.js';
import type { ConfigFiles, ConfigWriter } from '../config/config-writer.js';
import { candidate, openCollection, pinOf, type Candidate } from './candidate.js';
import { collectionInfo, installedView } from './addon-view.js';
import { readAddonFiles } from './files.js';
import { describeUses, usesOf } from './in-use.js';
import { CollectionError, parseSource, readCollection, sourceText } from './sources.js';
import { storeVersion, writeAddonsFile, writeAddonsLock } from './state-files.js';
import { restorePinned, sweepVersions } from './content-store.js';
import { problemLine } from './addon-errors.js';
import {
  addCollectionTo,
  addonState,
  patchCollectionIn,
  removeCollectionFrom,
  type AddonState,
} from './collection-edits.js';
import { own } from '../../core/json/own.js';
import { SerialQueue } from '../serial.js';

export interface AddonsDeps {
  /** The home's config writer: addons.yaml and addons.lock are read, checked and written in its operations. */
  writer: ConfigWriter;
  addonsDir: string;
  config: ConfigState;
  store: Store;
  clock: Clock;
  log: Logger;
}

/** Auto-updates run at start and then this often. */
const AUTO_UPDATE_EVERY_MS = 24 * 60 * 60 * 1000;

/**
 * Add-ons: collections, the reviewed install and update, enable/disable, uninstall, auto-update,
 * and the content store kept to what the lock and open items pin (ADR 0020, docs/addons.md).
 * Changes run one at a time, each ending with a reload so the config model sees them at once; the
 * part of a change that reads and writes addons.yaml and addons.lock (not its fetch) is one
 * operation of the home's config writer.
 */
export class AddonsService {
  private readonly queue = new SerialQueue();
  private timer: NodeJS.Timeout | null = null;
  private readonly cacheDir: string;

  constructor(private readonly d: AddonsDeps) {
    this.cacheDir = join(d.addonsDir, '.collections');
  }

  private get configDir(): string {
    return this.d.writer.configDir;
  }

  /** Runs a read-check-write of the add-on files as one operation of the config writer. */
  private edit<T>(op: (files: ConfigFiles) => T | Promise<T>): Promise<T> {
    return this.d.writer.run(op);
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    return this.queue.run(fn);
  }

  private state(): AddonState {
    return addonState(this.configDir);
  }

  private texts() {
    return readConfigDir(this.configDir, this.d.addonsDir).texts;
  }

  private now(): string {
    return new Date(this.d.clock.now()).toISOString();
  }

  async list(): Promise<AddonsAnswer> {
    const { file, lock } = this.state();
    const set = this.d.config.addons;
    const addons = Object.keys(lock.addons)
      .sort()
      .map((ns) => installedView(ns, file, lock, set, this.d.addonsDir));
    const collections: CollectionInfo[] = [];
    for (const name of Object.keys(file.collections).sort()) {
      let snapshot = null;
      let error: string | null = null;
      try {
        snapshot = await openCollection(file, name, {
          cacheDir: this.cacheDir,
          fetch: false,
          commit: own(lock.collections, name)?.commit ?? null,
        });
      } catch (err) {
        error = err instanceof JigError ? err.message : String(err);
      }
      collections.push(await collectionInfo(name, file, lock, snapshot, error));
    }
    return { addons, collections };
  }

  addCollection(text: string, ref: string | undefined, cwd: string): Promise<CollectionInfo> {
    return this.serial(async () => {
      const parsed = parseSource(text, cwd);
      if (!parsed.ok)
        throw new JigError('addon_collection_unreadable', { source: text, reason: parsed.message });
      // Files that do not load are refused before the fetch; they are read again to be changed.
      this.state();
      let snapshot;
      try {
        snapshot = await readCollection(parsed.source, {
          cacheDir: this.cacheDir,
          ref: ref ?? null,
          fetch: true,
        });
      } catch (err) {
        if (err instanceof CollectionError)
          throw new JigError('addon_collection_unreadable', {
            source: sourceText(parsed.source),
            reason: err.message,
          });
        throw err;
      }
      const name = snapshot.index.name;
      const commit = snapshot.commit;
      const now = await this.edit((files) =>
        addCollectionTo(files, this.configDir, { name, source: parsed.source, ref, commit }),
      );
      return collectionInfo(name, now.file, now.lock, snapshot, null);
    });
  }

  patchCollection(name: string, autoUpdate: boolean): Promise<CollectionInfo> {
    return this.serial(async () => {
      const now = await this.edit((files) => patchCollectionIn(files, this.configDir, name, autoUpdate));
      const snapshot = await openCollection(now.file, name, {
        cacheDir: this.cacheDir,
        fetch: false,
        commit: own(now.lock.collections, name)?.commit ?? null,
      }).catch(() => null);
      return collectionInfo(name, now.file, now.lock, snapshot, null);
    });
  }

  removeCollection(name: string): Promise<void> {
    return this.serial(() => this.edit((files) => removeCollectionFrom(files, this.configDir, name)));
  }

  /** The installed version of a namespace as a review side, read from the content store. */
  private installedSide(lock: AddonsLock, ns: string): ReviewSide | null {
    const pin = own(lock.addons, ns);
    if (!pin) return null;
    const files = readAddonFiles(versionDir(this.d.addonsDir, ns, pin.digest));
    if (files.manifest === null) return null;
    const m = AddonManifest.safeParse(JSON.parse(files.manifest));
    return m.success ? { manifest: m.data, files, digest: pin.digest } : null;
  }

  private async installCandidate(b: {
    addon: string;
    collection: string;
    as?: string | undefined;
  }): Promise<Candidate> {
    const { file, lock } = this.state();
    const namespace = b.as ?? b.addon;
    const taken = own(lock.addons, namespace);
    if (taken)
      throw new JigError('addon_namespace_taken', {
        namespace,
        addon: taken.addon,
        collection: taken.collection,
      });
    const snapshot = await openCollection(file, b.collection, { cacheDir: this.cacheDir, fetch: true });
    return candidate({
      texts: this.texts(),
      snapshot,
      collection: b.collection,
      addon: b.addon,
      namespace,
      installed: null,
    });
  }

  reviewInstall(b: { addon: string; collection: string; as?: string | undefined }): Promise<AddonReview> {
    return this.serial(async () => (await this.installCandidate(b)).review);
  }

  install(b: {
    addon: string;
    collection: string;
    as?: string | undefined;
    review: string;
  }): Promise<InstalledAddon> {
    return this.serial(async () => {
      const c = await this.installCandidate(b);
      this.applicable(c, b.review);
      await this.edit((files) => {
        const { file, lock } = this.state();
        storeVersion(this.d.addonsDir, c.namespace, c.input.digest, c.input.files);
        writeAddonsFile(files, {
          ...file,
          addons: {
            ...file.addons,
            [c.namespace]: { addon: c.addon, collection: c.collection, enabled: true, auto_update: false },
          },
        });
        this.pin(files, lock, c);
        this.d.config.reload();
      });
      this.d.log.info({ namespace: c.namespace, version: c.review.to.version }, 'add-on installed');
      return this.view(c.namespace);
    });
  }

  /** Refuses a candidate that is not what was reviewed, or that cannot be installed here. */
  private applicable(c: Candidate, review: string): void {
    if (review !== c.review.review)
      throw new JigError('addon_review_stale', {
        addon: c.addon,
        reason: `review ${review.slice(0, 19)}… was read; the add-on has ${c.review.review.slice(0, 19)}… now`,
      });
    if (c.review.problems.length > 0)
      throw new JigError(
        'addon_invalid',
        {
          addon: c.addon,
          problems: c.review.problems.map(problemLine).join('; '),
        },
        { problems: c.review.problems },
      );
  }

  /** Writes the lock entry of a version now in the content store: the last write of an install. */
  private pin(files: ConfigFiles, lock: AddonsLock, c: Candidate): void {
    writeAddonsLock(files, {
      ...lock,
      collections: { ...lock.collections, [c.collection]: { commit: c.snapshot.commit } },
      addons: {
        ...lock.addons,
        [c.namespace]: {
          addon: c.addon,
          collection: c.collection,
          version: c.review.to.version,
          commit: c.snapshot.commit,
          digest: c.input.digest,
          installed_at: this.now(),
        },
      },
    });
  }

  private view(ns: string): InstalledAddon {
    const { file, lock } = this.state();
    return installedView(ns, file, lock, this.d.config.addons, this.d.addonsDir);
  }

  private async updateCandidate(ns: string, fetch: boolean): Promise<Candidate> {
    const { file, lock } = this.state();
    const pin = pinOf(lock, ns);
    const snapshot = await openCollection(file, pin.collection, { cacheDir: this.cacheDir, fetch });
    return candidate({
      texts: this.texts(),
      snapshot,
      collection: pin.collection,
      addon: pin.addon,
      namespace: ns,
      installed: this.installedSide(lock, ns),
    });
  }

  reviewUpdate(ns: string, fetch: boolean): Promise<AddonReview> {
    return this.serial(async () => (await this.updateCandidate(ns, fetch)).review);
  }

  applyUpdate(ns: string, review: string): Promise<InstalledAddon> {
    return this.serial(() => this.update(ns, review, true));
  }

  private async update(ns: string, review: string, fetch: boolean): Promise<InstalledAddon> {
    const c = await this.updateCandidate(ns, fetch);
    if (c.review.action === 'none')
      throw new JigError('addon_no_update', { namespace: ns, version: c.review.to.version });
    this.applicable(c, review);
    storeVersion(this.d.addonsDir, ns, c.input.digest, c.input.files);
    await this.edit((files) => {
      this.pin(files, this.state().lock, c);
      this.d.config.reload();
    });
    this.d.log.info(
      { namespace: ns, from: c.review.from?.version, to: c.review.to.version },
      'add-on updated',
    );
    await this.sweep();
    return this.view(ns);
  }

  checkUpdates(fetch: boolean): Promise<UpdatesAnswer> {
    return this.serial(async () => {
      const out: UpdatesAnswer = { updates: [], errors: [] };
      for (const c of await this.updateCandidates(fetch, out.errors)) {
        if (c.review.action !== 'update' && c.review.action !== 'downgrade') continue;
        out.updates.push({
          namespace: c.namespace,
          addon: c.addon,
          collection: c.collection,
          from: c.review.from?.version ?? 'unknown',
          to: c.review.to.version,
          action: c.review.action,
          reach_added: c.review.reach.added,
          reach_removed: c.review.reach.removed,
        });
      }
      return out;
    });
  }

  /** A candidate per installed add-on; a collection that cannot be read is one error, not a throw. */
  private async updateCandidates(
    fetch: boolean,
    errors: UpdatesAnswer['errors'],
    only?: (ns: string) => boolean,
  ) {
    const { lock } = this.state();
    const out: Candidate[] = [];
    const fetched = new Set<string>();
    const failed = new Set<string>();
    for (const [ns, pin] of Object.entries(lock.addons).sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (only && !only(ns)) continue;
      if (failed.has(pin.collection)) continue;
      try {
        out.push(await this.updateCandidate(ns, fetch && !fetched.has(pin.collection)));
        fetched.add(pin.collection);
      } catch (err) {
        if (!(err instanceof JigError)) throw err;
        failed.add(pin.collection);
        errors.push({ collection: pin.collection, message: err.message });
      }
    }
    return out;
  }

  /**
   * Applies the updates auto-update may: for an add-on with auto-update on (its own or its
   * collection's), an update that adds no reach and has no problem; a downgrade never.
   */
  autoUpdate(): Promise<AutoUpdateAnswer> {
    return this.serial(async () => {
      const { file, lock } = this.state();
      const on = (ns: string) => {
        const a = own(file.addons, ns);
        const pin = own(lock.addons, ns);
        return Boolean(a?.auto_update || (pin && own(file.collections, pin.collection)?.auto_update));
      };
      const out: AutoUpdateAnswer = { applied: [], skipped: [], errors: [] };
      for (const c of await this.updateCandidates(true, out.errors, on)) {
        const r = c.review;
        if (r.action === 'none') continue;
        const skip = (reason: string) =>
          out.skipped.push({ namespace: c.namespace, to: r.to.version, reason });
        if (r.action === 'downgrade')
          skip(`a downgrade (from ${r.from?.version}) is applied only by a person`);
        else if (r.reach.added.length > 0) skip(`it adds reach: ${r.reach.added.join('; ')}`);
        // A gate or a limit taken away changes what a person decides as much as one added.
        else if (r.reach.removed.length > 0) skip(`it removes reach: ${r.reach.removed.join('; ')}`);
        else if (r.problems[0]) skip(`it cannot be installed here: ${problemLine(r.problems[0])}`);
        else {
          await this.update(c.namespace, r.review, false);
          out.applied.push({ namespace: c.namespace, from: r.from?.version ?? 'unknown', to: r.to.version });
        }
      }
      if (out.applied.length || out.skipped.length) this.d.log.info(out, 'add-on auto-update');
      return out;
    });
  }

  patch(
    ns: string,
    b: { enabled?: boolean | undefined; auto_update?: boolean | undefined },
  ): Promise<InstalledAddon> {
    return this.serial(async () => {
      await this.edit((files) => {
        const { file, lock } = this.state();
        const pin = pinOf(lock, ns);
        const entry = own(file.addons, ns) ?? {
          addon: pin.addon,
          collection: pin.collection,
          enabled: true,
          auto_update: false,
        };
        if (b.enabled === false && entry.enabled) this.refuseInUse(ns);
        writeAddonsFile(files, {
          ...file,
          addons: {
            ...file.addons,
            [ns]: {
              ...entry,
              ...(b.enabled === undefined ? {} : { enabled: b.enabled }),
              ...(b.auto_update === undefined ? {} : { auto_update: b.auto_update }),
            },
          },
        });
        this.d.config.reload();
      });
      return this.view(ns);
    });
  }

  uninstall(ns: string): Promise<void> {
    return this.serial(async () => {
      await this.edit((files) => {
        const { file, lock } = this.state();
        pinOf(lock, ns);
        this.refuseInUse(ns);
        const { [ns]: _pin, ...addons } = lock.addons;
        const { [ns]: _entry, ...entries } = file.addons;
        // The lock first: a crash between the two leaves an entry the lock does not pin, which is not installed.
        writeAddonsLock(files, { ...lock, addons });
        writeAddonsFile(files, { ...file, addons: entries });
        this.d.config.reload();
      });
      this.d.log.info({ namespace: ns }, 'add-on uninstalled');
      await this.sweep();
    });
  }

  private refuseInUse(ns: string): void {
    const uses = usesOf(this.texts(), ns);
    if (uses.length > 0)
      throw new JigError('addon_in_use', { namespace: ns, uses: describeUses(uses) }, { uses });
  }

  /**
   * Removes versions from the content store that neither addons.lock nor an open item pins: an
   * item keeps the version it started with until it ends (docs/addons.md).
   */
  async sweep(): Promise<void> {
    sweepVersions(this.d.addonsDir, this.state().lock, await openAddonPins(this.d.store.db));
  }

  /**
   * At start: versions addons.lock pins that the content store lacks (a home copied from another
   * machine) are fetched at their pinned commit and checked against their digest; versions no one
   * names any more (their items ended since the last change) are removed; then auto-update. The
   * last two again once a day.
   */
  start(): void {
    const fail = (err: unknown) => this.d.log.warn({ err }, 'add-ons: restoring or auto-updating failed');
    const tidy = async () => {
      await this.serial(() => this.sweep());
      await this.autoUpdate();
    };
    this.serial(() => this.restore())
      .then(tidy)
      .catch(fail);
    this.timer = setInterval(() => void tidy().catch(fail), AUTO_UPDATE_EVERY_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.queue.idle();
  }

  private async restore(): Promise<void> {
    const { file, lock } = this.state();
    const restored = await restorePinned(
      { addonsDir: this.d.addonsDir, cacheDir: this.cacheDir, texts: this.texts(), log: this.d.log },
      file,
      lock,
    );
    if (restored > 0) {
      this.d.config.reload();
      this.d.log.info({ restored }, 'add-ons restored from addons.lock');
    }
  }
}
