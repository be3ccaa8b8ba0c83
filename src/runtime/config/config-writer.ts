import { mkdirSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { readConfigFile } from '../fs/config-text.js';
import { badRelative, isInside } from '../fs/safe-read.js';
import { writeFileAtomic } from '../home/atomic-write.js';
import { SerialQueue } from '../serial.js';
import { ConfigJournal } from './config-journal.js';

/**
 * What one queued operation may do to the config dir, by file name relative to it
 * (`repos.yaml`, `chains/default.yaml`). Usable only while its operation runs: a write after the
 * operation ended would escape the queue, so it throws.
 */
export interface ConfigFiles {
  /** The file's text now, or null when it does not exist or is not a regular file. */
  read(file: string): string | null;
  /** Replaces the file atomically (temp file, fsync, rename), making its folder when needed. */
  write(file: string, text: string, mode?: number): void;
  /** Removes the file; a file already gone is no error. */
  remove(file: string): void;
  /**
   * Makes the writes so far stand. An operation cut short by a crash has all its writes put back at
   * the next start; one whose writes are followed by work elsewhere (a draft dropped from the store)
   * commits them first, so a crash in that work keeps them. Later writes start a new journal.
   */
  commit(): void;
}

/**
 * The one writer of a home's config files (issue 41): every service that writes a config file
 * (repos.yaml, access/theme/notify settings, policy.yaml, library and chain files, addons.yaml and
 * addons.lock, a draft's publish) is handed the same instance, built once in the composition root.
 *
 * It owns a serial queue: an operation (`run`) reads, checks and writes one file or a set while no
 * other operation of this home runs, so two saves of one file cannot interleave their
 * read-check-write and lose one, even when an operation awaits (a draft publish reads the store
 * between its stale check's read and its write). Operations must not call `run` themselves: the
 * inner one would wait behind the outer forever.
 *
 * It is also the one place a change spanning files becomes one unit: each operation keeps a
 * rollback journal (config-journal.ts, ADR 0031) of the files it replaces or removes, and a start
 * after a crash puts back every file of an operation cut short (`recoverConfig`) before the
 * config loads: a publish of forty files leaves all forty old or all forty new.
 *
 * Other processes are not serialised by it: `jig admin password` edits access.yaml itself
 * (client/local-access.ts), as a password must be settable while no server runs.
 */
export class ConfigWriter {
  private readonly queue = new SerialQueue();

  constructor(
    /** The config dir of the home; every path it writes stays inside it. */
    readonly configDir: string,
  ) {}

  /**
   * Runs `op` once every operation queued before it has ended (fulfilled or refused), and answers
   * what `op` answers. A refusal thrown by `op` reaches the caller and does not stop the queue.
   */
  run<T>(op: (files: ConfigFiles) => T | Promise<T>): Promise<T> {
    return this.queue.run(() => this.runNow(op));
  }

  private async runNow<T>(op: (files: ConfigFiles) => T | Promise<T>): Promise<T> {
    let open = true;
    const journal = new ConfigJournal(this.configDir);
    const live = (): void => {
      if (!open) throw new Error('a config write after its operation ended would escape the writer queue');
    };
    const files: ConfigFiles = {
      read: (file) => {
        const read = readConfigFile(this.pathOf(file));
        return read.ok ? read.text : null;
      },
      write: (file, text, mode) => {
        live();
        const path = this.pathOf(file);
        mkdirSync(dirname(path), { recursive: true });
        journal.before(file, path);
        writeFileAtomic(path, text, mode);
      },
      remove: (file) => {
        live();
        const path = this.pathOf(file);
        journal.before(file, path);
        rmSync(path, { force: true });
      },
      commit: () => {
        live();
        journal.commit();
      },
    };
    try {
      return await op(files);
    } finally {
      open = false;
      // A refusal after some writes keeps them, as it always did; only a crash rolls back.
      journal.commit();
    }
  }

  /** The absolute path of a config file, refused unless it is a relative path inside the config dir. */
  pathOf(file: string): string {
    const root = resolve(this.configDir);
    const path = resolve(root, file);
    const bad = badRelative(file);
    if (bad !== null || path === root || !isInside(root, path))
      throw new Error(`config file ${JSON.stringify(file)} ${bad ?? 'is not inside the config dir'}`);
    return path;
  }
}
