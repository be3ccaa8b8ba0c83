/**
 * The other end of bench/ws-latency.ts, in a child process: opens `LAT_CLIENTS` WebSockets on
 * `LAT_WS` (raw sockets, bench/raw-ws.ts), waits for each one's hello, then files `LAT_ITEMS` items
 * by POSTing `LAT_BODY` to `LAT_HTTP`, `LAT_CONCURRENCY` at a time, and times, for every client
 * and item, from the 201 to the item's `work_item_created` event on that client (0 when the event
 * came first). Reports the percentiles of those delays and how many never came.
 */
import { openRawWs } from './raw-ws.js';

const env = (name: string): string => {
  const v = process.env[name];
  if (v === undefined) throw new Error(`${name} is not set`);
  return v;
};
const wsUrl = new URL(env('LAT_WS'));
const clients = Number(env('LAT_CLIENTS'));
const items = Number(env('LAT_ITEMS'));
const concurrency = Number(env('LAT_CONCURRENCY'));

const HELLO = Buffer.from('{"type":"hello"');
const CREATED = Buffer.from('"type":"work_item_created"');
const ITEM_ID = Buffer.from('"work_item_id":"');
const QUOTE = Buffer.from('"');

/** When each item's 201 arrived, and when each client got its event (per client: id → ms). */
const answered = new Map<string, number>();
const seen: Map<string, number>[] = [];
let hellos = 0;
let ready: () => void = () => {};
const allHello = new Promise<void>((resolve) => (ready = resolve));

for (let i = 0; i < clients; i++) {
  const got = new Map<string, number>();
  seen.push(got);
  openRawWs(wsUrl, (buf, start, end) => {
    const at = performance.now();
    // Found by bytes, not JSON.parse: this process's CPU is the server's other core, and a busy
    // client would time its own delays.
    if (buf.indexOf(HELLO, start) === start) {
      if (++hellos === clients) ready();
      return;
    }
    const kind = buf.indexOf(CREATED, start);
    if (kind === -1 || kind >= end) return;
    const idAt = buf.indexOf(ITEM_ID, start);
    if (idAt === -1 || idAt >= end) return;
    const from = idAt + ITEM_ID.length;
    got.set(buf.toString('latin1', from, buf.indexOf(QUOTE, from)), at);
  });
}

await allHello;
let next = 0;
const worker = async (): Promise<void> => {
  while (next < items) {
    next++;
    const r = await fetch(env('LAT_HTTP'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: env('LAT_BODY'),
    });
    const at = performance.now();
    const body = (await r.json()) as { id?: unknown };
    if (r.status !== 201 || typeof body.id !== 'string') throw new Error(`filing answered ${r.status}`);
    answered.set(body.id, at);
  }
};
await Promise.all(Array.from({ length: concurrency }, worker));

// Every event, or 10 s for the stragglers.
const deadline = performance.now() + 10_000;
while (performance.now() < deadline && seen.some((got) => got.size < items))
  await new Promise((r) => setTimeout(r, 20));

const delays: number[] = [];
let missing = 0;
for (const got of seen)
  for (const [id, at201] of answered) {
    const at = got.get(id);
    if (at === undefined) missing++;
    else delays.push(Math.max(0, at - at201));
  }
delays.sort((a, b) => a - b);
const pct = (p: number): number =>
  delays[Math.min(delays.length - 1, Math.floor((p / 100) * delays.length))] ?? NaN;
process.send!({ p50: pct(50), p99: pct(99), max: delays.at(-1) ?? NaN, delivered: delays.length, missing });
setTimeout(() => process.exit(0), 100).unref();
