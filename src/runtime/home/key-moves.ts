import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, parseDocument, YAMLMap, type Document } from 'yaml';
import { writeFileAtomic } from './atomic-write.js';
import type { HomeNotice } from './home-notice.js';
import type { KeyPath, Mover } from './key-movers.js';

/** A file of the config folder. */
export type ConfigFileName =
  | 'library.yaml'
  | 'harnesses.yaml'
  | 'policy.yaml'
  | 'repos.yaml'
  | 'intake.yaml'
  | 'access.yaml'
  | 'theme.yaml';

/** Where a key sits: its file and its path in that file. */
export interface KeyAt {
  file: ConfigFileName;
  path: KeyPath;
}

/** One row of a table of key moves, as written: from, to, how, and what the log says. */
export interface KeyMove<O> {
  /** The notice key of the move (and its name). */
  key: string;
  from: KeyAt;
  to: KeyAt;
  how: Mover<O>;
  /** The notice logged when the move is made. */
  notice: (outcome: O) => string;
  /** Whether to say so when `from.file` does not parse (each file is told of by one row at most). */
  tellUnparsable: boolean;
}

/** A row with its outcome type closed over, so rows of different movers share one table. */
export interface KeyMoveRow {
  key: string;
  from: KeyAt;
  to: KeyAt;
  tellUnparsable: boolean;
  found(source: Document): boolean;
  /** The notice, or null when the move was not made (both documents as they were). */
  move(source: Document, target: Document): { message: string; targetChanged: boolean } | null;
}

export function keyMove<O>(row: KeyMove<O>): KeyMoveRow {
  const { key, from, to, how, notice, tellUnparsable } = row;
  return {
    key,
    from,
    to,
    tellUnparsable,
    found: (source) => how.found(source, from.path),
    move(source, target) {
      const done = how.move(source, target, from.path, to.path);
      return done && { message: notice(done.outcome), targetChanged: done.targetChanged };
    },
  };
}

export interface KeyMoveOptions {
  /** Files whose text before the first move is kept beside them as `<file>.pre-2.0`. */
  keepOriginal?: readonly ConfigFileName[];
}

/**
 * A config file as read: null when absent, `unparsable` when its YAML does not parse. `text` is
 * the text as read (for the `.pre-2.0` copy); null for a document a row created.
 */
interface Doc {
  doc: Document;
  text: string | null;
}
type Loaded = Doc | null | 'unparsable';

/**
 * The config folder's documents, each read once and kept as the rows leave them, so a later row
 * sees what an earlier one moved.
 */
function configDocs(dir: string) {
  const docs = new Map<ConfigFileName, Loaded>();
  const texts = new Map<ConfigFileName, string | null>();
  const text = (file: ConfigFileName): string | null => {
    let t = texts.get(file);
    if (t === undefined) {
      const path = join(dir, file);
      t = existsSync(path) ? readFileSync(path, 'utf8') : null;
      texts.set(file, t);
    }
    return t;
  };
  return {
    /** The file's text as read at first (null when absent). */
    text,
    get(file: ConfigFileName): Loaded {
      let loaded = docs.get(file);
      if (loaded === undefined) {
        const read = text(file);
        const doc = read === null ? null : parseDocument(read);
        loaded = doc === null ? null : doc.errors.length > 0 ? 'unparsable' : { doc, text: read };
        docs.set(file, loaded);
      }
      return loaded;
    },
    /** A document a row wrote, which may be one it created (its file was absent), and its text now. */
    put(file: ConfigFileName, doc: Doc, now: string): void {
      docs.set(file, doc);
      texts.set(file, now);
    },
  };
}

/** A doc whose top level can take keys: an empty file is an empty mapping. */
function asMapDoc(doc: Document): Document | null {
  if (doc.contents === null) doc.contents = new YAMLMap();
  return isMap(doc.contents) ? doc : null;
}

/**
 * Applies a table of key moves to a config folder, in order. A move removes what it moved from
 * the source, so running the table again finds nothing to do and logs nothing twice. A file that
 * does not parse is left alone (and said so); a target whose top level is not a mapping, or a
 * value of a shape the move does not take, leaves the move undone, silently.
 */
export function applyKeyMoves(
  configDir: string,
  rows: readonly KeyMoveRow[],
  opts: KeyMoveOptions = {},
): HomeNotice[] {
  const notices: HomeNotice[] = [];
  const docs = configDocs(configDir);
  const keep = opts.keepOriginal ?? [];
  const unparsable = (file: string, what: string): void => {
    notices.push({
      level: 'warn',
      key: `unparsable-${file}`,
      message: `${file} does not parse; ${what} was not moved`,
    });
  };
  // Atomic and 0600 like every config write; a kept file is copied once, before its first rewrite.
  const save = (file: ConfigFileName, loaded: Doc): void => {
    const path = join(configDir, file);
    const backup = `${path}.pre-2.0`;
    const before = loaded.text;
    if (before !== null && keep.includes(file) && !existsSync(backup)) writeFileAtomic(backup, before, 0o600);
    const now = loaded.doc.toString();
    writeFileAtomic(path, now, 0o600);
    docs.put(file, loaded, now);
  };
  for (const row of rows) {
    const what = row.from.path.join('.');
    // A key not in the file's text cannot be in its document: most starts find no 1.x key at all,
    // and parsing every file to learn so took 10 to 30 ms of each start (issue 43).
    const first = row.from.path[0];
    if (first !== undefined && !docs.text(row.from.file)?.includes(String(first))) continue;
    const source = docs.get(row.from.file);
    if (source === null) continue;
    if (source === 'unparsable') {
      if (row.tellUnparsable) unparsable(row.from.file, what);
      continue;
    }
    if (!row.found(source.doc)) continue;
    let target: Doc = source;
    if (row.to.file !== row.from.file) {
      const loaded = docs.get(row.to.file);
      if (loaded === 'unparsable') {
        unparsable(row.to.file, `${row.from.file} ${what}`);
        continue;
      }
      const doc = asMapDoc(loaded?.doc ?? parseDocument(''));
      if (!doc) continue;
      target = loaded ?? { doc, text: null };
    }
    const done = row.move(source.doc, target.doc);
    if (!done) continue;
    // The target first: cut off between the two writes, the value is in both files, never in neither.
    if (target !== source && done.targetChanged) save(row.to.file, target);
    save(row.from.file, source);
    notices.push({ level: 'info', key: row.key, message: done.message });
  }
  return notices;
}
