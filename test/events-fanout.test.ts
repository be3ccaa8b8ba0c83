import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './helpers/built.js';
import { eventually } from './helpers/eventually.js';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, startJig, tempHome, type JigProcess } from './helpers/server.js';

/**
 * The WebSocket fan-out (issue 14, finding 5): many subscribers on one server while items are filed
 * concurrently. Each committed event is framed once and written to every live subscriber; a
 * subscriber that joins behind replays from the store and then shares the live bytes. Either way
 * every client must see every seq once, in order.
 */

let jig: JigProcess;
let repo: string;
const api = (method: string, path: string, body?: unknown) => http(`${jig.url}${path}`, { method, body });

beforeAll(async () => {
  jig = await startJig();
  repo = makeRepo();
  expect((await api('POST', '/api/repos', { path: repo, test_command: '' })).status).toBe(201);
});
afterAll(cleanupAll);

interface Client {
  seqs: number[];
  texts: string[];
  binary: number;
  hello: Promise<{ after_seq: number; last_seq: number }>;
  until(seq: number): Promise<void>;
  closed: Promise<number>;
  close(): void;
}

function connect(base: string, afterSeq: number | null): Client {
  const ws = new WebSocket(
    `${base.replace('http', 'ws')}/api/ws/events${afterSeq === null ? '' : `?after_seq=${afterSeq}`}`,
  );
  const c = { seqs: [] as number[], texts: [] as string[], binary: 0 };
  const waiters: { seq: number; done: () => void }[] = [];
  let helloResolve!: (h: { after_seq: number; last_seq: number }) => void;
  const hello = new Promise<{ after_seq: number; last_seq: number }>((r) => (helloResolve = r));
  ws.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
    if (isBinary) c.binary++;
    const text = data.toString();
    const msg = JSON.parse(text);
    if (msg.type === 'hello') helloResolve(msg);
    if (msg.type === 'event') {
      c.seqs.push(msg.event.seq);
      c.texts.push(text);
      for (const w of waiters.filter((x) => x.seq <= msg.event.seq)) w.done();
    }
  });
  const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
  return {
    ...c,
    get binary() {
      return c.binary;
    },
    hello,
    closed,
    until: (seq) =>
      new Promise((done) => {
        if (c.seqs.length > 0 && c.seqs[c.seqs.length - 1]! >= seq) done();
        else waiters.push({ seq, done });
      }),
    close: () => ws.close(),
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('WS /api/ws/events fan-out', () => {
  it('20 live subscribers and late joiners each get every seq exactly once, in order, while 6 writers file items', async () => {
    const live = Array.from({ length: 20 }, () => connect(jig.url, null));
    const hellos = await Promise.all(live.map((c) => c.hello));
    const base = hellos[0]!.last_seq;
    for (const h of hellos) expect(h).toEqual({ type: 'hello', after_seq: base, last_seq: base });

    const writers = Array.from({ length: 6 }, async (_, w) => {
      for (let i = 0; i < 30; i++) {
        const r = await api('POST', '/api/triggers', { title: `fan ${w} #${i}`, repo });
        expect(r.status).toBe(201);
      }
    });
    // Joiners mid-stream: behind (replay, then live), and at the head (live from the start).
    await live[0]!.until(base + 20);
    const behind = connect(jig.url, base + 5);
    const head = connect(jig.url, null);
    const headFrom = (await head.hello).after_seq;
    await live[0]!.until(base + 90);
    const behindLater = connect(jig.url, base + 40);
    await Promise.all(writers);
    const final = base + 6 * 30;

    const all = [...live, behind, head, behindLater];
    await Promise.all(all.map((c) => c.until(final)));
    // A marker, one event after the last: a repeat of an earlier one would come before it.
    expect((await api('POST', '/api/triggers', { title: 'fan marker', repo })).status).toBe(201);
    const marker = final + 1;
    await Promise.all(all.map((c) => c.until(marker)));
    for (const c of live) expect(c.seqs).toEqual(range(base + 1, marker));
    expect(behind.seqs).toEqual(range(base + 6, marker));
    expect(head.seqs).toEqual(range(headFrom + 1, marker));
    expect(behindLater.seqs).toEqual(range(base + 41, marker));
    expect(all.map((c) => c.binary)).toEqual(all.map(() => 0));

    // The bytes are the message as it always was: {type, event} with the stored record.
    const first = JSON.parse(live[0]!.texts[0]!).event;
    const stored = (await api('GET', `/api/work-items/${first.work_item_id}/events`)).json.events[0];
    expect(live[0]!.texts[0]).toBe(JSON.stringify({ type: 'event', event: stored }));
    for (const c of all) expect(c.texts.slice(-1)).toEqual(live[0]!.texts.slice(-1));
    for (const c of all) c.close();
  });
});

describe('the cost of a subscriber', () => {
  it('live subscribers do not read the log: 20 of them over 30 commits cost no read of events', async () => {
    const server = await startServer({ host: '127.0.0.1', port: 0, env: { JIG_HOME: tempHome() } });
    try {
      const localRepo = makeRepo();
      const post = (path: string, body: unknown) =>
        http(`${server.url}${path}`, { method: 'POST', body }).then((r) => r.status);
      expect(await post('/api/repos', { path: localRepo, test_command: '' })).toBe(201);
      // Counts every query on the events table from here on; everything else passes through.
      const store = server.inst.store;
      const db = store.db;
      let reads = 0;
      store.db = new Proxy(db, {
        get(target, prop) {
          const value = Reflect.get(target, prop, target);
          if (prop === 'selectFrom')
            return (from: string) => {
              if (from === 'events') reads++;
              return db.selectFrom(from as 'events');
            };
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const subs = Array.from({ length: 20 }, () => connect(server.url, null));
      await Promise.all(subs.map((c) => c.hello));
      const readsAtStart = reads;
      for (let i = 0; i < 30; i++)
        expect(await post('/api/triggers', { title: `cost ${i}`, repo: localRepo })).toBe(201);
      const last = server.inst.events.lastSeq;
      await Promise.all(subs.map((c) => c.until(last)));
      for (const c of subs) expect(c.seqs.length).toBe(30);
      // Before the hub, each subscriber read the log after every commit: 600 reads here.
      expect(reads - readsAtStart).toBe(0);
      store.db = db;
      for (const c of subs) c.close();
    } finally {
      await server.close();
    }
  });
});

describe('closing the server with subscribers connected', () => {
  it('closes their sockets and leaves no timer or socket of the fan-out behind', async () => {
    // Counted by kind: other suites' timers may end meanwhile, but none may be added.
    const kinds = () => {
      const n: Record<string, number> = { Timeout: 0, Immediate: 0, TCPSocketWrap: 0, TCPServerWrap: 0 };
      for (const k of process.getActiveResourcesInfo()) if (k in n) n[k]!++;
      return n;
    };
    const before = kinds();
    const server = await startServer({ host: '127.0.0.1', port: 0, env: { JIG_HOME: tempHome() } });
    const localRepo = makeRepo();
    const post = (path: string, body: unknown) =>
      http(`${server.url}${path}`, { method: 'POST', body }).then((r) => r.status);
    expect(await post('/api/repos', { path: localRepo, test_command: '' })).toBe(201);
    const subs = Array.from({ length: 5 }, () => connect(server.url, 0));
    await Promise.all(subs.map((c) => c.hello));
    // Commits in a row: the fan-out's gathering timer is running when the close begins.
    for (let i = 0; i < 5; i++)
      expect(await post('/api/triggers', { title: `closing ${i}`, repo: localRepo })).toBe(201);
    await subs[0]!.until(1);
    await server.close();
    await Promise.all(subs.map((c) => c.closed));
    // The sockets' handles go within a few turns of the close.
    await eventually(
      () => {
        const after = kinds();
        for (const k of Object.keys(before)) expect(after[k], k).toBeLessThanOrEqual(before[k]!);
        return true;
      },
      { what: 'the fan-out to leave no timer or socket behind' },
    );
  });
});
