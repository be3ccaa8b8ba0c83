/**
 * WebSocket text messages as a server sends them (RFC 6455 section 5.2): FIN set, opcode 1, no
 * mask, the payload length in 7, 16 or 64 bits. A server's frame is the same bytes for every
 * client, so the event fan-out frames each event once and writes the same bytes to every socket,
 * where `ws` would frame (and copy) it again for each one (ADR 0000: the event fan-out).
 */
export interface Frames {
  /** The messages' frames, back to back. */
  bytes: Buffer;
  /** Where each message's frame starts in `bytes`. */
  offsets: number[];
}

export function textFrames(texts: readonly string[]): Frames {
  const lengths = texts.map((t) => Buffer.byteLength(t));
  const total = lengths.reduce((sum, n) => sum + headerLength(n) + n, 0);
  const bytes = Buffer.allocUnsafe(total);
  const offsets: number[] = [];
  let at = 0;
  texts.forEach((text, i) => {
    const n = lengths[i]!;
    offsets.push(at);
    bytes[at] = 0x81;
    if (n < 126) {
      bytes[at + 1] = n;
    } else if (n < 0x10000) {
      bytes[at + 1] = 126;
      bytes.writeUInt16BE(n, at + 2);
    } else {
      bytes[at + 1] = 127;
      bytes.writeUInt32BE(Math.floor(n / 0x1_0000_0000), at + 2);
      bytes.writeUInt32BE(n >>> 0, at + 6);
    }
    at += headerLength(n);
    at += bytes.write(text, at, 'utf8');
  });
  return { bytes, offsets };
}

function headerLength(payload: number): number {
  return payload < 126 ? 2 : payload < 0x10000 ? 4 : 10;
}
