import { lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeFoldersInside } from './create-inside.js';

// createInside itself is covered in safe-read.test.ts; this is the folder-only entry point.

let base: string;
let wt: string;
let outside: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'jig-folders-')));
  wt = join(base, 'worktree');
  outside = join(base, 'outside');
  mkdirSync(wt);
  mkdirSync(outside);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('makeFoldersInside', () => {
  it('makes the folders, follows a link that stays inside, and is fine when they exist', () => {
    expect(makeFoldersInside(wt, '.jig/docs')).toEqual({ ok: true });
    expect(lstatSync(join(wt, '.jig', 'docs')).isDirectory()).toBe(true);
    expect(makeFoldersInside(wt, '.jig/docs')).toEqual({ ok: true });
    mkdirSync(join(wt, 'real'));
    symlinkSync('real', join(wt, 'inner'));
    expect(makeFoldersInside(wt, 'inner/docs')).toEqual({ ok: true });
    expect(lstatSync(join(wt, 'real', 'docs')).isDirectory()).toBe(true);
  });

  it('never makes a folder through a link out of the root, first or last on the way', () => {
    symlinkSync(outside, join(wt, '.jig'));
    expect(makeFoldersInside(wt, '.jig/docs')).toEqual({
      ok: false,
      reason: 'link_outside',
      detail: `${join(wt, '.jig')} is a symbolic link leading outside (to ${outside})`,
    });
    rmSync(join(wt, '.jig'));
    mkdirSync(join(wt, '.jig'));
    symlinkSync(outside, join(wt, '.jig', 'docs'));
    expect(makeFoldersInside(wt, '.jig/docs')).toMatchObject({ ok: false, reason: 'link_outside' });
    expect(lstatSync(join(outside, 'docs'), { throwIfNoEntry: false })).toBeUndefined();
  });

  it('refuses a file or a dangling link on the way, and a bad path', () => {
    writeFileSync(join(wt, 'file'), '');
    expect(makeFoldersInside(wt, 'file/docs')).toEqual({
      ok: false,
      reason: 'not_a_folder',
      detail: `${join(wt, 'file')} is not a folder`,
    });
    symlinkSync(join(outside, 'nowhere'), join(wt, 'dangling'));
    expect(makeFoldersInside(wt, 'dangling/docs')).toMatchObject({ ok: false, reason: 'not_a_folder' });
    expect(lstatSync(join(outside, 'nowhere'), { throwIfNoEntry: false })).toBeUndefined();
    expect(makeFoldersInside(wt, '../outside/x')).toMatchObject({ ok: false, reason: 'bad_path' });
  });
});
