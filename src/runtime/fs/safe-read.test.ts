import { spawnSync } from 'node:child_process';
import {
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInside } from './create-inside.js';
import { inspectInside, listInside, readInside, type InsideRules } from './safe-read.js';

let base: string;
let root: string;
let outside: string;
const rules: InsideRules = { maxBytes: 100 };
const strict: InsideRules = { maxBytes: 100, refuseHardLinks: true, refuseGitInternals: true };

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'jig-safe-read-')));
  root = join(base, 'repo');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'build'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'Makefile.real'), 'test:\n');
  writeFileSync(join(root, 'build', 'Makefile'), 'test: build\n');
  writeFileSync(join(outside, 'secret'), 'secret\n');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const refusal = (r: { ok: true } | { ok: false; reason: string }) => (r.ok ? 'ok' : r.reason);

describe('readInside', () => {
  it('reads a regular file, and follows a link that stays inside', () => {
    const r = readInside(root, 'Makefile.real', rules);
    expect(r.ok && r.bytes.toString()).toBe('test:\n');
    symlinkSync('build/Makefile', join(root, 'Makefile'));
    const l = readInside(root, 'Makefile', rules);
    expect(l).toMatchObject({ ok: true, path: join('build', 'Makefile') });
    expect(l.ok && l.bytes.toString()).toBe('test: build\n');
  });

  it('refuses a link out of the root, as the last component or a parent', () => {
    symlinkSync(join(outside, 'secret'), join(root, 'leak'));
    expect(readInside(root, 'leak', rules)).toEqual({
      ok: false,
      reason: 'link_outside',
      detail: `leads outside the repository (to ${join(outside, 'secret')})`,
    });
    symlinkSync(outside, join(root, 'dir'));
    expect(refusal(readInside(root, 'dir/secret', rules))).toBe('link_outside');
    symlinkSync('/dev/zero', join(root, 'zero'));
    expect(readInside(root, 'zero', { ...rules, rootName: 'worktree' })).toEqual({
      ok: false,
      reason: 'link_outside',
      detail: 'leads outside the worktree (to /dev/zero)',
    });
  });

  it('refuses a FIFO without blocking, a directory and a socket', async () => {
    expect(spawnSync('mkfifo', [join(root, 'fifo')]).status).toBe(0);
    expect(readInside(root, 'fifo', rules)).toEqual({
      ok: false,
      reason: 'not_regular',
      detail: 'is a FIFO, not a regular file',
    });
    expect(readInside(root, 'build', rules)).toEqual({
      ok: false,
      reason: 'not_regular',
      detail: 'is a directory, not a regular file',
    });
    const sock = join(root, 's.sock');
    const server: Server = createServer();
    await new Promise<void>((res) => server.listen(sock, res));
    try {
      expect(refusal(readInside(root, 's.sock', rules))).toBe('not_regular');
    } finally {
      await new Promise((res) => server.close(res));
    }
  });

  it('reads no more than the cap, whatever the size says', () => {
    writeFileSync(join(root, 'big'), 'x'.repeat(101));
    expect(readInside(root, 'big', rules)).toEqual({
      ok: false,
      reason: 'too_large',
      detail: 'is larger than 100 bytes',
    });
    writeFileSync(join(root, 'exact'), 'x'.repeat(100));
    const r = readInside(root, 'exact', rules);
    expect(r.ok && r.bytes.length).toBe(100);
    // /proc files say size 0 and have more: the cap holds on the bytes read. (Outside any root, so
    // read with the root at /proc itself.)
    const proc = readInside('/proc/self', 'status', { maxBytes: 10 });
    expect(refusal(proc)).toBe('too_large');
  });

  it('answers missing for a file or a parent that does not exist, and for a gone root', () => {
    expect(refusal(readInside(root, 'nope', rules))).toBe('missing');
    expect(refusal(readInside(root, 'Makefile.real/x', rules))).toBe('missing');
    expect(refusal(readInside(join(base, 'gone'), 'x', rules))).toBe('missing');
    symlinkSync('nowhere', join(root, 'dangling'));
    expect(refusal(readInside(root, 'dangling', rules))).toBe('missing');
  });

  it('refuses bad paths', () => {
    for (const p of ['', '/etc/passwd', '../outside/secret', 'a/../../x', 'a\0b', '..\\x'])
      expect(refusal(readInside(root, p, rules)), p).toBe('bad_path');
  });

  it('with the strict rules, refuses hard links and anything through .git', () => {
    linkSync(join(root, 'Makefile.real'), join(root, 'hard'));
    expect(refusal(readInside(root, 'hard', rules))).toBe('ok');
    expect(readInside(root, 'hard', strict)).toEqual({
      ok: false,
      reason: 'hard_link',
      detail: 'has 2 hard links; Jig reads only files with one, whose other names could be anywhere',
    });
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, 'sub', '.GIT'), { recursive: true });
    writeFileSync(join(root, '.git', 'config'), '[core]\n');
    writeFileSync(join(root, 'sub', '.GIT', 'x'), 'x');
    expect(refusal(readInside(root, '.git/config', strict))).toBe('git_internal');
    expect(refusal(readInside(root, 'sub/.GIT/x', strict))).toBe('git_internal');
    symlinkSync('.git/config', join(root, 'conf'));
    expect(readInside(root, 'conf', strict)).toEqual({
      ok: false,
      reason: 'git_internal',
      detail: 'leads inside .git, which Jig never reads',
    });
    expect(refusal(readInside(root, 'conf', rules))).toBe('ok');
  });

  it('inspectInside checks without reading', () => {
    expect(inspectInside(root, 'Makefile.real', rules)).toMatchObject({ ok: true, path: 'Makefile.real' });
    symlinkSync('/dev/zero', join(root, 'zero'));
    expect(refusal(inspectInside(root, 'zero', rules))).toBe('link_outside');
  });
});

