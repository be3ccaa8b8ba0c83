import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RepoEntry } from '../../contract/config/repos.js';
import { prepareWorktree } from './worktree.js';

/*
 * The identity check reads user.name and user.email in one git process (`--get-regexp`): the last
 * value of each wins, as `git config --get` would answer, and an empty one counts as none.
 */

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

let saved: string | undefined;
let global: string;
beforeEach(() => {
  // No identity but the repository's own: the machine's ~/.gitconfig must not answer for it.
  saved = process.env.GIT_CONFIG_GLOBAL;
  global = join(mkdtempSync(join(tmpdir(), 'jig-gitcfg-')), 'gitconfig');
  writeFileSync(global, '');
  process.env.GIT_CONFIG_GLOBAL = global;
});
afterEach(() => {
  if (saved === undefined) delete process.env.GIT_CONFIG_GLOBAL;
  else process.env.GIT_CONFIG_GLOBAL = saved;
});

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'jig-wt-repo-'));
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'README.md'), '# r\n');
  git(dir, 'add', '.');
  git(dir, '-c', 'user.name=seed', '-c', 'user.email=seed@example.com', 'commit', '-qm', 'first');
  return dir;
}

const item = { id: 'wt1', branch: 'jig/wt1-x', base_branch: null };
const refusal = (path: string) => ({
  ok: false,
  kind: 'config',
  reason: `git has no user.name or user.email for ${path}; set them (git config --global user.name "…" and user.email "…") so tasks can commit`,
});

describe('prepareWorktree', () => {
  it('refuses a repository with no user.email, and one whose later user.name is empty', async () => {
    const dir = repo();
    const trees = mkdtempSync(join(tmpdir(), 'jig-wt-'));
    git(dir, 'config', 'user.name', 'Someone');
    expect(await prepareWorktree(RepoEntry.parse({ path: dir }), item, trees)).toEqual(refusal(dir));
    // The global file says a name and an email; the repository's own empty name comes after it.
    writeFileSync(global, '[user]\n\tname = Global\n\temail = g@example.com\n');
    git(dir, 'config', 'user.name', '');
    expect(await prepareWorktree(RepoEntry.parse({ path: dir }), item, trees)).toEqual(refusal(dir));
    expect(existsSync(join(trees, item.id))).toBe(false);
  });

  it('cuts the worktree on the item branch when both are set, in either file', async () => {
    const dir = repo();
    const trees = mkdtempSync(join(tmpdir(), 'jig-wt-'));
    writeFileSync(global, '[user]\n\tname = Global\n');
    git(dir, 'config', 'user.email', 'local@example.com');
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    const r = await prepareWorktree(RepoEntry.parse({ path: dir }), item, trees);
    expect(r).toEqual({
      ok: true,
      path: join(trees, item.id),
      baseRef: head,
      baseBranch: 'main',
      created: true,
      copied: [],
      skipped: [],
    });
    expect(git(join(trees, item.id), 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe(item.branch);
  });

  it("takes up the item's branch again when an earlier start cut it and its worktree is gone", async () => {
    const dir = repo();
    const trees = mkdtempSync(join(tmpdir(), 'jig-wt-'));
    git(dir, 'config', 'user.name', 'Someone');
    git(dir, 'config', 'user.email', 'someone@example.com');
    const first = await prepareWorktree(RepoEntry.parse({ path: dir }), item, trees);
    expect(first.ok).toBe(true);
    const path = join(trees, item.id);
    writeFileSync(join(path, 'work.txt'), 'kept\n');
    git(path, 'add', '.');
    git(path, 'commit', '-qm', 'work on the branch');
    const tip = git(path, 'rev-parse', 'HEAD').trim();
    git(dir, 'worktree', 'remove', path);
    const again = await prepareWorktree(RepoEntry.parse({ path: dir }), item, trees);
    expect(again).toMatchObject({ ok: true, path, baseBranch: 'main', created: true });
    // The branch as the earlier start left it: its commit, not a new branch from main.
    expect(git(path, 'rev-parse', 'HEAD').trim()).toBe(tip);
    expect(git(path, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe(item.branch);
  });

  it('bases on a detached HEAD as HEAD, and names the branch of a repository with no commit', async () => {
    const dir = repo();
    const trees = mkdtempSync(join(tmpdir(), 'jig-wt-'));
    git(dir, 'config', 'user.name', 'Someone');
    git(dir, 'config', 'user.email', 'someone@example.com');
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    git(dir, 'checkout', '-q', '--detach');
    expect(await prepareWorktree(RepoEntry.parse({ path: dir }), item, trees)).toMatchObject({
      ok: true,
      baseRef: head,
      baseBranch: 'HEAD',
    });
    const empty = mkdtempSync(join(tmpdir(), 'jig-wt-repo-'));
    git(empty, 'init', '-q', '-b', 'trunk');
    git(empty, 'config', 'user.name', 'Someone');
    git(empty, 'config', 'user.email', 'someone@example.com');
    expect(await prepareWorktree(RepoEntry.parse({ path: empty }), item, trees)).toEqual({
      ok: false,
      kind: 'config',
      reason: `base branch trunk does not exist in ${empty}`,
    });
  });
});
