import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { JigError } from '../contract/errors.js';
import { ConnectionGate } from './connections.js';
import { serverLimits, type ServerLimits } from './limits.js';

/** A socket as the gate sees it: an address, and a close when destroyed. */
class FakeSocket extends EventEmitter {
  destroyed = false;
  constructor(
    readonly name: string,
    readonly remoteAddress: string,
  ) {
    super();
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('close');
  }
}

function gateWith(caps: Partial<ServerLimits>) {
  const warnings: unknown[] = [];
  const limits = { ...serverLimits({}), ...caps };
  const gate = new ConnectionGate(limits, { warn: (o: unknown) => warnings.push(o) } as never);
  const server = new EventEmitter();
  gate.install(server as unknown as Server);
  const open = (name: string, address = '127.0.0.1'): FakeSocket => {
    const s = new FakeSocket(name, address);
    server.emit('connection', s);
    return s;
  };
  /** A request on `s` whose headers arrived (`complete`: its body too); answered() ends its answer. */
  const request = (s: FakeSocket, complete = true) => {
    const res = new EventEmitter();
    server.emit('request', { socket: s, complete }, res);
    return { answered: () => res.emit('close') };
  };
  const upgrade = (s: FakeSocket) => server.emit('upgrade', { socket: s });
  return { gate, open, request, upgrade, warnings };
}

const closed = (...ss: FakeSocket[]) => ss.filter((s) => s.destroyed).map((s) => s.name);

describe('ConnectionGate', () => {
  it('past the cap, closes the oldest socket that has not sent a whole request, not the new one', () => {
    const { gate, open, request } = gateWith({ maxConnections: 3 });
    const a = open('a');
    const b = open('b');
    const c = open('c');
    request(a);
    const d = open('d');
    // a is being answered: b is the oldest with nothing to lose.
    expect(closed(a, b, c, d)).toEqual(['b']);
    expect(gate.counts).toEqual({ sockets: 3, websockets: 0 });
    const e = open('e');
    expect(closed(a, b, c, d, e)).toEqual(['b', 'c']);
  });

  it('counts a socket between two kept-alive requests, and one still sending its body, as idle', () => {
    const { open, request } = gateWith({ maxConnections: 2 });
    const a = open('a');
    request(a).answered();
    const b = open('b');
    request(b, false);
    const c = open('c');
    expect(closed(a, b, c)).toEqual(['a']);
    const d = open('d');
    expect(closed(a, b, c, d)).toEqual(['a', 'b']);
  });

  it('closes the new socket when every socket held is answering or streaming', () => {
    const { gate, open, request, upgrade, warnings } = gateWith({ maxConnections: 2, maxWebSockets: 2 });
    const a = open('a');
    const b = open('b');
    request(a);
    upgrade(b);
    gate.admitWebSocket(b as never);
    const c = open('c');
    expect(closed(a, b, c)).toEqual(['c']);
    expect(gate.counts).toEqual({ sockets: 2, websockets: 1 });
    expect(warnings).toHaveLength(1);
    // The stream ends: its slot is free again.
    b.destroy();
    expect(gate.counts).toEqual({ sockets: 1, websockets: 0 });
    const d = open('d');
    expect(closed(d)).toEqual([]);
  });

  it('refuses a WebSocket past its own cap with stream_limit, and frees the slot on close', () => {
    const { gate, open, upgrade } = gateWith({ maxWebSockets: 2 });
    const [a, b, c] = [open('a'), open('b'), open('c')];
    for (const s of [a, b]) {
      upgrade(s);
      gate.admitWebSocket(s as never);
    }
    upgrade(c);
    let refusal: unknown;
    try {
      gate.admitWebSocket(c as never);
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(JigError);
    expect((refusal as JigError).toBody()).toEqual({
      code: 'stream_limit',
      detail:
        'no more live event streams can open: all 2 are in use; close one (a board tab, a watch) or try again later',
    });
    a.destroy();
    expect(() => gate.admitWebSocket(c as never)).not.toThrow();
    expect(gate.counts.websockets).toBe(2);
  });

  it('off loopback, caps each address on its own, evicting its own idle sockets first', () => {
    const { gate, open, request, upgrade } = gateWith({
      maxConnections: 10,
      maxPerAddress: 2,
      maxWebSocketsPerAddress: 1,
    });
    const local = open('local');
    const x1 = open('x1', '10.0.0.1');
    const y1 = open('y1', '::ffff:10.0.0.2');
    const x2 = open('x2', '10.0.0.1');
    request(x2);
    const x3 = open('x3', '10.0.0.1');
    // x1 (idle, of the same address) made room; local and y1 were older but not x's.
    expect(closed(local, x1, y1, x2, x3)).toEqual(['x1']);
    request(x3);
    const x4 = open('x4', '10.0.0.1');
    expect(closed(x4)).toEqual(['x4']);
    // Loopback peers are not counted per address (a reverse proxy on this machine).
    const locals = Array.from({ length: 5 }, (_, i) => open(`l${i}`));
    expect(closed(...locals)).toEqual([]);
    upgrade(y1);
    gate.admitWebSocket(y1 as never);
    const y2 = open('y2', '::ffff:10.0.0.2');
    upgrade(y2);
    expect(() => gate.admitWebSocket(y2 as never)).toThrow(
      'no more live event streams can open: ::ffff:10.0.0.2 holds 1, the most one address may',
    );
  });

  it('does not evict a socket whose upgrade is being handled', () => {
    const { open, upgrade } = gateWith({ maxConnections: 1 });
    const a = open('a');
    upgrade(a);
    const b = open('b');
    expect(closed(a, b)).toEqual(['b']);
  });
});
