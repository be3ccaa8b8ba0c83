import type { DiffFile, DiffFormat } from '../../contract/review.js';
import {
  parseNameStatus,
  parseNumstat,
  piecesByFile,
  splitPatch,
  type ChangedPath,
} from '../../core/review/diff-parse.js';
import { git } from '../git/git.js';

/** A page holds files until their changed lines pass this (at least one file per page). */
const PAGE_LINES = 20_000;
/** A file with more changed lines than this is listed with its counts, its patch left out. */
const FILE_LINES = 10_000;
const DIFF_TIMEOUT_MS = 60_000;
// Paths come from git itself, but `--` paths are still pathspecs: literal, so `*` is a name.
const LITERAL = { GIT_LITERAL_PATHSPECS: '1' };

export interface DiffOptions {
  format: DiffFormat;
  ignoreWhitespace: boolean;
  offset: number;
  limit: number;
  /** Only files whose path (or path before a rename) is in this set; null for all. */
  onlyPaths: Set<string> | null;
}

export interface DiffPage {
  totals: { files: number; additions: number; deletions: number };
  files: Omit<DiffFile, 'viewed'>[];
  next_offset: number | null;
}

async function run(worktree: string, args: string[]): Promise<string> {
  const r = await git(worktree, args, DIFF_TIMEOUT_MS, LITERAL);
  if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr.trim()}`);
  return r.stdout;
}

/** Paths a change between two commits touched (both sides of a rename). */
export async function changedPaths(worktree: string, from: string, to: string): Promise<string[]> {
  const files = parseNameStatus(await run(worktree, ['diff', '--name-status', '-z', '-M', from, to]));
  return files.flatMap((f) => (f.old_path ? [f.path, f.old_path] : [f.path]));
}

/** One page of the diff `from..to` (two commits), binary files named and counted, not dumped. */
export async function diffCommits(
  worktree: string,
  from: string,
  to: string,
  o: DiffOptions,
): Promise<DiffPage> {
  const ws = o.ignoreWhitespace ? ['-w'] : [];
  let files = parseNameStatus(await run(worktree, ['diff', '--name-status', '-z', '-M', from, to]));
  const only = o.onlyPaths;
  if (only) files = files.filter((f) => only.has(f.path) || (f.old_path !== null && only.has(f.old_path)));
  const counts =
    o.format === 'name_only'
      ? null
      : parseNumstat(await run(worktree, ['diff', '--numstat', '-z', '-M', ...ws, from, to]));
  const lines = (f: ChangedPath) => {
    const c = counts?.get(f.path);
    return c ? c.additions + c.deletions : 0;
  };
  let end = Math.min(files.length, o.offset + o.limit);
  if (o.format === 'patch') {
    let sum = 0;
    for (let i = o.offset; i < end; i++) {
      sum += Math.min(lines(files[i] as ChangedPath), FILE_LINES);
      if (sum > PAGE_LINES && i > o.offset) {
        end = i;
        break;
      }
    }
  }
  const page = files.slice(o.offset, end);
  const wanted = page.filter((f) => counts?.get(f.path)?.binary !== true && lines(f) <= FILE_LINES);
  const patches =
    o.format === 'patch' && wanted.length > 0
      ? piecesByFile(
          wanted,
          splitPatch(
            await run(worktree, [
              'diff',
              '-M',
              ...ws,
              from,
              to,
              '--',
              ...wanted.flatMap((f) => (f.old_path ? [f.old_path, f.path] : [f.path])),
            ]),
          ),
        )
      : [];
  const patchOf = new Map(wanted.map((f, i) => [f, patches[i] ?? null]));
  let additions = 0;
  let deletions = 0;
  for (const f of files) {
    additions += counts?.get(f.path)?.additions ?? 0;
    deletions += counts?.get(f.path)?.deletions ?? 0;
  }
  return {
    totals: { files: files.length, additions, deletions },
    files: page.map((f) => {
      // With -w a file changed only in whitespace is missing from --numstat: it counts nothing.
      const c = counts ? (counts.get(f.path) ?? { additions: 0, deletions: 0, binary: false }) : undefined;
      const binary = counts === null ? null : c?.binary === true;
      return {
        ...f,
        additions: c && !c.binary ? c.additions : null,
        deletions: c && !c.binary ? c.deletions : null,
        binary,
        patch: patchOf.get(f) ?? null,
        truncated: o.format === 'patch' && binary === false && lines(f) > FILE_LINES,
      };
    }),
    next_offset: end < files.length ? end : null,
  };
}

/** The blob a path has at a commit, or `-` when the path is not there (deleted). */
export async function blobAt(worktree: string, sha: string, path: string): Promise<string> {
  const r = await git(worktree, ['rev-parse', '--verify', '--quiet', `${sha}:${path}`]);
  return r.code === 0 ? r.stdout.trim() : '-';
}

/** Blobs of many paths at a commit in one call (`ls-tree`); a missing path maps to `-`. */
export async function blobsAt(worktree: string, sha: string, paths: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>(paths.map((p) => [p, '-']));
  if (paths.length === 0) return found;
  const out = await run(worktree, ['ls-tree', '-z', '--full-tree', sha, '--', ...paths]);
  for (const entry of out.split('\0')) {
    const m = /^\d+ \w+ ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (m?.[2] !== undefined && found.has(m[2])) found.set(m[2], m[1] ?? '-');
  }
  return found;
}
