import { connect, type Socket } from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HEADERS_TIMEOUT_MS,
  IDLE_SOCKET_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  MAX_CONNECTIONS,
  MAX_CONNECTIONS_ENV,
  REQUEST_TIMEOUT_MS,
  TIMEOUT_SCALE_ENV,
  serverLimits,
} from '../src/server/limits.js';
import { eventually } from './helpers/eventually.js';
import { cleanupAll, http, startJig, type JigProcess } from './helpers/server.js';

/**
 * Connection limits (docs/security.md): a socket that sends nothing, trickles its header or its
 * body, or idles between requests is closed after a bounded time, and past the connection cap a new
 * socket closes the oldest idle one (test/server-flood.test.ts: floods), while a WebSocket is never
 * cut for idling. The server runs with its
 * timeouts scaled down (JIG_TEST_TIMEOUT_SCALE) so that nothing here waits a minute; every check is
 * "closed within N times the timeout", bounded in count and time.
 */

const SCALE = 0.02;
const scaled = (ms: number): number => Math.round(ms * SCALE);

interface Closed {
  /** The first line the server sent, '' when it sent nothing. */
  firstLine: string;
  /** Whether the server closed it (false: still open when we gave up and closed it ourselves). */
  byServer: boolean;
}

/**
 * Opens a raw socket, runs `drive` on connect, and waits (at most `withinMs`) for the server to
 * close it. A driver's timer stops when the socket does.
 */
function held(port: number, withinMs: number, drive: (s: Socket) => void = () => {}): Promise<Closed> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    let text = '';
    s.setEncoding('latin1');
    s.on('data', (d: string) => (text += d));
    s.on('error', () => {});
    s.on('connect', () => drive(s));
    const giveUp = setTimeout(() => {
      s.destroy();
      resolve({ firstLine: text.split('\r\n')[0]!, byServer: false });
    }, withinMs);
    s.on('close', () => {
      clearTimeout(giveUp);
      resolve({ firstLine: text.split('\r\n')[0]!, byServer: true });
    });
  });
}

/** Writes `text` one byte every `everyMs` until the socket closes (a slowloris). */
function trickle(text: string, everyMs: number): (s: Socket) => void {
  return (s) => {
    let i = 0;
    const timer = setInterval(() => {
      if (s.destroyed || i >= text.length) clearInterval(timer);
      else s.write(text[i++]!);
    }, everyMs);
    s.on('close', () => clearInterval(timer));
  };
}

const CLOSED_408 = { firstLine: 'HTTP/1.1 408 Request Timeout', byServer: true };

afterAll(cleanupAll);

describe('serverLimits', () => {
  it('holds the documented numbers, and the test knobs can only tighten them', () => {
    const l = serverLimits({});
    expect(l).toMatchObject({
      headersTimeoutMs: 15_000,
      requestTimeoutMs: 60_000,
      keepAliveTimeoutMs: 10_000,
      idleSocketTimeoutMs: 120_000,
      checkIntervalMs: 1_000,
    });
    expect(l.maxConnections).toBeLessThanOrEqual(MAX_CONNECTIONS);
    expect(serverLimits({ [TIMEOUT_SCALE_ENV]: '0.5', [MAX_CONNECTIONS_ENV]: '7' })).toMatchObject({
      headersTimeoutMs: 7_500,
      requestTimeoutMs: 30_000,
      maxConnections: 7,
    });
    for (const bad of ['2', '0', '-1', 'fast', 'NaN'])
      expect(() => serverLimits({ [TIMEOUT_SCALE_ENV]: bad }), bad).toThrow(
        `JIG_TEST_TIMEOUT_SCALE must be a number above 0 and at most 1 (got ${bad})`,
      );
    for (const bad of ['0', '1.5', String(MAX_CONNECTIONS + 1)])
      expect(() => serverLimits({ [MAX_CONNECTIONS_ENV]: bad }), bad).toThrow(
        `JIG_TEST_MAX_CONNECTIONS must be a whole number from 1 to ${MAX_CONNECTIONS} (got ${bad})`,
      );
  });
});

