import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readConfigFile } from './config-text.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'jig-config-text-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('readConfigFile', () => {
  it('reads a regular file, and one through a link (a config kept in a dotfiles repository)', () => {
    writeFileSync(join(dir, 'real.yaml'), 'max_concurrent: 2\n');
    symlinkSync(join(dir, 'real.yaml'), join(dir, 'policy.yaml'));
    expect(readConfigFile(join(dir, 'real.yaml'))).toEqual({ ok: true, text: 'max_concurrent: 2\n' });
    expect(readConfigFile(join(dir, 'policy.yaml'))).toEqual({ ok: true, text: 'max_concurrent: 2\n' });
  });

  it('says a missing file is missing', () => {
    expect(readConfigFile(join(dir, 'nope.yaml'))).toEqual({
      ok: false,
      missing: true,
      reason: 'does not exist',
    });
  });

  it('never waits on a FIFO and never reads a device', () => {
    expect(spawnSync('mkfifo', [join(dir, 'fifo.yaml')]).status).toBe(0);
    symlinkSync('/dev/zero', join(dir, 'zero.yaml'));
    expect(readConfigFile(join(dir, 'fifo.yaml'))).toEqual({
      ok: false,
      missing: false,
      reason: 'is a FIFO, not a regular file',
    });
    expect(readConfigFile(join(dir, 'zero.yaml'))).toEqual({
      ok: false,
      missing: false,
      reason: 'is a character device, not a regular file',
    });
    expect(readConfigFile(dir)).toEqual({
      ok: false,
      missing: false,
      reason: 'is a directory, not a regular file',
    });
  });

  it('refuses a file past the cap rather than reading it all', () => {
    writeFileSync(join(dir, 'big.yaml'), 'x'.repeat(200_001));
    expect(readConfigFile(join(dir, 'big.yaml'), 200_000)).toEqual({
      ok: false,
      missing: false,
      reason: 'is larger than 200000 bytes',
    });
    expect(readConfigFile(join(dir, 'big.yaml'), 200_001)).toMatchObject({ ok: true });
  });
});
