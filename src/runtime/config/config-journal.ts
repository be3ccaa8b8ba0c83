import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { syncDir } from '../home/atomic-write.js';

/** The folder of the config dir the journal and the old files live in while a change runs. */
export const JOURNAL_DIR = '.journal';
const JOURNAL_FILE = 'journal';

/** What a start found of a change a crash cut short, and put back. */
export interface Recovered {
  /** The files put back as they were before the change, in the config dir's terms. */
  restored: string[];
}

interface Entry {
  file: string;
  /** The old file's name in the journal folder; null when the file did not exist. */
  old: string | null;
}

function isEntry(v: unknown): v is Entry {
  if (typeof v !== 'object' || v === null || !('file' in v) || !('old' in v)) return false;
  return typeof v.file === 'string' && (v.old === null || typeof v.old === 'string');
}

/**
 * A rollback journal for one operation of the config writer (ADR 0031): before the first write of
 * a file, its old version is kept in `.journal/` (a hard link, so nothing is copied) and a line
 * naming it is appended to the journal and synced; only then is the new text renamed in. The
 * operation's end removes the journal, which is the moment the change counts as made, then the old
 * versions. A crash in between leaves the journal: the next start puts every file it names back
 * (`recover`) before the config loads, so a change of forty files is all there or not at all.
 */
export class ConfigJournal {
  private readonly dir: string;
  private fd: number | null = null;
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly configDir: string) {
    this.dir = join(configDir, JOURNAL_DIR);
  }

  /** Called before `path` (`file` in the config dir) is replaced or removed, once per file. */
  before(file: string, path: string): void {
    if (this.entries.has(file)) return;
    if (this.fd === null) {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      this.fd = openSync(join(this.dir, JOURNAL_FILE), 'wx', 0o600);
    }
    const name = `${this.entries.size}.old`;
    const kept = join(this.dir, name);
    let old: string | null = name;
    try {
      linkSync(path, kept);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') old = null;
      // Another filesystem (a config dir mounted from elsewhere) or no hard links: a copy.
      else if (code === 'EXDEV' || code === 'EPERM' || code === 'ENOTSUP') copyFileSync(path, kept);
      else throw err;
    }
    const entry: Entry = { file, old };
    this.entries.set(file, entry);
    writeSync(this.fd, `${JSON.stringify(entry)}\n`);
    // The line and the old file reach the disk before the new text is renamed over the file.
    fsyncSync(this.fd);
    if (this.entries.size === 1) syncDir(this.dir);
  }

  /** The operation ended: its changes stand. */
  commit(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
    rmSync(join(this.dir, JOURNAL_FILE), { force: true });
    syncDir(this.dir);
    rmSync(this.dir, { recursive: true, force: true });
    this.entries.clear();
  }
}

/**
 * Puts back what an operation cut short by a crash had changed (newest first), and clears the
 * journal folder. Null when there was nothing to put back. A journal line cut short by the crash
 * names a file that was not replaced yet: it is skipped.
 */
export function recoverConfig(configDir: string): Recovered | null {
  const dir = join(configDir, JOURNAL_DIR);
  if (!existsSync(dir)) return null;
  let text = '';
  try {
    text = readFileSync(join(dir, JOURNAL_FILE), 'utf8');
  } catch {
    // No journal: the operation had ended (or never wrote); what is left is its old files.
  }
  const entries: Entry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const v: unknown = JSON.parse(line);
      if (isEntry(v)) entries.push(v);
    } catch {
      // The last line, cut short: its file was not replaced.
    }
  }
  const restored: string[] = [];
  for (const e of entries.reverse()) {
    const path = join(configDir, e.file);
    if (e.old === null) {
      rmSync(path, { force: true });
    } else {
      const kept = join(dir, e.old);
      // Gone when an earlier recovery, itself cut short, put it back already.
      if (!existsSync(kept)) continue;
      mkdirSync(dirname(path), { recursive: true });
      renameSync(kept, path);
    }
    restored.push(e.file);
  }
  syncDir(configDir);
  rmSync(join(dir, JOURNAL_FILE), { force: true });
  rmSync(dir, { recursive: true, force: true });
  return entries.length > 0 ? { restored: restored.reverse() } : null;
}

/** The journal folder's files, for a test that looks at what a write leaves. */
export function journalFiles(configDir: string): string[] {
  const dir = join(configDir, JOURNAL_DIR);
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}
