import { describe, expect, it } from 'vitest';
import type { EventRecord } from '../contract/events.js';
import { frameReader } from '../../test/helpers/ws-frames.js';
import { EventStream, eventMessage, eventRuns, type StreamSocket } from './event-stream.js';

const ev = (seq: number): EventRecord => ({
  seq,
  v: 1,
  work_item_id: 'abc',
  type: 'work_item_created',
  at: '2026-11-22T00:00:00.000Z',
  by: 'human',
  node: null,
  payload: { pad: 'x'.repeat(100) },
});

function log(n: number) {
  const all = Array.from({ length: n }, (_, i) => ev(i + 1));
  return async (after: number, limit: number) => all.filter((e) => e.seq > after).slice(0, limit);
}

/** A socket whose peer never reads: every byte sent stays queued. */
function stuckSocket() {
  const sent: number[] = [];
  const closes: [number, string][] = [];
  let buffered = 0;
  const reader = frameReader();
  const socket: StreamSocket = {
    write(frames) {
      buffered += frames.length;
      const before = reader.messages.length;
      reader.write(frames);
      for (const m of reader.messages.slice(before))
        sent.push((JSON.parse(m) as { event: EventRecord }).event.seq);
    },
    close(code, reason) {
      closes.push([code, reason]);
    },
    get bufferedAmount() {
      return buffered;
    },
  };
  return { socket, sent, closes, messages: reader.messages };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('EventStream', () => {
  it('frames each event as the exact message clients read, cut into runs of consecutive seqs', () => {
    const events = [9, 7, 8, 12, 13].map((n) => ({ ...ev(n), payload: { title: `café ✓ ${n}` } }));
    const runs = eventRuns(events);
    expect(runs.map((r) => [r.first, r.last])).toEqual([
      [7, 9],
      [12, 13],
    ]);
    const reader = frameReader();
    reader.write(runs[0]!.bytes.subarray(runs[0]!.offsets[1]));
    expect(reader.messages).toEqual([
      JSON.stringify({ type: 'event', event: events[2] }),
      JSON.stringify({ type: 'event', event: events[0] }),
    ]);
    expect(eventMessage(events[0]!)).toBe(JSON.stringify({ type: 'event', event: events[0] }));
  });

  it('sends every event after `after`, in order, across pages', async () => {
    const s = stuckSocket();
    const stream = new EventStream({
      socket: s.socket,
      read: log(1234),
      after: 10,
      page: 100,
      maxBuffered: Infinity,
    });
    await stream.pull();
    expect(s.sent).toEqual(range(11, 1234));
    expect(stream.lastSent).toBe(1234);
    expect(stream.live).toBe(true);
    expect(s.closes).toEqual([]);
  });

  it('cuts off a client that cannot keep up, after the page that crossed the limit, and sends nothing more', async () => {
    const s = stuckSocket();
    const stream = new EventStream({
      socket: s.socket,
      read: log(5000),
      after: 0,
      page: 100,
      maxBuffered: 20_000,
    });
    await stream.pull();
    expect(s.closes).toEqual([[4008, 'too slow: reconnect with after_seq to resume']]);
    // 20 000 bytes at about 250 bytes an event: the first page already crosses it.
    expect(s.sent).toEqual(range(1, 100));
    await stream.pull();
    stream.offer(eventRuns([ev(5001)]));
    expect(s.sent.length).toBe(100);
  });

  it('cuts off a live client whose socket holds more than the limit, and sends nothing more', () => {
    const s = stuckSocket();
    const stream = new EventStream({ socket: s.socket, read: log(0), after: 0, maxBuffered: 1000 });
    stream.offer(eventRuns([1, 2, 3].map(ev)));
    expect(s.closes).toEqual([]);
    stream.offer(eventRuns([4, 5].map(ev)));
    expect(s.closes).toEqual([[4008, 'too slow: reconnect with after_seq to resume']]);
    stream.offer(eventRuns([ev(6)]));
    expect(s.sent).toEqual([1, 2, 3, 4, 5]);
    expect(stream.live).toBe(false);
  });

  it('what is offered during a pull is sent after it, once, without another read', async () => {
    const s = stuckSocket();
    const stored: EventRecord[] = [ev(1), ev(2)];
    let reads = 0;
    const stream: EventStream = new EventStream({
      socket: s.socket,
      after: 0,
      maxBuffered: Infinity,
      read: async (after) => {
        reads++;
        const page = stored.filter((e) => e.seq > after);
        // Commits land while the read is in flight: 3 before the answer, 4 after it.
        if (reads === 1) stream.offer(eventRuns([ev(2)]));
        await new Promise((r) => setImmediate(r));
        stream.offer(eventRuns([ev(4)]));
        stream.offer(eventRuns([ev(3)]));
        return page;
      },
    });
    await stream.pull();
    expect(s.sent).toEqual([1, 2, 3, 4]);
    expect(reads).toBe(1);
    expect(stream.live).toBe(true);
  });

  it('holds at most a page of what is offered during a pull, and reads again past that', async () => {
    const s = stuckSocket();
    const stored: EventRecord[] = [ev(1)];
    let reads = 0;
    const stream: EventStream = new EventStream({
      socket: s.socket,
      after: 0,
      page: 5,
      maxBuffered: Infinity,
      read: async (after, limit) => {
        reads++;
        const page = stored.filter((e) => e.seq > after).slice(0, limit);
        await new Promise((r) => setImmediate(r));
        if (reads === 1) {
          const batch = range(2, 13).map(ev);
          stored.push(...batch);
          stream.offer(eventRuns(batch));
        }
        return page;
      },
    });
    await stream.pull();
    expect(s.sent).toEqual(range(1, 13));
    // The first read, then the 12 offered frames read again in pages of 5.
    expect(reads).toBe(4);
  });

  it('a read that fails closes the socket with 1011 and tells onError', async () => {
    const s = stuckSocket();
    const errors: unknown[] = [];
    const stream = new EventStream({
      socket: s.socket,
      after: 0,
      read: async () => {
        throw new Error('disk gone');
      },
      onError: (err) => errors.push(err),
    });
    await stream.pull();
    expect(s.closes).toEqual([[1011, 'event stream failed']]);
    expect(errors.map((e) => (e as Error).message)).toEqual(['disk gone']);
    stream.offer(eventRuns([ev(1)]));
    expect(s.sent).toEqual([]);
  });
});
