/*
 * Reading git's machine formats of a diff: `--name-status -z`, `--numstat -z` and the unified
 * patch. Written by hand because the libraries that parse diffs read only the patch text, which
 * quotes unusual paths and says nothing of a binary file's size, while the -z forms are exact.
 */

export type FileStatus = 'added' | 'modified' | 'deleted' | 'renamed' | 'type_changed';

export interface ChangedPath {
  path: string;
  /** The path before a rename; null otherwise. */
  old_path: string | null;
  status: FileStatus;
}

export interface LineCounts {
  additions: number;
  deletions: number;
  binary: boolean;
}

const STATUS: Record<string, FileStatus> = {
  A: 'added',
  M: 'modified',
  D: 'deleted',
  R: 'renamed',
  C: 'added',
  T: 'type_changed',
};

/** `git diff --name-status -z -M`: `X\0path\0`, or `R<score>\0old\0new\0` for a rename or copy. */
export function parseNameStatus(out: string): ChangedPath[] {
  const parts = out.split('\0');
  const files: ChangedPath[] = [];
  for (let i = 0; i + 1 < parts.length;) {
    const code = parts[i] ?? '';
    const letter = code.charAt(0);
    if (letter === '') break;
    const status = STATUS[letter] ?? 'modified';
    if (letter === 'R' || letter === 'C') {
      const from = parts[i + 1] ?? '';
      const to = parts[i + 2] ?? '';
      files.push({ path: to, old_path: letter === 'R' ? from : null, status });
      i += 3;
    } else {
      files.push({ path: parts[i + 1] ?? '', old_path: null, status });
      i += 2;
    }
  }
  return files;
}

/**
 * `git diff --numstat -z -M`, by the path after the change: `a\tb\tpath\0`, or for a rename
 * `a\tb\t\0old\0new\0`; a binary file counts `-\t-`.
 */
export function parseNumstat(out: string): Map<string, LineCounts> {
  const parts = out.split('\0');
  const counts = new Map<string, LineCounts>();
  for (let i = 0; i < parts.length;) {
    const head = parts[i] ?? '';
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(head);
    if (!m) {
      i++;
      continue;
    }
    const binary = m[1] === '-';
    const entry = { additions: binary ? 0 : Number(m[1]), deletions: binary ? 0 : Number(m[2]), binary };
    if (m[3] === '') {
      counts.set(parts[i + 2] ?? '', entry);
      i += 3;
    } else {
      counts.set(m[3] ?? '', entry);
      i += 1;
    }
  }
  return counts;
}

/** A unified patch of several files, cut into one piece per file (each from its `diff --git`). */
export function splitPatch(text: string): string[] {
  if (text === '') return [];
  const pieces: string[] = [];
  let at = text.startsWith('diff --git ') ? 0 : text.indexOf('\ndiff --git ');
  while (at !== -1) {
    const start = text.charAt(at) === '\n' ? at + 1 : at;
    const next = text.indexOf('\ndiff --git ', start);
    pieces.push(next === -1 ? text.slice(start) : text.slice(start, next + 1));
    at = next;
  }
  return pieces;
}

/** The header line git writes for a file whose paths need no quoting. */
export function patchHeader(file: ChangedPath): string {
  return `diff --git a/${file.old_path ?? file.path} b/${file.path}`;
}

/** Which piece of a split patch belongs to each file: by its header, else by position. */
export function piecesByFile(files: ChangedPath[], pieces: string[]): (string | null)[] {
  const byHeader = new Map<string, string>();
  for (const p of pieces) byHeader.set(p.slice(0, p.indexOf('\n') === -1 ? p.length : p.indexOf('\n')), p);
  return files.map((f, i) => byHeader.get(patchHeader(f)) ?? pieces[i] ?? null);
}
