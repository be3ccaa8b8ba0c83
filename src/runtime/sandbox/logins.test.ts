import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyInLogins, writeBackLogins } from './logins.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup() {
  const root = mkdtempSync(join(tmpdir(), 'jig-logins-'));
  dirs.push(root);
  const host = join(root, 'host');
  const item = join(root, 'item');
  const session = join(root, 'session');
  mkdirSync(host);
  mkdirSync(item);
  return { root, host, item, session };
}

function put(path: string, text: string, ageS = 0): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  if (ageS > 0) {
    const t = Date.now() / 1000 - ageS;
    utimesSync(path, t, t);
  }
}

const CLAUDE = [{ path: '.claude/.credentials.json', env: 'CLAUDE_CONFIG_DIR' }];

describe('login files in a jail', () => {
  it("copies a login from the task's HOME into the item's HOME (0600) and notes both places", () => {
    const { host, item, session } = setup();
    put(join(host, '.claude/.credentials.json'), '{"token":"a"}');
    const env: Record<string, string> = { HOME: host };
    copyInLogins(CLAUDE, env, item, session);
    const copy = join(item, '.claude/.credentials.json');
    expect(readFileSync(copy, 'utf8')).toBe('{"token":"a"}');
    expect(statSync(copy).mode & 0o777).toBe(0o600);
    // No folder variable was set: none is added.
    expect(env).toEqual({ HOME: host });
    expect(JSON.parse(readFileSync(join(session, 'logins.json'), 'utf8'))).toEqual([
      { host: join(host, '.claude/.credentials.json'), jail: copy },
    ]);
  });

  it("reads it from the folder a variable names, and points that variable at the copy's folder", () => {
    const { root, host, item, session } = setup();
    const config = join(root, 'elsewhere');
    put(join(config, '.credentials.json'), 'from-config-dir');
    const env: Record<string, string> = { HOME: host, CLAUDE_CONFIG_DIR: config };
    copyInLogins(CLAUDE, env, item, session);
    expect(env.CLAUDE_CONFIG_DIR).toBe(join(item, '.claude'));
    expect(readFileSync(join(item, '.claude/.credentials.json'), 'utf8')).toBe('from-config-dir');
  });

  it('a login the user does not have adds nothing, and one they dropped leaves the jail too', () => {
    const { host, item, session } = setup();
    copyInLogins(CLAUDE, { HOME: host }, item, session);
    expect(existsSync(join(item, '.claude'))).toBe(false);
    // A copy from an earlier session, whose original is gone now (signed out).
    put(join(item, '.claude/.credentials.json'), 'old');
    copyInLogins(CLAUDE, { HOME: host }, item, session);
    expect(existsSync(join(item, '.claude/.credentials.json'))).toBe(false);
    writeBackLogins(session);
    expect(existsSync(join(host, '.claude/.credentials.json'))).toBe(false);
  });

  it('writes a login the CLI renewed inside back to the real file behind its path', () => {
    const { root, host, item, session } = setup();
    // The login lives in a dotfiles folder, linked from HOME.
    const real = join(root, 'dotfiles', 'credentials.json');
    put(real, 'first', 60);
    mkdirSync(join(host, '.claude'));
    symlinkSync(real, join(host, '.claude/.credentials.json'));
    copyInLogins(CLAUDE, { HOME: host }, item, session);
    // The CLI refreshed its token inside (a later write than the copy).
    const copy = join(item, '.claude/.credentials.json');
    put(copy, 'renewed');
    const t = Date.now() / 1000 + 5;
    utimesSync(copy, t, t);
    writeBackLogins(session);
    expect(readFileSync(real, 'utf8')).toBe('renewed');
    expect(lstatSync(join(host, '.claude/.credentials.json')).isSymbolicLink()).toBe(true);
    expect(statSync(real).mode & 0o777).toBe(0o600);
  });

  it('an unchanged copy writes nothing back; a login renewed outside meanwhile wins over the copy', () => {
    const { host, item, session } = setup();
    const original = join(host, '.claude/.credentials.json');
    put(original, 'first', 60);
    copyInLogins(CLAUDE, { HOME: host }, item, session);
    const before = statSync(original).mtimeMs;
    writeBackLogins(session);
    expect([readFileSync(original, 'utf8'), statSync(original).mtimeMs]).toEqual(['first', before]);
    // The user's own CLI renewed it while the task ran: theirs is the newer, and the copy follows.
    put(original, 'renewed-outside');
    const t = Date.now() / 1000 + 5;
    utimesSync(original, t, t);
    writeBackLogins(session);
    expect(readFileSync(original, 'utf8')).toBe('renewed-outside');
    expect(readFileSync(join(item, '.claude/.credentials.json'), 'utf8')).toBe('renewed-outside');
  });

  it('a session with no login files (or a broken note of them) writes nothing back', () => {
    const { session } = setup();
    expect(() => writeBackLogins(session)).not.toThrow();
    mkdirSync(session);
    writeFileSync(join(session, 'logins.json'), '{"not":"a list"}');
    expect(() => writeBackLogins(session)).not.toThrow();
  });
});
