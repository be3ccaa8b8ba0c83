/**
 * The subscribers of bench/fanout.ts, run in a child process so their CPU is not counted against
 * the server's. Opens `FANOUT_CLIENTS` live WebSockets on `FANOUT_URL`, says `ready` once every
 * hello has arrived, then on `{expect: seq}` waits until each client has that seq (or was closed)
 * and reports what each one received: a gap or a repeat is counted, not only the total.
 * The clients speak the protocol over plain sockets (bench/raw-ws.ts); each frame is still read
 * whole and its seq checked.
 */
import { openRawWs, type RawWs } from './raw-ws.js';

interface Counts {
  /** The seq the next event must carry; 0 until the hello arrives. */
  next: number;
  received: number;
  faults: number;
}
type Client = Counts & { ws: RawWs };

const url = new URL(process.env.FANOUT_URL!);
const count = Number(process.env.FANOUT_CLIENTS ?? 200);
const clients: Client[] = [];
let hellos = 0;
let cpuAtReady = process.cpuUsage();

const HELLO = Buffer.from('{"type":"hello"');
const SEQ = Buffer.from('"seq":');

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

function onMessage(c: Counts, buf: Buffer, start: number, end: number): void {
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

function open(): Client {
  const counts: Counts = { next: 0, received: 0, faults: 0 };
  return Object.assign(counts, {
    ws: openRawWs(url, (buf, start, end) => onMessage(counts, buf, start, end)),
  });
}

for (let i = 0; i < count; i++) clients.push(open());

process.on('message', (msg: { expect: number }) => {
  const started = Date.now();
  const check = (): void => {
    const waiting = clients.filter((c) => c.ws.closedWith === null && c.next <= msg.expect);
    if (waiting.length > 0 && Date.now() - started < 30_000) {
      setTimeout(check, 50);
      return;
    }
    const cpu = process.cpuUsage(cpuAtReady);
    process.send!({
      complete: clients.filter((c) => c.ws.closedWith === null && c.next > msg.expect).length,
      received: clients.reduce((n, c) => n + c.received, 0),
      faults: clients.reduce((n, c) => n + c.faults, 0),
      closed: clients.filter((c) => c.ws.closedWith !== null).map((c) => c.ws.closedWith),
      cpuMs: (cpu.user + cpu.system) / 1000,
    });
    for (const c of clients) c.ws.socket.destroy();
    setTimeout(() => process.exit(0), 200).unref();
  };
  check();
});
