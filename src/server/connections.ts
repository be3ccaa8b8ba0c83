import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { JigError } from '../contract/errors.js';
import { isLoopbackAddress } from '../core/perimeter/hosts.js';
import type { ServerLimits } from './limits.js';

/** What one accepted socket is doing. */
interface Held {
  readonly address: string;
  /** A peer off loopback: counted against its address's caps. */
  readonly remote: boolean;
  /** Requests whose headers arrived and whose answer has not ended. */
  readonly answering: Set<IncomingMessage>;
  /** An upgrade is being handled, or the socket carries a WebSocket. */
  upgrading: boolean;
  websocket: boolean;
}

/** How often a cap being reached is logged at most (with what it did since the last line). */
const LOG_EVERY_MS = 60_000;

/**
 * Who may hold a socket (docs/security.md, "Connection limits"). Node's own `maxConnections` closes
 * every new socket once the cap is reached, so a client that opens idle sockets locks out everyone
 * else, health checks included, until its sockets time out. Here a new socket past a cap closes the
 * oldest socket that has not sent a whole request instead (one connected and silent, one between
 * two kept-alive requests, or one still trickling its body): an idle flood evicts itself, and a real
 * request, sent as soon as its socket opens, gets through. Only when every socket held is being
 * answered or streaming is the new one closed on accept. WebSockets, which never end by themselves,
 * have a cap of their own well below the connection cap and are refused at the handshake beyond it;
 * off loopback, one address holds at most a share of either.
 */
export class ConnectionGate {
  /** In the order accepted: the first evictable one is the oldest. */
  private readonly held = new Map<Socket, Held>();
  /** Remote addresses only: loopback peers are not held to a share. */
  private readonly perAddress = new Map<string, number>();
  private readonly websocketsPerAddress = new Map<string, number>();
  private websockets = 0;
  private evicted = 0;
  private refused = 0;
  private lastLog = 0;

  constructor(
    readonly limits: ServerLimits,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  /** Listens on the server; runs after Node's own connection handling, before any request. */
  install(server: Server): void {
    server.on('connection', (socket: Socket) => this.admit(socket));
    server.on('request', (req: IncomingMessage, res: ServerResponse) => this.answering(req, res));
    server.on('upgrade', (req: IncomingMessage) => {
      const h = this.held.get(req.socket);
      if (h) h.upgrading = true;
    });
  }

  /** Sockets held now, and WebSockets among them. */
  get counts(): { sockets: number; websockets: number } {
    return { sockets: this.held.size, websockets: this.websockets };
  }

  admit(socket: Socket): void {
    const address = socket.remoteAddress ?? '';
    const remote = address !== '' && !isLoopbackAddress(address);
    const h: Held = { address, remote, answering: new Set(), upgrading: false, websocket: false };
    this.held.set(socket, h);
    const fromAddress = remote ? (this.perAddress.get(address) ?? 0) + 1 : 0;
    if (remote) this.perAddress.set(address, fromAddress);
    socket.once('close', () => this.forget(socket, h));
    if (fromAddress > this.limits.maxPerAddress) this.makeRoom(socket, address);
    else if (this.held.size > this.limits.maxConnections) this.makeRoom(socket, null);
  }

  /**
   * Takes a WebSocket slot for the socket of an upgrade request, or refuses it (503) when the
   * WebSockets, or this address's, are at their cap. The slot is given back when the socket closes.
   */
  admitWebSocket(socket: Socket): void {
    const h = this.held.get(socket);
    if (!h || h.websocket) return;
    if (this.websockets >= this.limits.maxWebSockets)
      throw this.full(`all ${this.limits.maxWebSockets} are in use`);
    if (h.remote) {
      const mine = this.websocketsPerAddress.get(h.address) ?? 0;
      if (mine >= this.limits.maxWebSocketsPerAddress)
        throw this.full(`${h.address} holds ${mine}, the most one address may`);
      this.websocketsPerAddress.set(h.address, mine + 1);
    }
    h.websocket = true;
    this.websockets += 1;
  }

  private full(why: string): JigError {
    this.note('refused');
    return new JigError('stream_limit', { why });
  }

  private answering(req: IncomingMessage, res: ServerResponse): void {
    const h = this.held.get(req.socket);
    if (!h) return;
    h.answering.add(req);
    res.once('close', () => h.answering.delete(req));
  }

  /** Closes the oldest socket (of `address`, when given) that has not sent a whole request, or `fresh`. */
  private makeRoom(fresh: Socket, address: string | null): void {
    for (const [socket, h] of this.held) {
      if (socket === fresh || (address !== null && h.address !== address) || !evictable(h)) continue;
      socket.destroy();
      this.note('evicted');
      return;
    }
    fresh.destroy();
    this.note('refused');
  }

  private forget(socket: Socket, h: Held): void {
    this.held.delete(socket);
    if (h.remote) decrement(this.perAddress, h.address);
    if (h.websocket) this.websockets -= 1;
    if (h.websocket && h.remote) decrement(this.websocketsPerAddress, h.address);
  }

  private note(what: 'evicted' | 'refused'): void {
    if (what === 'evicted') this.evicted += 1;
    else this.refused += 1;
    const now = Date.now();
    if (now - this.lastLog < LOG_EVERY_MS) return;
    this.lastLog = now;
    this.log.warn(
      { ...this.counts, evicted: this.evicted, refused: this.refused },
      'a connection cap was reached: idle sockets were closed to make room, or new ones refused',
    );
    this.evicted = 0;
    this.refused = 0;
  }
}

/** Nothing is lost by closing it: no request that arrived whole is being answered on it. */
function evictable(h: Held): boolean {
  if (h.upgrading || h.websocket) return false;
  for (const req of h.answering) if (req.complete) return false;
  return true;
}

function decrement(counts: Map<string, number>, key: string): void {
  const n = (counts.get(key) ?? 0) - 1;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
}
