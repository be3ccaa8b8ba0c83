import { execFile } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from 'pino';
import { z } from 'zod';
import { openRegular, readAt } from '../fs/regular-file.js';
import { writeFileAtomic } from '../home/atomic-write.js';

/*
 * What each agent session changed in its worktree (issue 51: recordings). Before it starts and
 * after it ends, the worktree as it is (committed or not, untracked files too, ignored ones not) is
 * written as a git tree through a throwaway index, the way `git stash create` does; the two trees'
 * difference is the session's change, kept with the texts after it in `run/changes/<session>.json`
 * for as long as the home keeps its runs. The trees themselves are unreferenced objects git prunes.
 */

const run = promisify(execFile);

/** A changed file above this is named but not kept (a recording is read, sent and diffed whole). */
const FILE_LIMIT = 1024 * 1024;
/** Nor is anything past this much text for one session. */
const SESSION_LIMIT = 8 * 1024 * 1024;

const Before = z.object({ tree: z.string(), cwd: z.string(), artifact: z.string().nullable() });

export const SessionChanges = z.object({
  files: z.record(z.string(), z.string().nullable()),
  skipped: z.array(z.string()),
  document: z.string().nullable(),
});
export type SessionChanges = z.infer<typeof SessionChanges>;

const dirOf = (runDir: string): string => join(runDir, 'changes');

async function git(cwd: string, args: string[], index: string): Promise<string> {
  const { stdout } = await run('git', args, {
    cwd,
    env: { ...process.env, GIT_INDEX_FILE: index },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** The worktree as a tree object, through a copy of its index (so only changed files are hashed). */
async function treeOf(cwd: string, scratch: string): Promise<string> {
  const index = (await run('git', ['rev-parse', '--git-path', 'index'], { cwd })).stdout.trim();
  const own = isAbsolute(index) ? index : join(cwd, index);
  rmSync(scratch, { force: true });
  if (existsSync(own)) copyFileSync(own, scratch);
  try {
    await git(cwd, ['add', '-A', '--', '.'], scratch);
    return (await git(cwd, ['write-tree'], scratch)).trim();
  } finally {
    rmSync(scratch, { force: true });
  }
}

/** Notes the worktree as a session starts; `artifact` is where its document goes, when it has one. */
export async function captureBefore(
  runDir: string,
  session: string,
  cwd: string,
  artifact: string | null,
): Promise<void> {
  const dir = dirOf(runDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tree = await treeOf(cwd, join(dir, `${session}.index`));
  writeFileAtomic(join(dir, `${session}.before`), JSON.stringify({ tree, cwd, artifact }), 0o600);
}

/** UTF-8 text without NULs, at most `limit` bytes; null for anything else. */
function asText(buf: Buffer, limit: number): string | null {
  if (buf.length > limit || buf.includes(0)) return null;
  const text = buf.toString('utf8');
  return Buffer.from(text, 'utf8').equals(buf) ? text : null;
}

async function blobText(cwd: string, blob: string, limit: number): Promise<string | null> {
  const size = Number((await run('git', ['cat-file', '-s', blob], { cwd })).stdout.trim());
  if (!(size <= limit)) return null;
  const { stdout } = await run('git', ['cat-file', 'blob', blob], {
    cwd,
    encoding: 'buffer',
    maxBuffer: limit + 1,
  });
  return asText(stdout, limit);
}

/**
 * The task's document: Jig chose its path, but the task may have put a link or a FIFO there, so it
 * is read only as a regular file, without following a final link.
 */
function documentText(path: string): string | null {
  const opened = openRegular(path);
  if (!opened.ok) return null;
  try {
    return opened.stat.size > FILE_LIMIT ? null : asText(readAt(opened.fd, 0, opened.stat.size), FILE_LIMIT);
  } finally {
    closeSync(opened.fd);
  }
}

/** Works out and keeps what the session changed; nothing when its start was not noted. */
export async function captureAfter(runDir: string, session: string): Promise<void> {
  const dir = dirOf(runDir);
  const beforePath = join(dir, `${session}.before`);
  if (!existsSync(beforePath)) return;
  const before = Before.parse(JSON.parse(readFileSync(beforePath, 'utf8')));
  const out: SessionChanges = { files: {}, skipped: [], document: null };
  if (existsSync(before.cwd)) {
    const tree = await treeOf(before.cwd, join(dir, `${session}.index`));
    // --raw: each entry's new mode and blob. The text is read from the blob, never through the
    // worktree, where a path may be a link out of it; links and submodules are named, not kept.
    const args = ['diff-tree', '-r', '-z', '--no-renames', '--raw', before.tree, tree];
    const raw = (await run('git', args, { cwd: before.cwd, maxBuffer: 64 * 1024 * 1024 })).stdout;
    const parts = raw.split('\0').filter((p) => p !== '');
    let total = 0;
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const [, mode = '', , blob = '', status = ''] = parts[i]!.slice(1).split(' ');
      const file = parts[i + 1]!;
      if (status === 'D') {
        out.files[file] = null;
        continue;
      }
      const text = mode.startsWith('100')
        ? await blobText(before.cwd, blob, Math.min(FILE_LIMIT, SESSION_LIMIT - total))
        : null;
      if (text === null) out.skipped.push(file);
      else {
        out.files[file] = text;
        total += text.length;
      }
    }
  }
  if (before.artifact !== null) out.document = documentText(before.artifact);
  writeFileAtomic(join(dir, `${session}.json`), JSON.stringify(out), 0o600);
  rmSync(beforePath, { force: true });
}

/** What a session changed, as kept; null when it was not captured (or is gone). */
export function readChanges(runDir: string, session: string): SessionChanges | null {
  try {
    return SessionChanges.parse(JSON.parse(readFileSync(join(dirOf(runDir), `${session}.json`), 'utf8')));
  } catch {
    return null;
  }
}

/**
 * The two captures as the session runner calls them: a failure (a worktree git cannot read) loses
 * the session's changes for a recording, never the session.
 */
export const sessionChanges = {
  before(
    log: Logger,
    runDir: string,
    session: string,
    cwd: string,
    artifact: string | undefined,
  ): Promise<void> {
    return captureBefore(runDir, session, cwd, artifact ?? null).catch((err: unknown) =>
      log.warn({ err, session }, 'noting the worktree before a session failed: its changes are not recorded'),
    );
  },
  after(log: Logger, runDir: string, session: string): Promise<void> {
    return captureAfter(runDir, session).catch((err: unknown) =>
      log.warn({ err, session }, 'working out what a session changed failed: its changes are not recorded'),
    );
  },
};