describe('listInside', () => {
  it('lists a folder inside, refuses one that leads out, and caps the count', () => {
    const l = listInside(root, 'build', { maxEntries: 10 });
    expect(l).toEqual({ ok: true, path: 'build', names: ['Makefile'] });
    symlinkSync(outside, join(root, 'out'));
    expect(refusal(listInside(root, 'out', { maxEntries: 10 }))).toBe('link_outside');
    expect(refusal(listInside(root, 'Makefile.real', { maxEntries: 10 }))).toBe('not_regular');
    expect(refusal(listInside(root, 'none', { maxEntries: 10 }))).toBe('missing');
    for (let i = 0; i < 5; i++) writeFileSync(join(root, 'build', `f${i}`), '');
    const capped = listInside(root, 'build', { maxEntries: 3 });
    expect(capped.ok && capped.names.length).toBe(3);
  });
});

describe('createInside', () => {
  it('creates a file with its mode, and its folders', () => {
    expect(createInside(root, 'conf/deep/local.env', Buffer.from('A=1\n'), 0o640)).toEqual({ ok: true });
    expect(readFileSync(join(root, 'conf/deep/local.env'), 'utf8')).toBe('A=1\n');
    expect(statSync(join(root, 'conf/deep/local.env')).mode & 0o777).toBe(0o640);
  });

  it('never writes through a link at the destination, even a dangling one', () => {
    symlinkSync(join(outside, 'written'), join(root, 'dest'));
    expect(createInside(root, 'dest', Buffer.from('x'), 0o600)).toEqual({
      ok: false,
      reason: 'occupied',
      detail: 'the destination already holds a symbolic link',
    });
    expect(lstatSync(join(outside, 'written'), { throwIfNoEntry: false })).toBeUndefined();
    writeFileSync(join(root, 'there'), 'old');
    expect(createInside(root, 'there', Buffer.from('new'), 0o600)).toMatchObject({
      ok: false,
      reason: 'exists',
    });
    expect(readFileSync(join(root, 'there'), 'utf8')).toBe('old');
  });

  it('never makes a folder or a file through a link out of the root', () => {
    symlinkSync(outside, join(root, 'out'));
    expect(createInside(root, 'out/sub/x', Buffer.from('x'), 0o600)).toMatchObject({
      ok: false,
      reason: 'link_outside',
    });
    expect(lstatSync(join(outside, 'sub'), { throwIfNoEntry: false })).toBeUndefined();
    symlinkSync('build', join(root, 'inner'));
    expect(createInside(root, 'inner/new', Buffer.from('y'), 0o600)).toEqual({ ok: true });
    expect(readFileSync(join(root, 'build', 'new'), 'utf8')).toBe('y');
  });
});
