import { describe, expect, it } from 'vitest';
import type { EventRecord } from '../contract/events.js';
import { EventStream, type StreamSocket } from './event-stream.js';

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
  const socket: StreamSocket = {
    send(data) {
      buffered += data.length;
      sent.push((JSON.parse(data) as { event: EventRecord }).event.seq);
    },
    close(code, reason) {
      closes.push([code, reason]);
    },
    get bufferedAmount() {
      return buffered;
    },
  };
  return { socket, sent, closes, drain: () => (buffered = 0) };
}

describe('EventStream', () => {
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
    expect(s.sent).toEqual(Array.from({ length: 1224 }, (_, i) => i + 11));
    expect(stream.lastSent).toBe(1234);
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
    expect(s.sent).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    await stream.pull();
    expect(s.sent.length).toBe(100);
  });

  it('a pull asked for while one runs is not lost: it runs again after', async () => {
    const s = stuckSocket();
    const events: EventRecord[] = [ev(1)];
    let calls = 0;
    const stream = new EventStream({
      socket: s.socket,
      after: 0,
      maxBuffered: Infinity,
      read: async (after) => {
        calls++;
        await new Promise((r) => setTimeout(r, 5));
        return events.filter((e) => e.seq > after);
      },
    });
    const first = stream.pull();
    events.push(ev(2));
    void stream.pull();
    await first;
    expect(s.sent).toEqual([1, 2]);
    expect(calls).toBeGreaterThanOrEqual(2);
  });
});
