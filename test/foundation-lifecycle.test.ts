import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from './helpers/eventually.js';
import { cleanupAll, http, runJig, startJig, tempHome } from './helpers/server.js';

afterEach(cleanupAll);

describe('stopping', () => {
  it('on SIGTERM finishes the request in flight, then exits 0 and removes its pid file', async () => {
    const jig = await startJig();
    const { port } = new URL(jig.url);
    const sock = connect(Number(port), '127.0.0.1');
    await new Promise((r) => sock.once('connect', r));
    const closed = new Promise((r) => sock.once('close', r));
    let answer = '';
    sock.setEncoding('utf8').on('data', (d: string) => (answer += d));
    const body = '{}';
    // Headers and half of nothing: the body is still to come when the signal lands. The server
    // says it has read the headers (the request is in flight) with its 100 Continue.
    sock.write(
      `POST /api/apply/reload HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
    );
    const cont = 'HTTP/1.1 100 Continue\r\n\r\n';
    await eventually(() => answer === cont, { what: 'the 100 Continue', everyMs: 20 });
    jig.proc.kill('SIGTERM');
    const log = join(jig.home, 'run', 'logs', 'server.log');
    await eventually(() => readFileSync(log, 'utf8').includes('"msg":"stopping: no new requests'), {
      what: 'the server to begin its stop',
      everyMs: 20,
    });
    expect(jig.proc.exitCode).toBe(null); // still waiting on the request in flight
    sock.write(body);
    const exit = await jig.exited;
    await closed;
    expect(answer.startsWith(cont)).toBe(true);
    answer = answer.slice(cont.length);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answer).toContain('"loaded":[');
    expect(exit).toEqual({ code: 0, signal: null });
    expect(existsSync(join(jig.home, 'run', 'jig.pid'))).toBe(false);
    const logged = readFileSync(log, 'utf8');
    expect(logged).toContain('"signal":"SIGTERM"');
    expect(logged).toContain('"msg":"jig stopped"');
    sock.destroy();
  });

  it('on SIGINT exits 0', async () => {
    const jig = await startJig();
    expect(await jig.stop('SIGINT')).toEqual({ code: 0, signal: null });
  });
});

describe('one server per home', () => {
  it('refuses a second server and names the running one', async () => {
    const first = await startJig();
    const { port } = new URL(first.url);
    const second = await runJig(['serve', '--port', '0'], { JIG_HOME: first.home });
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(
      `jig: another Jig server is already running on this home: pid ${first.pid}, on 127.0.0.1:${port}\n`,
    );
    // The first is untouched.
    expect((await http(`${first.url}/api/health`)).status).toBe(200);
  });

  it('takes over the pid file of a server killed with kill -9', async () => {
    const home = tempHome();
    const first = await startJig({ home });
    expect((await first.stop('SIGKILL')).signal).toBe('SIGKILL');
    expect(existsSync(join(home, 'run', 'jig.pid'))).toBe(true);
    const second = await startJig({ home });
    const rec = JSON.parse(readFileSync(join(home, 'run', 'jig.pid'), 'utf8'));
    expect(rec.pid).toBe(second.pid);
    expect((await http(`${second.url}/api/health`)).json.pid).toBe(second.pid);
  });

  it('says clearly when the port is taken by something else', async () => {
    const first = await startJig();
    const { port } = new URL(first.url);
    const r = await runJig(['serve', '--port', port], { JIG_HOME: tempHome() });
    expect(r.code).toBe(1);
    expect(
      r.stderr.endsWith(`jig: port ${port} on 127.0.0.1 is already in use; pick another with --port\n`),
    ).toBe(true);
  });
});

describe('the CLI', () => {
  it('prints its version', async () => {
    const r = await runJig(['--version']);
    expect(r).toEqual({ code: 0, stdout: '2.0.0\n', stderr: '' });
  });

  it('admin health exits 1 with a clear line when no server runs', async () => {
    const r = await runJig(['admin', 'health'], { JIG_HOME: tempHome(), JIG_URL: 'http://127.0.0.1:1' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^jig: no Jig server answers at http:\/\/127\.0\.0\.1:1 \(.+\); start one with `jig serve`\n$/,
    );
  });

  it('admin health finds the server of JIG_HOME through its pid file', async () => {
    const jig = await startJig();
    const r = await runJig(['admin', 'health', '--json'], { JIG_HOME: jig.home });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).pid).toBe(jig.pid);
    const human = await runJig(['admin', 'health'], { JIG_HOME: jig.home });
    expect(human.code).toBe(0);
    expect(human.stdout.split('\n')[0]).toBe('ok · jig 2.0.0');
  });

  it('an unknown verb is a usage error (exit 2)', async () => {
    const r = await runJig(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'frobnicate'");
  });
});
