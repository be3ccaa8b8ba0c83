import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
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

const CLAUDE = [{ path: '.claude/.credentials.json', env: 'CLAUDE_CONFIG_DIR', renew: true }];

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
      {
        host: join(host, '.claude/.credentials.json'),
        home: item,
        rel: '.claude/.credentials.json',
        renew: true,
        copied: createHash('sha256').update('{"token":"a"}').digest('hex'),
      },
    ]);
  });

  it("reads it from the folder a variable names, and points that variable at the copy's folder", () => {
    const { root, host, item, session } = setup();
    const config = join(root, 'elsewhere');
    put(join(config, '.credentials.json'), '{"from":"config-dir"}');
    const env: Record<string, string> = { HOME: host, CLAUDE_CONFIG_DIR: config };
    copyInLogins(CLAUDE, env, item, session);
    expect(env.CLAUDE_CONFIG_DIR).toBe(join(item, '.claude'));
    expect(readFileSync(join(item, '.claude/.credentials.json'), 'utf8')).toBe('{"from":"config-dir"}');
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
    put(real, '{"token":"first"}', 60);
    mkdirSync(join(host, '.claude'));
    symlinkSync(real, join(host, '.claude/.credentials.json'));
    copyInLogins(CLAUDE, { HOME: host }, item, session);
    // The CLI refreshed its token inside (a later write than the copy).
    const copy = join(item, '.claude/.credentials.json');
    put(copy, '{"token":"renewed"}');
    const t = Date.now() / 1000 + 5;
    utimesSync(copy, t, t);
    writeBackLogins(session);
    expect(readFileSync(real, 'utf8')).toBe('{"token":"renewed"}');
    expect(lstatSync(join(host, '.claude/.credentials.json')).isSymbolicLink()).toBe(true);
    expect(statSync(real).mode & 0o777).toBe(0o600);
  });

  it('an unchanged copy writes nothing back; a login renewed outside meanwhile wins over the copy', () => {
    const { host, item, session } = setup();
    const original = join(host, '.claude/.credentials.json');
    put(original, '{"token":"first"}', 60);
    copyInLogins(CLAUDE, { HOME: host }, item, session);
    const before = statSync(original).mtimeMs;
    writeBackLogins(session);
    expect([readFileSync(original, 'utf8'), statSync(original).mtimeMs]).toEqual([
      '{"token":"first"}',
      before,
    ]);
    // The user's own CLI renewed it while the task ran: theirs is the newer, and the copy follows.
    put(original, '{"token":"renewed-outside"}');
    const t = Date.now() / 1000 + 5;
    utimesSync(original, t, t);
    writeBackLogins(session);
    expect(readFileSync(original, 'utf8')).toBe('{"token":"renewed-outside"}');
    expect(readFileSync(join(item, '.claude/.credentials.json'), 'utf8')).toBe('{"token":"renewed-outside"}');
  });

  it('writes back no configuration, and no credential that is not a login of the same shape', () => {
    const { host, item, session } = setup();
    const files = [
      { path: '.codex/auth.json', env: 'CODEX_HOME', renew: true },
      { path: '.codex/config.toml', env: 'CODEX_HOME' },
    ];
    put(join(host, '.codex/auth.json'), '{"OPENAI_API_KEY":"sk-mine"}', 60);
    put(join(host, '.codex/config.toml'), 'model = "gpt-5"\n', 60);
    copyInLogins(files, { HOME: host }, item, session);
    // Inside, the task plants a command in the configuration and a file of another shape.
    const later = Date.now() / 1000 + 5;
    put(join(item, '.codex/config.toml'), '[mcp_servers.x]\ncommand = "sh"\n');
    put(join(item, '.codex/auth.json'), '{"OPENAI_API_KEY":"sk-theirs","extra":1}');
    for (const f of ['.codex/config.toml', '.codex/auth.json']) utimesSync(join(item, f), later, later);
    writeBackLogins(session);
    expect(readFileSync(join(host, '.codex/config.toml'), 'utf8')).toBe('model = "gpt-5"\n');
    expect(readFileSync(join(host, '.codex/auth.json'), 'utf8')).toBe('{"OPENAI_API_KEY":"sk-mine"}');
    // The copies inside are the host's again.
    expect(readFileSync(join(item, '.codex/config.toml'), 'utf8')).toBe('model = "gpt-5"\n');
    expect(readFileSync(join(item, '.codex/auth.json'), 'utf8')).toBe('{"OPENAI_API_KEY":"sk-mine"}');
  });

  it('follows no link the task left in its HOME: none is read, none is written through', () => {
    const { root, host, item, session } = setup();
    const secret = join(root, 'id_ed25519');
    put(secret, 'PRIVATE KEY', 0);
    const outside = join(root, 'outside');
    mkdirSync(outside);
    put(join(host, '.claude/.credentials.json'), '{"token":"first"}', 60);
    copyInLogins(CLAUDE, { HOME: host }, item, session);
    // The file becomes a link to a key of the server's, newer than the login.
    const copy = join(item, '.claude/.credentials.json');
    rmSync(copy);
    symlinkSync(secret, copy);
    writeBackLogins(session);
    expect(readFileSync(join(host, '.claude/.credentials.json'), 'utf8')).toBe('{"token":"first"}');
    expect(lstatSync(copy).isSymbolicLink()).toBe(false);
    expect(readFileSync(copy, 'utf8')).toBe('{"token":"first"}');
    // Its folder becomes a link to a folder outside: the copy is not written there.
    rmSync(join(item, '.claude'), { recursive: true });
    symlinkSync(outside, join(item, '.claude'));
    copyInLogins(CLAUDE, { HOME: host }, item, session);
    expect(readdirSync(outside)).toEqual([]);
    expect(lstatSync(join(item, '.claude')).isDirectory()).toBe(true);
    expect(readFileSync(copy, 'utf8')).toBe('{"token":"first"}');
  });

  it('removes a dropped login without reaching through a link the task made to a folder outside', () => {
    const { root, host, item, session } = setup();
    const outside = join(root, 'real-claude');
    put(join(outside, '.credentials.json'), "the server user's own login");
    symlinkSync(outside, join(item, '.claude'));
    // The user has no login in the task's HOME: the copy goes, and only the link with it.
    copyInLogins(CLAUDE, { HOME: host }, item, session);
    expect(readFileSync(join(outside, '.credentials.json'), 'utf8')).toBe("the server user's own login");
    expect(existsSync(join(item, '.claude'))).toBe(false);
  });

  it("keeps the user's login when both sides changed, and reads both files from the folder variable as it was", () => {
    const { root, item, session, host } = setup();
    const codexHome = join(root, 'codex-home');
    put(join(codexHome, 'auth.json'), '{"OPENAI_API_KEY":"sk-1"}');
    put(join(codexHome, 'config.toml'), 'model = "gpt-5"\n');
    const env: Record<string, string> = { HOME: host, CODEX_HOME: codexHome };
    const files = [
      { path: '.codex/auth.json', env: 'CODEX_HOME', renew: true },
      { path: '.codex/config.toml', env: 'CODEX_HOME' },
    ];
    copyInLogins(files, env, item, session);
    // Both from the user's CODEX_HOME, though the variable now names the copies' folder.
    expect(env.CODEX_HOME).toBe(join(item, '.codex'));
    expect(readFileSync(join(item, '.codex/config.toml'), 'utf8')).toBe('model = "gpt-5"\n');
    put(join(item, '.codex/auth.json'), '{"OPENAI_API_KEY":"sk-renewed-inside"}');
    put(join(codexHome, 'auth.json'), '{"OPENAI_API_KEY":"sk-renewed-outside"}');
    writeBackLogins(session);
    expect(readFileSync(join(codexHome, 'auth.json'), 'utf8')).toBe(
      '{"OPENAI_API_KEY":"sk-renewed-outside"}',
    );
    expect(readFileSync(join(item, '.codex/auth.json'), 'utf8')).toBe(
      '{"OPENAI_API_KEY":"sk-renewed-outside"}',
    );
  });

  it('a FIFO or a folder in place of the copy neither hangs the server nor is written back', () => {
    const { host, item, session } = setup();
    put(join(host, '.claude/.credentials.json'), '{"token":"first"}');
    copyInLogins(CLAUDE, { HOME: host }, item, session);
    const copy = join(item, '.claude/.credentials.json');
    rmSync(copy);
    execFileSync('mkfifo', [copy]);
    writeBackLogins(session);
    expect(readFileSync(copy, 'utf8')).toBe('{"token":"first"}');
    rmSync(copy);
    mkdirSync(copy);
    writeBackLogins(session);
    expect(readFileSync(copy, 'utf8')).toBe('{"token":"first"}');
    expect(readFileSync(join(host, '.claude/.credentials.json'), 'utf8')).toBe('{"token":"first"}');
  });

  it('a session with no login files (or a broken note of them) writes nothing back', () => {
    const { session } = setup();
    expect(() => writeBackLogins(session)).not.toThrow();
    mkdirSync(session);
    writeFileSync(join(session, 'logins.json'), '{"not":"a list"}');
    expect(() => writeBackLogins(session)).not.toThrow();
  });
});
