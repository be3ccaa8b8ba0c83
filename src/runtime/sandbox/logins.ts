import { mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import type { ProviderDefinition } from '../../contract/harness/provider.js';
import { writeFileAtomic } from '../home/atomic-write.js';
import { planFiles } from './plan.js';

/** One file that signs a CLI in, as its provider definition names it. */
export type LoginFile = NonNullable<ProviderDefinition['login']>['files'][number];

/** A login file's two places: where the CLI keeps it outside, and its copy in the item's HOME. */
const LoginCopy = z.object({ host: z.string().min(1), jail: z.string().min(1) });
type LoginCopy = z.infer<typeof LoginCopy>;

function read(path: string): { text: Buffer; mtimeMs: number } | null {
  try {
    return { text: readFileSync(path), mtimeMs: statSync(path).mtimeMs };
  } catch {
    return null;
  }
}

/** The real file behind a path (a login kept in a dotfiles folder and linked), else the path. */
function realFile(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/*
 * Newest wins, both ways. A CLI renews its sign-in by rewriting this file (an OAuth refresh, which
 * some providers answer with a new refresh token, voiding the old one); the copy that changed
 * last is the one that still works, so it replaces the other. Same contents: nothing to do.
 */
function sync(c: LoginCopy, atStart: boolean): void {
  const host = read(c.host);
  const jail = read(c.jail);
  if (host === null) {
    // Signed out outside since the copy was made: the jail does not keep a login the user dropped.
    if (atStart) rmSync(c.jail, { force: true });
    return;
  }
  if (jail !== null && jail.text.equals(host.text)) return;
  if (jail === null || host.mtimeMs >= jail.mtimeMs) {
    mkdirSync(dirname(c.jail), { recursive: true, mode: 0o700 });
    writeFileAtomic(c.jail, host.text, 0o600, { durable: false });
    return;
  }
  writeFileAtomic(realFile(c.host), jail.text, 0o600);
}

/**
 * Copies a harness's login files into the item's HOME for a jailed launch (each from where the
 * unjailed CLI would read it: its folder variable when the task sets one, else the task's HOME),
 * points those folder variables at the copies, and notes both places in the session's folder so
 * the end of the session writes a renewed login back. A file the user does not have adds nothing.
 */
export function copyInLogins(
  files: readonly LoginFile[],
  env: Record<string, string>,
  itemHome: string,
  sessionDir: string,
): void {
  const hostHome = env.HOME ?? homedir();
  const copies: LoginCopy[] = [];
  for (const f of files) {
    const jail = join(itemHome, f.path);
    const folder = f.env === undefined ? undefined : env[f.env];
    const host = folder ? join(folder, basename(f.path)) : join(hostHome, f.path);
    // The folder the variable named is not in the jail; its copy is.
    if (f.env !== undefined && folder) env[f.env] = dirname(jail);
    copies.push({ host, jail });
    sync({ host, jail }, true);
  }
  if (copies.length === 0) return;
  mkdirSync(sessionDir, { recursive: true, mode: 0o700 });
  writeFileSync(planFiles(sessionDir).logins, JSON.stringify(copies), { mode: 0o600 });
}

/** At a jailed session's end: a login its CLI renewed inside goes back to where the CLI keeps it. */
export function writeBackLogins(sessionDir: string): void {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(planFiles(sessionDir).logins, 'utf8'));
  } catch {
    return;
  }
  const copies = z.array(LoginCopy).safeParse(raw);
  if (!copies.success) return;
  for (const c of copies.data) sync(c, false);
}
