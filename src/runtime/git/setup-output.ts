import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { git } from './git.js';
import { inRepoQueue } from './repo-queue.js';

/*
 * What a worktree's setup command wrote (an `npm install` writing package-lock.json, a generated
 * config) is not the item's change: it is kept out of the worktree's diff and commits by git itself,
 * so it stays out whoever commits (Jig's commit task, an agent's `git add -A`, a person in the
 * worktree) and out of every diff Jig takes (docs/adr/0036-setup-output.md). Only this worktree sees
 * it that way: a file setup created is excluded through the worktree's own `core.excludesFile`
 * (git's per-worktree config), a tracked file it changed is marked skip-worktree in the worktree's
 * own index. Both are recorded beside the worktree's git files with the content setup left, and
 * let go once a task changes that content (`releaseChangedSetupOutput`): then the change is the
 * item's.
 */

/** The record of what setup wrote, in the worktree's own git folder (removed with the worktree). */
const RECORD = 'jig-setup-output.json';
/** The worktree's excludes file: the person's global excludes, then what setup created. */
const EXCLUDES = 'jig-setup-excludes';

interface Entry {
  /** Relative to the worktree, `/`-separated; a folder ends with `/`. */
  path: string;
  /** A tracked file setup changed (skip-worktree), else something it created (excluded). */
  tracked: boolean;
  /** A hash of the content setup left; null for a folder or a file setup deleted. */
  hash: string | null;
}

interface SetupRecord {
  /** The global excludes the worktree's own excludes file replaces, kept at its head. */
  global: string;
  entries: Entry[];
}

/** What `keepSetupOutputOut` kept out: the paths setup created and the tracked files it changed. */
export interface KeptOut {
  created: string[];
  changed: string[];
}

/** The worktree's own git folder (`.git/worktrees/<name>`), from its `.git` file, else from git. */
async function gitDirOf(worktree: string): Promise<string | null> {
  const dotGit = join(worktree, '.git');
  try {
    const st = lstatSync(dotGit);
    if (st.isDirectory()) return dotGit;
    const m = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'));
    if (m?.[1]) return resolve(worktree, m[1].trim());
  } catch {
    // No `.git` here: git says where it is, or that there is none.
  }
  const r = await git(worktree, ['rev-parse', '--absolute-git-dir']);
  return r.code === 0 ? r.stdout.trim() : null;
}

function contentHash(file: string): string | null {
  try {
    const st = lstatSync(file);
    if (!st.isFile()) return null;
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return null;
  }
}

/** `git status -z` entries: what setup left uncommitted, `.jig/` (Jig's own, ignored) aside. */
function parseStatus(out: string): Entry[] {
  const parts = out.split('\0');
  const entries: Entry[] = [];
  for (let i = 0; i < parts.length; i++) {
    const e = parts[i] ?? '';
    if (e.length < 4) continue;
    const xy = e.slice(0, 2);
    const path = e.slice(3);
    // A rename or copy is followed by its source, which is not an entry of its own.
    if (xy.includes('R') || xy.includes('C')) i++;
    if (path === '.jig/' || path.startsWith('.jig/')) continue;
    entries.push({ path, tracked: xy !== '??', hash: null });
  }
  return entries;
}

/** A path as an anchored excludes pattern matching only itself (gitignore's special characters escaped). */
function pattern(path: string): string {
  return `/${path.replace(/[\\*?[\]!# ]/g, (c) => `\\${c}`)}`;
}

function excludesText(rec: SetupRecord): string {
  const own = rec.entries.filter((e) => !e.tracked).map((e) => pattern(e.path));
  const head = rec.global === '' || rec.global.endsWith('\n') ? rec.global : `${rec.global}\n`;
  return `${head}# Written by Jig's setup command in this worktree; not the item's change.\n${own.join('\n')}\n`;
}

/** The excludes file git reads when the worktree names none of its own: the person's, kept. */
async function globalExcludes(worktree: string): Promise<string> {
  const r = await git(worktree, ['config', '--path', '--get', 'core.excludesFile']);
  const xdg = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  const file = r.code === 0 && r.stdout.trim() !== '' ? r.stdout.trim() : join(xdg, 'git', 'ignore');
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Right after the setup command: keeps whatever it left uncommitted out of this worktree's diff and
 * commits. Nothing is touched when it left nothing (the common case: an install into an ignored
 * folder). `repo` is the repository the worktree belongs to: turning on git's per-worktree config
 * writes its shared config, one writer at a time.
 */
export async function keepSetupOutputOut(repo: string, worktree: string): Promise<KeptOut> {
  const none: KeptOut = { created: [], changed: [] };
  const status = await git(worktree, ['status', '--porcelain=v1', '-z']);
  if (status.code !== 0) throw new Error(`git status in ${worktree} failed: ${status.stderr.trim()}`);
  const entries = parseStatus(status.stdout).map((e) => ({
    ...e,
    hash: e.path.endsWith('/') ? null : contentHash(join(worktree, e.path)),
  }));
  if (entries.length === 0) return none;
  const dir = await gitDirOf(worktree);
  if (dir === null) throw new Error(`${worktree} has no git folder`);
  const rec: SetupRecord = { global: await globalExcludes(worktree), entries };
  writeFileSync(join(dir, RECORD), JSON.stringify(rec));
  const excludes = join(dir, EXCLUDES);
  writeFileSync(excludes, excludesText(rec));
  const must = async (cwd: string, args: string[]): Promise<void> => {
    const r = await git(cwd, args);
    if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr.trim()}`);
  };
  await inRepoQueue(repo, () => must(repo, ['config', 'extensions.worktreeConfig', 'true']));
  await must(worktree, ['config', '--worktree', 'core.excludesFile', excludes]);
  const changed = entries.filter((e) => e.tracked).map((e) => e.path);
  if (changed.length > 0) await must(worktree, ['update-index', '--skip-worktree', '--', ...changed]);
  return { created: entries.filter((e) => !e.tracked).map((e) => e.path), changed };
}

/**
 * Before a step runs: lets go of every file setup wrote whose content changed since (a task, or a
 * person at a gate, changed it), so that change is the item's and is diffed and committed. Costs no
 * git process while setup left nothing, or nothing of it changed. Returns the paths let go.
 */
export async function releaseChangedSetupOutput(worktree: string): Promise<string[]> {
  const dir = await gitDirOf(worktree);
  if (dir === null || !existsSync(join(dir, RECORD))) return [];
  let rec: SetupRecord;
  try {
    rec = JSON.parse(readFileSync(join(dir, RECORD), 'utf8')) as SetupRecord;
  } catch {
    return [];
  }
  const moved = rec.entries.filter(
    (e) => !e.path.endsWith('/') && contentHash(join(worktree, e.path)) !== e.hash,
  );
  if (moved.length === 0) return [];
  const left = { ...rec, entries: rec.entries.filter((e) => !moved.includes(e)) };
  writeFileSync(join(dir, EXCLUDES), excludesText(left));
  const tracked = moved.filter((e) => e.tracked).map((e) => e.path);
  if (tracked.length > 0) {
    const r = await git(worktree, ['update-index', '--no-skip-worktree', '--', ...tracked]);
    if (r.code !== 0) throw new Error(`git update-index in ${worktree} failed: ${r.stderr.trim()}`);
  }
  writeFileSync(join(dir, RECORD), JSON.stringify(left));
  return moved.map((e) => e.path);
}
