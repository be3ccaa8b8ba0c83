/**
 * The subscribers of bench/fanout.ts, run in a child process so their CPU is not counted against
 * the server's. Opens `FANOUT_CLIENTS` live WebSockets on `FANOUT_URL`, says `ready` once every
 * hello has arrived, then on `{expect: seq}` waits until each client has that seq (or was closed)
 * and reports what each one received: a gap or a repeat is counted, not only the total.
 *
 * The clients speak the protocol over plain sockets (RFC 6455: the upgrade, then the server's
 * unmasked frames) rather than through `ws`: on a two-core machine the `ws` clients took most of a
 * core to receive 750 000 messages a second, and that core was the server's to measure. Each frame
 * is still read whole and its seq checked.
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

interface Client {
  socket: Socket;
  /** Bytes received and not yet a whole frame. */
  pending: Buffer;
  upgraded: boolean;
  /** The seq the next event must carry; 0 until the hello arrives. */
  next: number;
  received: number;
  faults: number;
  closedWith: number | null;
}

const url = new URL(process.env.FANOUT_URL!);
const count = Number(process.env.FANOUT_CLIENTS ?? 200);
const clients: Client[] = [];
let hellos = 0;
let cpuAtReady = process.cpuUsage();

const HELLO = Buffer.from('{"type":"hello"');
const SEQ = Buffer.from('"seq":');
const HEAD_END = Buffer.from('\r\n\r\n');

/** The whole number written at `at` in `buf`, digits only. */
function numberAt(buf: Buffer, at: number, end: number): number {
  let n = 0;
  for (let i = at; i < end; i++) {
    const d = buf[i]! - 48;
    if (d < 0 || d > 9) break;
    n = n * 10 + d;
  }
  return n;
}

function onMessage(c: Client, buf: Buffer, start: number, end: number): void {
  if (buf.compare(HELLO, 0, HELLO.length, start, Math.min(end, start + HELLO.length)) === 0) {
    const hello = JSON.parse(buf.toString('utf8', start, end)) as { after_seq: number };
    c.next = hello.after_seq + 1;
    if (++hellos === count) {
      cpuAtReady = process.cpuUsage();
      process.send!({ ready: true });
    }
    return;
  }
  const at = buf.indexOf(SEQ, start);
  const seq = at === -1 || at >= end ? NaN : numberAt(buf, at + SEQ.length, end);
  if (seq !== c.next) c.faults++;
  c.next = seq + 1;
  c.received++;
}

/** Reads every whole frame in `c.pending`; keeps the rest for the next chunk. */
function frames(c: Client): void {
  const buf = c.pending;
  let at = 0;
  for (;;) {
    if (buf.length - at < 2) break;
    const opcode = buf[at]! & 0x0f;
    let len = buf[at + 1]! & 0x7f;
    let head = 2;
    if (len === 126) {
      if (buf.length - at < 4) break;
      len = buf.readUInt16BE(at + 2);
      head = 4;
    } else if (len === 127) {
      if (buf.length - at < 10) break;
      len = buf.readUInt32BE(at + 2) * 0x1_0000_0000 + buf.readUInt32BE(at + 6);
      head = 10;
    }
    if (buf.length - at < head + len) break;
    const start = at + head;
    if (opcode === 1) onMessage(c, buf, start, start + len);
    else if (opcode === 8) c.closedWith = len >= 2 ? buf.readUInt16BE(start) : 1005;
    at = start + len;
  }
  c.pending = at === buf.length ? Buffer.alloc(0) : buf.subarray(at);
}

function open(): Client {
  const socket = connect(Number(url.port), url.hostname);
  const c: Client = {
    socket,
    pending: Buffer.alloc(0),
    upgraded: false,
    next: 0,
    received: 0,
    faults: 0,
    closedWith: null,
  };
  socket.on('connect', () => {
    socket.write(
      `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\n` +
        `Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\n\r\n`,
    );
  });
  socket.on('data', (chunk: Buffer) => {
    c.pending = c.pending.length === 0 ? chunk : Buffer.concat([c.pending, chunk]);
    if (!c.upgraded) {
      const end = c.pending.indexOf(HEAD_END);
      if (end === -1) return;
      if (!c.pending.toString('latin1', 0, 12).startsWith('HTTP/1.1 101')) {
        c.closedWith = -1;
        socket.destroy();
        return;
      }
      c.upgraded = true;
      c.pending = c.pending.subarray(end + HEAD_END.length);
    }
    frames(c);
  });
  socket.on('close', () => (c.closedWith ??= 1006));
  socket.on('error', () => {});
  return c;
}

for (let i = 0; i < count; i++) clients.push(open());

process.on('message', (msg: { expect: number }) => {
  const started = Date.now();
  const check = (): void => {
    const waiting = clients.filter((c) => c.closedWith === null && c.next <= msg.expect);
    if (waiting.length > 0 && Date.now() - started < 30_000) {
      setTimeout(check, 50);
      return;
    }
    const cpu = process.cpuUsage(cpuAtReady);
    process.send!({
      complete: clients.filter((c) => c.closedWith === null && c.next > msg.expect).length,
      received: clients.reduce((n, c) => n + c.received, 0),
      faults: clients.reduce((n, c) => n + c.faults, 0),
      closed: clients.filter((c) => c.closedWith !== null).map((c) => c.closedWith),
      cpuMs: (cpu.user + cpu.system) / 1000,
    });
    for (const c of clients) c.socket.destroy();
    setTimeout(() => process.exit(0), 200).unref();
  };
  check();
});
