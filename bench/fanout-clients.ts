/**
 * The subscribers of bench/fanout.ts, run in a child process so their CPU is not counted against
 * the server's. Opens `FANOUT_CLIENTS` live WebSockets on `FANOUT_URL`, says `ready` once every
 * hello has arrived, then on `{expect: seq}` waits until each client has that seq (or was closed)
 * and reports what each one received: a gap or a repeat is counted, not only the total.
 */
import WebSocket from 'ws';

interface Client {
  ws: WebSocket;
  /** The seq the next event must carry; 0 until the hello arrives. */
  next: number;
  received: number;
  faults: number;
  closedWith: number | null;
}

const url = process.env.FANOUT_URL!;
const count = Number(process.env.FANOUT_CLIENTS ?? 200);
const clients: Client[] = [];
let hellos = 0;
let cpuAtReady = process.cpuUsage();

// Every event message starts `{"type":"event","event":{"seq":N,`: reading the seq from the first
// bytes keeps the clients cheap, so the child does not become the bottleneck it is there to avoid.
const SEQ = /"seq":(\d+)/;

function open(): Client {
  const c: Client = { ws: new WebSocket(url), next: 0, received: 0, faults: 0, closedWith: null };
  c.ws.on('message', (data: Buffer) => {
    const head = data.toString('latin1', 0, Math.min(data.length, 64));
    if (head.startsWith('{"type":"hello"')) {
      c.next = (JSON.parse(data.toString()) as { after_seq: number }).after_seq + 1;
      if (++hellos === count) {
        cpuAtReady = process.cpuUsage();
        process.send!({ ready: true });
      }
      return;
    }
    const seq = Number(SEQ.exec(head)?.[1]);
    if (seq !== c.next) c.faults++;
    c.next = seq + 1;
    c.received++;
  });
  c.ws.on('close', (code) => (c.closedWith = code));
  c.ws.on('error', () => {});
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
    for (const c of clients) c.ws.close();
    setTimeout(() => process.exit(0), 200).unref();
  };
  check();
});
