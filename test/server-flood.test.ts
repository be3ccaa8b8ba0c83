import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONNECTIONS, MAX_CONNECTIONS_ENV, TIMEOUT_SCALE_ENV } from '../src/server/limits.js';
import { eventually } from './helpers/eventually.js';
import { makeRepo } from './helpers/git.js';
import {
  homeWithAccess,
  NETNS_REMOTE_ADDR,
  netnsAvailable,
  send,
  startJigInNetns,
  testHash,
  type NetnsJig,
} from './helpers/perimeter.js';
import { cleanupAll, http, startJig, type JigProcess } from './helpers/server.js';

/**
 * Floods (docs/security.md, "Connection limits"): idle sockets evict one another instead of locking
 * real clients out, WebSockets stop at a cap of their own, a WebSocket that stops answering pings
 * is cut, and one that never answers Jig's close frame is cut after a bound. Bounded in count (at
 * most a thousand sockets of each kind) and time.
 */

afterAll(cleanupAll);

/** A TCP port on 127.0.0.1, or a unix socket (the network namespace's forwarders). */
type Where = number | { socketPath: string };

const dial = (where: Where, onConnect?: () => void): Socket =>
  typeof where === 'number' ? connect(where, '127.0.0.1', onConnect) : connect(where.socketPath, onConnect);

/** Opens `n` sockets that send nothing, a hundred at a time. */
async function idleSockets(where: Where, n: number): Promise<Socket[]> {
  const all: Socket[] = [];
  for (let i = 0; i < n; i += 100) {
    const batch = Array.from(
      { length: Math.min(100, n - i) },
      () =>
        new Promise<Socket>((resolve) => {
          const s = dial(where, () => resolve(s));
          s.on('error', () => {});
          // Flowing, so that the server's end is read and the socket closes.
          s.resume();
          // A socket the server closes at once still counts as opened.
          s.on('close', () => resolve(s));
        }),
    );
    all.push(...(await Promise.all(batch)));
  }
  return all;
}

interface Upgrade {
  /** The status line's code; 0 when the socket closed before any answer. */
  status: number;
  /** The JSON body's code and detail of a refusal. */
  code: string | null;
  detail: string | null;
  socket: Socket;
}

/** A WebSocket handshake by hand; on 101 the socket stays open (and unread past the answer). */
function upgrade(where: Where, path = '/api/ws/events', headers = ''): Promise<Upgrade> {
  const host = `127.0.0.1:${typeof where === 'number' ? where : 8765}`;
  return new Promise((resolve) => {
    const s = dial(where);
    let text = '';
    let detail: string | null = null;
    s.setEncoding('latin1');
    s.on('error', () => {});
    const done = (status: number, code: string | null): void => {
      // Read no further: what follows stays in the kernel's buffers until the caller reads it.
      s.pause();
      s.removeAllListeners('data');
      resolve({ status, code, detail, socket: s });
    };
    s.on('data', (d: string) => {
      text += d;
      const head = /^HTTP\/1\.1 (\d+)/.exec(text);
      if (!head || !text.includes('\r\n\r\n')) return;
      const status = Number(head[1]);
      if (status === 101) return done(101, null);
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      const code = /"code":"([a-z_]+)"/.exec(body)?.[1];
      if (code !== undefined) {
        detail = /"detail":"([^"]*)"/.exec(body)?.[1] ?? null;
        done(status, code);
      }
    });
    s.on('close', () => done(Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0), null));
    s.on('connect', () =>
      s.write(
        `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n${headers}` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      ),
    );
  });
}

interface Probe {
  status: number | string;
  ms: number;
}

/** GETs /api/health on a fresh connection every 50 ms until stopped; each answer or error kept. */
function probeHealth(port: number): { stop(): Promise<Probe[]> } {
  const probes: Probe[] = [];
  let stopped = false;
  const one = (): Promise<void> =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const req = request({ host: '127.0.0.1', port, path: '/api/health', agent: false }, (res) => {
        res.resume();
        res.on('end', () => {
          probes.push({ status: res.statusCode ?? 0, ms: performance.now() - t0 });
          resolve();
        });
      });
      req.setTimeout(10_000, () => req.destroy(new Error('no answer in 10 s')));
      req.on('error', (err) => {
        probes.push({ status: err.message, ms: performance.now() - t0 });
        resolve();
      });
      req.end();
    });
  const loop = (async () => {
    while (!stopped) {
      await one();
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return probes;
    },
  };
}

