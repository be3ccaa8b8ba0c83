import { spawn } from 'node:child_process';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './helpers/eventually.js';
import { makeRepo } from './helpers/git.js';
import { handshake } from './helpers/perimeter.js';
import { cleanupAll, http, jigBin, startJig, type JigProcess } from './helpers/server.js';

let jig: JigProcess;
let repo: string;
const api = (method: string, path: string, body?: unknown) => http(`${jig.url}${path}`, { method, body });

beforeAll(async () => {
  jig = await startJig();
  repo = makeRepo();
  expect((await api('POST', '/api/repos', { path: repo, test_command: '' })).status).toBe(201);
});
afterAll(cleanupAll);

describe('GET /api/work-items/{id}/events', () => {
  it('reads forward with after and backward with before, oldest first either way', async () => {
    const item = (await api('POST', '/api/triggers', { title: 'Evented', repo })).json;
    for (const t of ['one', 'two', 'three', 'four']) {
      expect((await api('PATCH', `/api/work-items/${item.id}`, { description: t })).status).toBe(200);
    }
    const all = (await api('GET', `/api/work-items/${item.id}/events`)).json;
    expect(all.events.map((e: any) => e.type)).toEqual([
      'work_item_created',
      'description_changed',
      'description_changed',
      'description_changed',
      'description_changed',
    ]);
    const seqs = all.events.map((e: any) => e.seq);
    for (const e of all.events) {
      expect(Object.keys(e).sort()).toEqual([
        'at',
        'by',
        'node',
        'payload',
        'seq',
        'type',
        'v',
        'work_item_id',
      ]);
      expect(e.v).toBe(1);
    }
    const fwd = (await api('GET', `/api/work-items/${item.id}/events?after=${seqs[1]}&limit=2`)).json;
    expect(fwd.events.map((e: any) => e.seq)).toEqual([seqs[2], seqs[3]]);
    expect(fwd.next_after).toBe(seqs[3]);
    const back = (await api('GET', `/api/work-items/${item.id}/events?before=${seqs[4]}&limit=2`)).json;
    expect(back.events.map((e: any) => e.seq)).toEqual([seqs[2], seqs[3]]);
    expect(back.next_before).toBe(seqs[2]);
    const typed = (await api('GET', `/api/work-items/${item.id}/events?type=work_item_created`)).json;
    expect(typed.events.length).toBe(1);
    const both = await api('GET', `/api/work-items/${item.id}/events?after=1&before=3`);
    expect(both.status).toBe(422);
    const badLimit = await api('GET', `/api/work-items/${item.id}/events?limit=0`);
    expect(badLimit.status).toBe(422);
    expect(badLimit.json.detail).toMatch(/^querystring\.limit: /);
    expect((await api('GET', '/api/work-items/zzzzzzzz/events')).status).toBe(404);
  });
});

interface Collector {
  seqs: number[];
  hello: Promise<{ after_seq: number; last_seq: number }>;
  until(seq: number): Promise<void>;
  close(): void;
}

