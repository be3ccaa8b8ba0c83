/**
 * A WebSocket client for the benchmarks' child processes that speaks the protocol over a plain
 * socket (RFC 6455: the upgrade, then the server's unmasked frames) rather than through `ws`: on a
 * two-core machine `ws` clients took most of a core to receive 750 000 messages a second, and that
 * core was the server's to measure. Each text frame is still read whole and handed over.
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

export interface RawWs {
  socket: Socket;
  /** The close code, -1 when the upgrade was refused, 1006 when the socket just ended; null while open. */
  closedWith: number | null;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** Opens `url` (ws://); `onText` gets each text message as a slice of a buffer it must not keep. */
export function openRawWs(url: URL, onText: (buf: Buffer, start: number, end: number) => void): RawWs {
  const socket = connect(Number(url.port), url.hostname);
  const c: RawWs = { socket, closedWith: null };
  let pending: Buffer = Buffer.alloc(0);
  let upgraded = false;

  /** Reads every whole frame in `pending`; keeps the rest for the next chunk. */
  const frames = (): void => {
    const buf = pending;
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
      if (opcode === 1) onText(buf, start, start + len);
      else if (opcode === 8) c.closedWith = len >= 2 ? buf.readUInt16BE(start) : 1005;
      at = start + len;
    }
    pending = at === buf.length ? Buffer.alloc(0) : buf.subarray(at);
  };

  socket.on('connect', () => {
    socket.write(
      `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\n` +
        `Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\n\r\n`,
    );
  });
  socket.on('data', (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    if (!upgraded) {
      const end = pending.indexOf(HEAD_END);
      if (end === -1) return;
      if (!pending.toString('latin1', 0, 12).startsWith('HTTP/1.1 101')) {
        c.closedWith = -1;
        socket.destroy();
        return;
      }
      upgraded = true;
      pending = pending.subarray(end + HEAD_END.length);
    }
    frames();
  });
  socket.on('close', () => (c.closedWith ??= 1006));
  socket.on('error', () => {});
  return c;
}