describe('timeouts (scaled down)', () => {
  let jig: JigProcess;
  let port: number;

  beforeAll(async () => {
    jig = await startJig({ env: { [TIMEOUT_SCALE_ENV]: String(SCALE) } });
    port = Number(new URL(jig.url).port);
  });

  it('closes sockets that send nothing, with a 408, after the headers timeout', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, () => held(port, 20 * scaled(HEADERS_TIMEOUT_MS))),
    );
    expect(results).toEqual(Array.from({ length: 50 }, () => CLOSED_408));
    expect((await http(`${jig.url}/api/health`)).status).toBe(200);
  });

  it('closes a header trickled a byte at a time (slowloris), and half a header left hanging', async () => {
    const header = `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Pad: ${'a'.repeat(5_000)}\r\n\r\n`;
    const within = 20 * scaled(HEADERS_TIMEOUT_MS);
    const [trickled, hanging] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => held(port, within, trickle(header, 20)))),
      Promise.all(Array.from({ length: 10 }, () => held(port, within, (s) => s.write(header.slice(0, 60))))),
    ]);
    // A trickler is still writing when the server closes it: a byte that arrives after the close
    // makes the server's kernel answer with a reset, and the client's kernel may then drop the 408
    // it had not yet read. What holds is that the server ended every one of them.
    for (const r of trickled) {
      expect(r.byServer).toBe(true);
      expect(['HTTP/1.1 408 Request Timeout', '']).toContain(r.firstLine);
    }
    expect(hanging).toEqual(Array.from({ length: 10 }, () => CLOSED_408));
    expect((await http(`${jig.url}/api/health`)).status).toBe(200);
  });

  it('closes a body trickled a byte at a time, after the request timeout', async () => {
    const head =
      `POST /api/triggers HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n';
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        held(port, 10 * scaled(REQUEST_TIMEOUT_MS), (s) => {
          s.write(head);
          trickle(' '.repeat(100_000), 50)(s);
        }),
      ),
    );
    // Node answers 408 when no answer has begun; either way the server ends the socket.
    for (const r of results) {
      expect(r.byServer).toBe(true);
      expect(['HTTP/1.1 408 Request Timeout', '']).toContain(r.firstLine);
    }
  });

  it('closes a kept-alive socket that stays idle after its request', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        held(port, 20 * scaled(KEEP_ALIVE_TIMEOUT_MS), (s) =>
          s.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`),
        ),
      ),
    );
    expect(results).toEqual(
      Array.from({ length: 10 }, () => ({ firstLine: 'HTTP/1.1 200 OK', byServer: true })),
    );
  });

  it('keeps a WebSocket open well past the idle-socket, request and headers timeouts', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/ws/events`);
    let closed: number | null = null;
    ws.on('close', (code) => (closed = code));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    // Three idle-socket timeouts with nothing sent either way (the server's own ping is every 25 s).
    await new Promise((r) => setTimeout(r, 3 * scaled(IDLE_SOCKET_TIMEOUT_MS)));
    expect(closed).toBeNull();
    expect(ws.readyState).toBe(WebSocket.OPEN);
    const pong = new Promise<void>((resolve) => ws.once('pong', () => resolve()));
    ws.ping();
    await pong;
    ws.close();
  });
});

describe('connection cap', () => {
  const CAP = 20;
  let jig: JigProcess;
  let port: number;

  beforeAll(async () => {
    // Full-length timeouts: the sockets held at the cap must outlast the checks below.
    jig = await startJig({ env: { [MAX_CONNECTIONS_ENV]: String(CAP) } });
    port = Number(new URL(jig.url).port);
  });

  /** Sends a whole request on a new socket and returns its status line ('' when closed unanswered). */
  function oneRequest(): Promise<string> {
    return new Promise((resolve) => {
      const s = connect(port, '127.0.0.1');
      let text = '';
      s.setEncoding('latin1');
      s.on('data', (d: string) => {
        text += d;
        if (text.includes('\r\n\r\n')) s.destroy();
      });
      s.on('error', () => {});
      s.on('connect', () =>
        s.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`),
      );
      s.on('close', () => resolve(text.split('\r\n')[0]!));
    });
  }

  it('past the cap, a new socket closes the oldest idle one instead of being refused', async () => {
    expect(await oneRequest()).toBe('HTTP/1.1 200 OK');
    const holders: Socket[] = [];
    const closed: number[] = [];
    const hold = (i: number): Promise<void> =>
      new Promise<void>((resolve) => {
        const s = connect(port, '127.0.0.1', () => resolve());
        s.on('error', () => {});
        s.on('close', () => closed.push(i));
        // Flowing, so that the server's end is read and the socket closes.
        s.resume();
        holders.push(s);
      });
    await Promise.all(Array.from({ length: CAP }, (_, i) => hold(i)));
    // Five times: a whole request past the cap is answered, and an idle socket, one of the first
    // ones held, made room for it; then one more idle socket fills the cap again.
    for (let i = 0; i < 5; i++) {
      expect(await oneRequest(), `over the cap, try ${i}`).toBe('HTTP/1.1 200 OK');
      await eventually(() => (closed.length === i + 1 ? true : undefined), {
        what: `holder ${i + 1} closed`,
      });
      await hold(CAP + i);
    }
    expect(closed.every((i) => i < CAP)).toBe(true);
    for (const s of holders) s.destroy();
  });
});