function collect(afterSeq: number | null): Collector {
  const url = `${jig.url.replace('http', 'ws')}/api/ws/events${afterSeq === null ? '' : `?after_seq=${afterSeq}`}`;
  const ws = new WebSocket(url);
  const seqs: number[] = [];
  const waiters: { seq: number; done: () => void }[] = [];
  let helloResolve!: (h: { after_seq: number; last_seq: number }) => void;
  const hello = new Promise<{ after_seq: number; last_seq: number }>((r) => (helloResolve = r));
  ws.on('message', (data: WebSocket.RawData) => {
    const msg = JSON.parse(data.toString());
    if (msg.type === 'hello') helloResolve(msg);
    if (msg.type === 'event') {
      seqs.push(msg.event.seq);
      for (const w of waiters.filter((x) => x.seq <= msg.event.seq)) w.done();
    }
  });
  return {
    seqs,
    hello,
    until: (seq) =>
      new Promise((done) => {
        if (seqs.length > 0 && seqs[seqs.length - 1]! >= seq) done();
        else waiters.push({ seq, done });
      }),
    close: () => ws.close(),
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('WS /api/ws/events', () => {
  it('replays from after_seq then streams live, with no gap and no duplicate at the switch, under concurrent writes', async () => {
    const probe = collect(null);
    const base = (await probe.hello).last_seq;
    probe.close();

    // Writers: 8 in parallel, 40 triggers each; clients join while they write.
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; i < 40; i++) {
        const r = await api('POST', '/api/triggers', { title: `w${w} #${i}`, repo });
        expect(r.status).toBe(201);
      }
    });
    // Each joins once the one before has seen some of the writes: behind the head, so it replays.
    const early = collect(base);
    await early.until(base + 5);
    const middle = collect(base + 3);
    await middle.until(base + 20);
    const late = collect(base + 10);
    await Promise.all(writers);
    const final = base + 8 * 40;
    const liveOnly = collect(null);
    expect((await liveOnly.hello).last_seq).toBe(final);
    await Promise.all([early.until(final), middle.until(final), late.until(final)]);
    // A marker, one event after the last: a duplicate of an earlier one would come before it.
    expect((await api('POST', '/api/triggers', { title: 'marker', repo })).status).toBe(201);
    const marker = final + 1;
    await Promise.all([early, middle, late, liveOnly].map((c) => c.until(marker)));
    expect(early.seqs).toEqual(range(base + 1, marker));
    expect(middle.seqs).toEqual(range(base + 4, marker));
    expect(late.seqs).toEqual(range(base + 11, marker));
    expect(liveOnly.seqs).toEqual([marker]);
    for (const c of [early, middle, late, liveOnly]) c.close();
  });

  it('refuses an after_seq that is not a number or is past the log, before the upgrade', async () => {
    const port = Number(new URL(jig.url).port);
    const probe = collect(null);
    const lastSeq = (await probe.hello).last_seq;
    probe.close();
    for (const [query, field] of [
      ['after_seq=', 'is a whole number from 0'],
      ['after_seq=-1', 'is a whole number from 0'],
      ['after_seq=1e3', 'is a whole number from 0'],
    ] as const) {
      const r = await handshake(port, {}, `/api/ws/events?${query}`);
      expect([query, r.status, r.json]).toEqual([
        query,
        422,
        {
          code: 'validation_failed',
          detail: `querystring.after_seq: ${field}`,
          issues: [{ field: 'querystring.after_seq', message: field }],
        },
      ]);
    }
    const past = await handshake(port, {}, `/api/ws/events?after_seq=${lastSeq + 1000}`);
    expect([past.status, past.json]).toEqual([
      422,
      {
        code: 'validation_failed',
        detail: `querystring.after_seq: ${lastSeq + 1000} is past the last event (${lastSeq}); reconnect without after_seq`,
      },
    ]);
    expect((await handshake(port, {}, `/api/ws/events?after_seq=${lastSeq}`)).status).toBe(101);
  });

  it('without after_seq streams only what is stored from now on', async () => {
    const live = collect(null);
    const { last_seq } = await live.hello;
    const item = (await api('POST', '/api/triggers', { title: 'live one', repo })).json;
    await live.until(last_seq + 1);
    expect(live.seqs).toEqual([last_seq + 1]);
    live.close();
    expect(item.status).toBe('paused');
  });

  it('the CLI follows an item with events -f --json, one object per line', async () => {
    const item = (await api('POST', '/api/triggers', { title: 'followed', repo })).json;
    const cli = spawn(process.execPath, [jigBin, 'view', 'events', item.id, '-f', '--json'], {
      env: { ...process.env, JIG_HOME: jig.home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    cli.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const exited = new Promise((r) => cli.once('exit', r));
    // Following from the first line it printed (the stored history), by count, not by time.
    const printed = (n: number) =>
      eventually(() => stdout.split('\n').filter(Boolean).length >= n, {
        what: `${n} lines from events -f`,
        everyMs: 50,
      });
    await printed(1);
    await api('PATCH', `/api/work-items/${item.id}`, { description: 'changed' });
    await api('POST', `/api/work-items/${item.id}/cancel`, { reason: 'done watching' });
    await printed(3);
    await jig.stop();
    await exited;
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((e) => e.type)).toEqual([
      'work_item_created',
      'description_changed',
      'work_item_cancelled',
    ]);
    expect(lines.every((e) => e.work_item_id === item.id)).toBe(true);
  });
});
