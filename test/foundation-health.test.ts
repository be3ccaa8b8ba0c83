import { hostname } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bootClocked, closeClocked } from './helpers/engine-clock.js';
import { cleanupAll, http, repoRoot, runJig, startJig, tempHome } from './helpers/server.js';
import { mkdirSync } from 'node:fs';

afterEach(cleanupAll);

describe('GET /api/health', () => {
  it('answers every field with real values', async () => {
    const launched = Date.now();
    const jig = await startJig();
    const { port } = new URL(jig.url);
    const res = await http(`${jig.url}/api/health`);
    const asked = Date.now();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const h = res.json;
    // Seconds, to a tenth, since the server started: within the time since it was launched.
    expect(h.uptime_s).toBeGreaterThanOrEqual(0);
    expect(h.uptime_s).toBeLessThanOrEqual(Math.ceil((asked - launched) / 100) / 10);
    expect({ ...h, uptime_s: 0 }).toEqual({
      status: 'ok',
      invalid_templates: null,
      invalid_policy: null,
      invalid_intake: null,
      intake_off: false,
      run_dir: join(jig.home, 'run'),
      pid: jig.pid,
      uptime_s: 0,
      bind: '127.0.0.1',
      port: Number(port),
      version: '2.0.0',
      installed: '2.0.0',
      reattach_summary: { scanned: 0, adopted: 0, resolved_from_file: 0, unknown: 0, resumed_work_items: 0 },
      config_rolled_back: [],
      // The chains and library components are indexed at start; nothing has been rescanned.
      index: { last_scan_at: null, repos_scanned: 0, documents: expect.any(Number), embeddings: 'off' },
      // This request's own socket, at least (the test's client may keep another one alive).
      connections: { sockets: expect.any(Number), websockets: 0 },
      session_expiry_days: 7,
      store: 'sqlite',
      worker: `${hostname()}:${jig.pid}`,
      // On SQLite the one server walks everything: it is the only process listed.
      workers: [
        {
          name: `${hostname()}:${jig.pid}`,
          role: 'serve',
          host: hostname(),
          pid: jig.pid,
          takes_work: true,
          started_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          heartbeat_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          alive: true,
          self: true,
          leads: true,
        },
      ],
    });
    expect(h.index.documents).toBeGreaterThan(0);
  });

  it('counts uptime_s on the server clock, from its start', async () => {
    const jig = await bootClocked(tempHome());
    try {
      const uptime = async () => (await http(`${jig.url}/api/health`)).json.uptime_s;
      expect(await uptime()).toBe(0);
      await jig.clock.advance(90_000);
      expect(await uptime()).toBe(90);
      await jig.clock.advance(1_240);
      expect(await uptime()).toBe(91.2);
    } finally {
      await closeClocked();
    }
  });

  it('reports session_expiry_days from access.yaml', async () => {
    const home = tempHome();
    mkdirSync(join(home, 'config'), { recursive: true });
    writeFileSync(join(home, 'config', 'access.yaml'), 'session_expiry_days: 3\n');
    const jig = await startJig({ home });
    expect((await http(`${jig.url}/api/health`)).json.session_expiry_days).toBe(3);
  });
});

describe('degraded configuration', () => {
  it('names file, line and column of a library that does not load, and reload clears it once fixed', async () => {
    const home = tempHome();
    mkdirSync(join(home, 'config'), { recursive: true });
    const library = readFileSync(join(repoRoot, 'defaults', 'config', 'library.yaml'), 'utf8');
    writeFileSync(join(home, 'config', 'library.yaml'), `${library}\nbroken: [1, 2\n`);
    const jig = await startJig({ home });
    let h = (await http(`${jig.url}/api/health`)).json;
    expect(h.status).toBe('degraded');
    expect(h.invalid_templates).toMatch(/^library\.yaml:\d+:\d+: /);
    expect(h.invalid_policy).toBe(null);
    const cli = await runJig(['admin', 'health'], { JIG_HOME: home });
    expect(cli.code).toBe(1);
    expect(cli.stdout.split('\n')[0]).toBe('degraded · jig 2.0.0');

    const refused = await http(`${jig.url}/api/apply/reload`, { method: 'POST' });
    expect(refused.status).toBe(422);
    expect(refused.json.code).toBe('config_refused');
    expect(refused.json.detail).toBe('a configuration file was refused: library.yaml');
    expect(refused.json.refused.map((r: { file: string }) => r.file)).toEqual(['library.yaml']);
    expect(refused.json.refused[0].problems[0]).toMatchObject({
      file: 'library.yaml',
      line: expect.any(Number),
    });
    const cliReload = await runJig(['admin', 'reload'], { JIG_HOME: home });
    expect(cliReload.code).toBe(1);
    expect(cliReload.stdout).toMatch(
      /^refused 1 file\(s\); the running version of each is kept:\nlibrary\.yaml:\d+:\d+: /,
    );

    writeFileSync(join(home, 'config', 'library.yaml'), library);
    const ok = await http(`${jig.url}/api/templates/reload`, { method: 'POST' });
    expect(ok.status).toBe(200);
    expect(ok.json.refused).toEqual([]);
    h = (await http(`${jig.url}/api/health`)).json;
    expect(h.status).toBe('ok');
    expect(h.invalid_templates).toBe(null);
    const cliOk = await runJig(['admin', 'reload'], { JIG_HOME: home });
    expect(cliOk).toMatchObject({
      code: 0,
      stdout: `reloaded ${ok.json.loaded.length} file(s): harnesses.yaml, intake.yaml, library.yaml, notify.yaml, policy.yaml, repos.yaml, 4 chains\n`,
    });
  });

  it('turns schedules off when started on an intake.yaml that does not load, and on again after a good reload', async () => {
    const home = tempHome();
    mkdirSync(join(home, 'config'), { recursive: true });
    writeFileSync(join(home, 'config', 'intake.yaml'), 'enabled: [\n');
    const jig = await startJig({ home });
    let h = (await http(`${jig.url}/api/health`)).json;
    expect(h).toMatchObject({ status: 'degraded', intake_off: true });
    expect(h.invalid_intake).toMatch(/^intake\.yaml:\d+:\d+: /);
    writeFileSync(join(home, 'config', 'intake.yaml'), 'enabled: false\n');
    expect((await http(`${jig.url}/api/apply/reload`, { method: 'POST' })).status).toBe(200);
    h = (await http(`${jig.url}/api/health`)).json;
    expect(h).toMatchObject({ status: 'ok', intake_off: false, invalid_intake: null });
  });

  it('keeps schedules on when a reload refuses intake.yaml, and reports why', async () => {
    const jig = await startJig();
    writeFileSync(join(jig.home, 'config', 'intake.yaml'), 'schedules: {\n');
    expect((await http(`${jig.url}/api/apply/reload`, { method: 'POST' })).status).toBe(422);
    const h = (await http(`${jig.url}/api/health`)).json;
    expect(h).toMatchObject({ status: 'degraded', intake_off: false });
    expect(h.invalid_intake).toMatch(/^intake\.yaml:\d+:\d+: /);
  });
});

describe('the store', () => {
  it('refuses to start on a database written by a newer Jig', async () => {
    const first = await startJig();
    await first.stop();
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(join(first.home, 'run', 'jig.db'));
    db.prepare('INSERT INTO jig_schema (version, applied_at) VALUES (999, ?)').run(new Date().toISOString());
    db.close();
    const r = await runJig(['serve', '--port', '0'], { JIG_HOME: first.home });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('is at schema version 999, newer than this Jig knows');
    expect(r.stderr).toContain('upgrade Jig, or start with another JIG_HOME');
  });
});