describe('a flood, at the real caps', () => {
  let jig: JigProcess;
  let port: number;

  beforeAll(async () => {
    jig = await startJig();
    port = Number(new URL(jig.url).port);
  });

  it('1 000 idle sockets and 1 000 WebSockets: health and the API answer throughout', async () => {
    const probing = probeHealth(port);
    const idle = await idleSockets(port, MAX_CONNECTIONS);
    const upgrades: Upgrade[] = [];
    for (let i = 0; i < 1_000; i += 50)
      upgrades.push(...(await Promise.all(Array.from({ length: 50 }, () => upgrade(port)))));
    // Everything is held: the API still answers, a listing included.
    const list = await http(`${jig.url}/api/work-items?limit=5`);
    expect(list.status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    const probes = await probing.stop();

    const open = upgrades.filter((u) => u.status === 101);
    const refused = upgrades.filter((u) => u.status !== 101);
    expect(open).toHaveLength(MAX_CONNECTIONS / 4);
    // Refused at the handshake with the stream cap's code, or (an eviction) closed before any answer.
    for (const r of refused) expect([503, 0]).toContain(r.status);
    const codes = new Set(refused.filter((r) => r.status === 503).map((r) => r.code));
    expect([...codes]).toEqual(['stream_limit']);
    expect(refused.filter((r) => r.status === 503).length).toBeGreaterThan(500);
    // Every probe answered 200: none was refused or timed out while the sockets were held.
    const slowest = Math.max(...probes.map((p) => p.ms));
    expect(
      probes.filter((p) => p.status !== 200),
      `${probes.length} probes, slowest ${slowest.toFixed(0)} ms`,
    ).toEqual([]);
    expect(probes.length).toBeGreaterThan(5);

    // Idle sockets made room for the streams and the probes: the server closed them.
    const idleClosed = idle.filter((s) => s.destroyed).length;
    expect(idleClosed).toBeGreaterThanOrEqual(open.length);

    for (const s of [...idle, ...upgrades.map((u) => u.socket)]) s.destroy();
    // Once the streams are gone their slots are free again.
    const again = await eventually(
      async () => {
        const u = await upgrade(port);
        u.socket.destroy();
        return u.status === 101 ? u : undefined;
      },
      { what: 'a stream opening once the others are gone' },
    );
    expect(again.status).toBe(101);
  });
});

describe('a WebSocket that stops answering', () => {
  // Pings every 2.5 s, a close waited 0.5 s: long enough that a client busy for a moment (a loaded
  // machine) still answers in time, short enough against ws's own 30 s.
  const SCALE = 0.1;
  let jig: JigProcess;
  let port: number;
  let item: string;

  beforeAll(async () => {
    // First a home with an item, then twelve megabytes of its events written straight to the store:
    // more than the kernel and the stream's 4 MiB buffer hold for a client that reads nothing.
    const first = await startJig();
    const repo = makeRepo();
    expect(
      (await http(`${first.url}/api/repos`, { method: 'POST', body: { path: repo, test_command: '' } }))
        .status,
    ).toBe(201);
    const filed = await http(`${first.url}/api/triggers`, { method: 'POST', body: { title: 'Loud', repo } });
    expect(filed.status).toBe(201);
    item = filed.json.id;
    await first.stop();
    const db = new Database(join(first.home, 'run', 'jig.db'));
    const insert = db.prepare(
      "INSERT INTO events (work_item_id, type, by, node, payload, at) VALUES (?, 'title_changed', 'human', NULL, ?, ?)",
    );
    const payload = JSON.stringify({ from: 'a'.repeat(1_000), to: 'b'.repeat(1_000) });
    db.transaction(() => {
      for (let i = 0; i < 6_000; i++) insert.run(item, payload, new Date().toISOString());
    })();
    db.close();
    jig = await startJig({ home: first.home, env: { [TIMEOUT_SCALE_ENV]: String(SCALE) } });
    port = Number(new URL(jig.url).port);
  });

  it('is cut when it stops answering pings; one that answers stays', async () => {
    const quiet = new WebSocket(`ws://127.0.0.1:${port}/api/ws/events`, { autoPong: false });
    const lively = new WebSocket(`ws://127.0.0.1:${port}/api/ws/events`);
    let pings = 0;
    lively.on('ping', () => (pings += 1));
    await Promise.all(
      [quiet, lively].map(
        (w) => new Promise<void>((resolve, reject) => w.once('open', () => resolve()).once('error', reject)),
      ),
    );
    const code = await new Promise<number>((resolve) => quiet.once('close', (c) => resolve(c)));
    // Cut, not closed: it would not have answered a close frame either.
    expect(code).toBe(1006);
    // The quiet one was cut within two pings; the lively one answers them and stays open.
    await eventually(() => (pings >= 3 ? true : undefined), { what: 'three pings answered' });
    expect(lively.readyState).toBe(WebSocket.OPEN);
    lively.close();
  });

  it('closed as too slow (4008) and never answering the close frame, it is cut after a bound', async () => {
    const u = await upgrade(port, '/api/ws/events?after_seq=0');
    expect(u.status).toBe(101);
    // It reads nothing: the server pushes the backlog, passes its buffer limit, closes it (4008)
    // and, with no close frame back, cuts it after the bound (0.5 s here). Left to ws's default, it
    // would hold the connection 30 s waiting for a close frame this client never sends.
    await eventually(
      async () =>
        (await http(`${jig.url}/api/health`)).json.connections.websockets === 0 ? true : undefined,
      { what: 'the stream cut by the server', tries: 100, everyMs: 100 },
    );
    // Only now it reads: what the kernel held, then the end.
    let bytes = 0;
    const ended = new Promise<void>((resolve) => u.socket.once('close', () => resolve()));
    u.socket.on('data', (d: string) => (bytes += d.length));
    u.socket.resume();
    await ended;
    expect(bytes).toBeGreaterThan(1_000_000);
    // The events are all still there for a reconnect.
    const events = await http(`${jig.url}/api/work-items/${item}/events?limit=1&type=title_changed`);
    expect(events.status).toBe(200);
    expect(events.json.events).toHaveLength(1);
  });
});

describe.skipIf(!netnsAvailable())('a flood from one remote address (network namespace)', () => {
  // A cap of 40: one address holds at most 10 sockets, and 2 of the 10 WebSockets.
  let jig: NetnsJig;
  let bearer: string;

  beforeAll(async () => {
    // Off loopback a password must be set before anyone remote is let in; the MCP token is used.
    const hash = await testHash('a flood password');
    const home = homeWithAccess(`bind: 0.0.0.0\nport: 8765\npassword_hash: "${hash}"\n`);
    jig = await startJigInNetns(home, { [MAX_CONNECTIONS_ENV]: '40' });
    bearer = `Authorization: Bearer ${readFileSync(join(home, 'run', 'mcp-token'), 'utf8').trim()}\r\n`;
  });
  afterAll(async () => jig?.stop());

  const closedOf = (ss: Socket[]): number => ss.filter((s) => s.destroyed).length;

  it('holds one address to its share of the sockets and streams; loopback peers are not held to it', async () => {
    const remote = jig.remote as { socketPath: string };
    const local = jig.local as { socketPath: string };
    const idle = await idleSockets(remote, 15);
    await eventually(() => (closedOf(idle) === 5 ? true : undefined), { what: 'five remote sockets closed' });
    const locals = await idleSockets(local, 15);
    // A remote request is answered: one more of its address's idle sockets made room.
    const health = await send(remote, { path: '/api/health' });
    expect(health.status).toBe(200);
    await eventually(() => (closedOf(idle) === 6 ? true : undefined), {
      what: 'a sixth remote socket closed',
    });

    const streams = [];
    for (let i = 0; i < 3; i++) streams.push(await upgrade(remote, '/api/ws/events', bearer));
    expect(streams.map((u) => u.status)).toEqual([101, 101, 503]);
    expect(streams[2]).toMatchObject({
      code: 'stream_limit',
      detail: `no more live event streams can open: ${NETNS_REMOTE_ADDR} holds 2, the most one address may; close one (a board tab, a watch) or try again later`,
    });
    // From loopback (a proxy on the server's machine) the stream opens: only the total cap applies.
    const mine = await upgrade(local, '/api/ws/events', bearer);
    expect(mine.status).toBe(101);
    expect(closedOf(locals)).toBe(0);
    for (const s of [...idle, ...locals, ...streams.map((u) => u.socket), mine.socket]) s.destroy();
  });
});
