import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupAll, http, startJig, type JigProcess } from './helpers/server.js';

/*
 * The appearance and access settings routes on a real server over its seeded files: a save keeps
 * the file's comments, a bad value is refused naming its field with nothing written, and a new
 * address or port waits for a restart, which GET /api/apply says.
 */

let jig: JigProcess;
const file = (name: string) => join(jig.home, 'config', name);
const put = (path: string, body: unknown) => http(`${jig.url}${path}`, { method: 'PUT', body });

beforeAll(async () => {
  jig = await startJig();
});
afterAll(cleanupAll);

describe('theme settings', () => {
  it('reads theme.yaml, merges board key by key, keeps comments, refuses a bad value naming it', async () => {
    expect((await http(`${jig.url}/api/theme`)).json).toEqual({
      mode: 'system',
      surface: 'neutral',
      accent: 'indigo',
      colour_amount: 40,
      density: 'comfortable',
      board: { group_by: 'status', show_done: 5, open_in: 'peek' },
      problem: null,
    });
    const saved = await put('/api/theme', { accent: 'teal', board: { show_done: 3 } });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json).toMatchObject({
      accent: 'teal',
      board: { group_by: 'status', show_done: 3, open_in: 'peek' },
    });
    const text = readFileSync(file('theme.yaml'), 'utf8');
    expect(text).toContain('accent: teal # highlight colour');
    expect(text).toContain('show_done: 3 # how many finished items');
    expect(text).toContain('# Board appearance. The Appearance settings write this file.');
    const bad = await put('/api/theme', { accent: 'pink' });
    expect(bad.status).toBe(422);
    expect(bad.json).toMatchObject({ code: 'settings_invalid' });
    expect(bad.json.detail).toMatch(/^theme\.yaml would not load: accent: /);
    expect(readFileSync(file('theme.yaml'), 'utf8')).toBe(text);
    expect((await put('/api/theme', { palette: 'rose' })).status).toBe(422);
  });
});

describe('access settings', () => {
  it('shows where it listens; a new port waits for a restart, which apply says', async () => {
    const port = Number(new URL(jig.url).port);
    expect((await http(`${jig.url}/api/access`)).json).toEqual({
      bind: '127.0.0.1',
      port: 8765,
      allowed_hosts: [],
      session_expiry_days: 7,
      password_set: false,
      running: { bind: '127.0.0.1', port },
      restart_needed: false,
      problem: null,
    });
    const before = (await http(`${jig.url}/api/apply`)).json;
    expect(before.restart_needed).toBe(false);
    expect(before.files.find((f: any) => f.file === 'access.yaml')).toMatchObject({
      applies_by: 'restart',
      changed: false,
    });

    const saved = await put('/api/access', { port: 9999, allowed_hosts: ['jig.example'] });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json).toMatchObject({
      port: 9999,
      allowed_hosts: ['jig.example'],
      restart_needed: true,
      running: { port },
    });
    expect(readFileSync(file('access.yaml'), 'utf8')).toContain('port: 9999 # TCP port for the board');
    expect(statSync(file('access.yaml')).mode & 0o777).toBe(0o600);
    const after = (await http(`${jig.url}/api/apply`)).json;
    expect(after.restart_needed).toBe(true);
    expect(after.files.find((f: any) => f.file === 'access.yaml')).toMatchObject({
      applies_by: 'restart',
      changed: true,
    });
  });

  it('refuses an address off loopback without a password, a bad value, and the password hash', async () => {
    const text = readFileSync(file('access.yaml'), 'utf8');
    const open = await put('/api/access', { bind: '0.0.0.0' });
    expect(open.status).toBe(403);
    expect(open.json.code).toBe('remote_needs_password');
    const bad = await put('/api/access', { port: 70000 });
    expect(bad.status).toBe(422);
    expect(bad.json.detail).toMatch(/^access\.yaml would not load: port: /);
    expect((await put('/api/access', { password_hash: 'x' })).status).toBe(422);
    expect(readFileSync(file('access.yaml'), 'utf8')).toBe(text);
    expect(JSON.stringify((await http(`${jig.url}/api/access`)).json)).not.toContain('password_hash');
  });
});

describe('password and tokens', () => {
  it('sets the password (checked, hashed), asks for the current one to change it, and clears it', async () => {
    const url = '/api/access/password';
    const short = await put(url, { password: 'short' });
    expect(short.status).toBe(422);
    expect(short.json.detail).toMatch(/^body\.password: the password needs at least/);
    const set = await put(url, { password: 'a long enough passphrase' });
    expect(set.status, set.text).toBe(200);
    expect(set.json.password_set).toBe(true);
    expect(readFileSync(file('access.yaml'), 'utf8')).toMatch(/password_hash: \$scrypt\$/);
    expect(set.text).not.toContain('scrypt');
    expect((await put(url, { password: null })).status).toBe(401);
    expect((await put(url, { password: null, current: 'not it at all' })).json.code).toBe('wrong_password');
    const cleared = await put(url, { password: null, current: 'a long enough passphrase' });
    expect(cleared.status).toBe(200);
    expect(cleared.json.password_set).toBe(false);
    expect(readFileSync(file('access.yaml'), 'utf8')).toContain('password_hash: null');
  });

  it('rotates the tokens into new 0600 files, answering which', async () => {
    const mcp = join(jig.home, 'run', 'mcp-token');
    const before = readFileSync(mcp, 'utf8');
    const r = await http(`${jig.url}/api/access/rotate-tokens`, {
      method: 'POST',
      body: { tokens: ['mcp'] },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({ rotated: ['mcp'] });
    const after = readFileSync(mcp, 'utf8');
    expect(after).not.toBe(before);
    expect(after.trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(mcp).mode & 0o777).toBe(0o600);
    expect(r.text).not.toContain(after.trim());
  });
});
