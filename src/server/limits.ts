import { readFileSync } from 'node:fs';
import type { ServerOptions } from 'node:http';

/**
 * How long the HTTP server waits for a client, and how many connections it holds (docs/security.md,
 * "Connection limits"). Node 20 and Fastify 5 by default close a socket that sends nothing or half a
 * header only after 60-90 s (Node's 60 s headers timeout, checked every 30 s), never close one that
 * trickles a body (Fastify turns Node's request timeout off), keep an idle kept-alive socket 72 s,
 * and hold any number of sockets: enough to run the process out of file descriptors before a
 * single request reaches the perimeter.
 */

/** From accepting a socket (or the end of the previous request on it) to the last header line. */
export const HEADERS_TIMEOUT_MS = 15_000;
/** From accepting a socket to the last byte of the request body (bodies are at most 1 MiB). */
export const REQUEST_TIMEOUT_MS = 60_000;
/** An idle kept-alive socket between two requests. */
export const KEEP_ALIVE_TIMEOUT_MS = 10_000;
/**
 * No byte either way on an HTTP socket (a client that stops reading its answer). It also runs
 * while a handler works, so it stays above the handlers' own bounds: a route may run a few git
 * commands of up to 30 s each. A WebSocket turns it off once upgraded.
 */
export const IDLE_SOCKET_TIMEOUT_MS = 120_000;
/** How often Node looks for sockets past the headers or request timeout (its default is 30 s). */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;
/**
 * Sockets held at once, WebSockets included. One more closes the oldest socket that has not sent
 * a whole request (server/connections.ts), or is itself closed on accept when every socket held is
 * answering or streaming.
 */
export const MAX_CONNECTIONS = 1_000;
/** WebSockets are at most this share of the connections, so they never take the slots HTTP needs. */
export const WEBSOCKET_SHARE = 4;
/** Off loopback, one remote address holds at most this share of the connections and of the WebSockets. */
export const PER_ADDRESS_SHARE = 4;
/** How often an open WebSocket is pinged; one that has not answered the last ping is dropped. */
export const WEBSOCKET_PING_MS = 25_000;
/** After Jig closes a WebSocket, how long it waits for the client's close frame before cutting it. */
export const WEBSOCKET_CLOSE_TIMEOUT_MS = 5_000;

export interface ServerLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  idleSocketTimeoutMs: number;
  checkIntervalMs: number;
  maxConnections: number;
  maxWebSockets: number;
  /** Per remote (not loopback) address. */
  maxPerAddress: number;
  maxWebSocketsPerAddress: number;
  pingMs: number;
  closeTimeoutMs: number;
}

/** Test knobs: they can only shorten the timeouts and lower the cap, never lift a limit. */
export const TIMEOUT_SCALE_ENV = 'JIG_TEST_TIMEOUT_SCALE';
export const MAX_CONNECTIONS_ENV = 'JIG_TEST_MAX_CONNECTIONS';

function knob(env: NodeJS.ProcessEnv, name: string, ok: (n: number) => boolean, want: string): number | null {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return null;
  const n = Number(raw);
  if (!ok(n)) throw new Error(`${name} must be ${want} (got ${raw})`);
  return n;
}

/** The process's open-file limit (Linux), or null where it cannot be read. */
function openFilesLimit(): number | null {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line ? Number(line[1]) : null;
  } catch {
    return null;
  }
}

/**
 * The limits in force: the constants above, scaled down by `JIG_TEST_TIMEOUT_SCALE` (0 < s <= 1)
 * and capped by `JIG_TEST_MAX_CONNECTIONS`, so tests need not wait a minute. The connection cap
 * also stays at or below half the open-file limit, leaving descriptors for the database, logs and
 * agent processes; the WebSocket and per-address caps follow it.
 */
export function serverLimits(env: NodeJS.ProcessEnv = process.env): ServerLimits {
  const scale = knob(env, TIMEOUT_SCALE_ENV, (n) => n > 0 && n <= 1, 'a number above 0 and at most 1') ?? 1;
  const cap =
    knob(
      env,
      MAX_CONNECTIONS_ENV,
      (n) => Number.isInteger(n) && n >= 1 && n <= MAX_CONNECTIONS,
      `a whole number from 1 to ${MAX_CONNECTIONS}`,
    ) ?? MAX_CONNECTIONS;
  const files = openFilesLimit();
  const ms = (base: number): number => Math.max(10, Math.round(base * scale));
  const maxConnections = files === null ? cap : Math.max(1, Math.min(cap, Math.floor(files / 2)));
  const maxWebSockets = Math.max(1, Math.floor(maxConnections / WEBSOCKET_SHARE));
  return {
    headersTimeoutMs: ms(HEADERS_TIMEOUT_MS),
    requestTimeoutMs: ms(REQUEST_TIMEOUT_MS),
    keepAliveTimeoutMs: ms(KEEP_ALIVE_TIMEOUT_MS),
    idleSocketTimeoutMs: ms(IDLE_SOCKET_TIMEOUT_MS),
    checkIntervalMs: ms(TIMEOUT_CHECK_INTERVAL_MS),
    maxConnections,
    maxWebSockets,
    maxPerAddress: Math.max(1, Math.floor(maxConnections / PER_ADDRESS_SHARE)),
    maxWebSocketsPerAddress: Math.max(1, Math.floor(maxWebSockets / PER_ADDRESS_SHARE)),
    pingMs: ms(WEBSOCKET_PING_MS),
    closeTimeoutMs: ms(WEBSOCKET_CLOSE_TIMEOUT_MS),
  };
}

/** The part of the limits Fastify takes as options (the caps are server/connections.ts's). */
export function fastifyTimeouts(l: ServerLimits): {
  connectionTimeout: number;
  keepAliveTimeout: number;
  requestTimeout: number;
  http: ServerOptions;
} {
  return {
    connectionTimeout: l.idleSocketTimeoutMs,
    keepAliveTimeout: l.keepAliveTimeoutMs,
    requestTimeout: l.requestTimeoutMs,
    // Only read when the server is made: Fastify has no options of its own for these two.
    http: { headersTimeout: l.headersTimeoutMs, connectionsCheckingInterval: l.checkIntervalMs },
  };
}
