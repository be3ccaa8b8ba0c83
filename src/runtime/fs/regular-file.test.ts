import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRegular, readAt, regularSize } from './regular-file.js';

let base: string;
let logs: string;
let outside: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'jig-regular-')));
  logs = join(base, 'logs');
  outside = join(base, 'outside');
  mkdirSync(logs);
  mkdirSync(outside);
  writeFileSync(join(logs, 's1.log'), 'line one\nline two\n');
  writeFileSync(join(outside, 'secret'), 'SECRET\n');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** Opens, reads it all, closes: what a caller of openRegular does. */
function whole(path: string): string | { reason: string; detail: string } {
  const f = openRegular(path);
  if (!f.ok) return { reason: f.reason, detail: f.detail };
  try {
    return readAt(f.fd, 0, f.stat.size).toString('utf8');
  } finally {
    closeSync(f.fd);
  }
}

describe('openRegular', () => {
  it('opens a regular file, and reads a span of it', () => {
    expect(whole(join(logs, 's1.log'))).toBe('line one\nline two\n');
    const f = openRegular(join(logs, 's1.log'));
    if (!f.ok) throw new Error(f.detail);
    try {
      expect(readAt(f.fd, 5, 3).toString()).toBe('one');
      // Past the end: what there is, never zero-filled.
      expect(readAt(f.fd, 14, 100).toString()).toBe('two\n');
      expect(readAt(f.fd, 100, 10).length).toBe(0);
    } finally {
      closeSync(f.fd);
    }
  });

  it('refuses a FIFO without waiting for a writer', () => {
    expect(spawnSync('mkfifo', [join(logs, 'fifo.log')]).status).toBe(0);
    expect(whole(join(logs, 'fifo.log'))).toEqual({
      reason: 'not_regular',
      detail: 'is a FIFO, not a regular file',
    });
  });

  it('never follows a link: to /dev/zero, out of the folder, or even inside it', () => {
    const link = 'is a symbolic link, which Jig does not follow there';
    symlinkSync('/dev/zero', join(logs, 'zero.log'));
    symlinkSync(join(outside, 'secret'), join(logs, 'out.log'));
    symlinkSync('s1.log', join(logs, 'same.log'));
    for (const name of ['zero.log', 'out.log', 'same.log'])
      expect(whole(join(logs, name)), name).toEqual({ reason: 'not_regular', detail: link });
  });

  it('refuses a directory, and says missing for nothing there', () => {
    mkdirSync(join(logs, 'dir.log'));
    expect(whole(join(logs, 'dir.log'))).toEqual({
      reason: 'not_regular',
      detail: 'is a directory, not a regular file',
    });
    expect(whole(join(logs, 'none.log'))).toEqual({ reason: 'missing', detail: 'does not exist' });
  });
});

describe('regularSize', () => {
  it('is the size of a regular file and 0 for anything else', () => {
    expect(regularSize(join(logs, 's1.log'))).toBe(18);
    expect(spawnSync('mkfifo', [join(logs, 'fifo.log')]).status).toBe(0);
    symlinkSync(join(outside, 'secret'), join(logs, 'out.log'));
    for (const name of ['fifo.log', 'out.log', 'none.log'])
      expect(regularSize(join(logs, name)), name).toBe(0);
  });
});
