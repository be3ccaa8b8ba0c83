import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventRecord } from '../contract/events.js';
import { frameReader } from '../../test/helpers/ws-frames.js';
import { EventHub, gatherFor, type HubOptions } from './event-hub.js';
import type { StreamSocket } from './event-stream.js';

const ev = (seq: number): EventRecord => ({
  seq,
  v: 1,
  work_item_id: 'abc',
  type: 'work_item_created',
  at: '2026-11-22T00:00:00.000Z',
  by: 'human',
  node: null,
  payload: { n: seq },
});

type Listener = (events: readonly EventRecord[]) => void;

/**
 * The event log as the hub sees it: `store` commits events (readable at once), `publish` tells the
 * listeners afterwards, as EventLog does after the commit. Reads are counted and answer on a later
 * turn, so commits can land while one is in flight.
 */
function fakeLog() {
  const stored: EventRecord[] = [];
  const listeners = new Set<Listener>();
  let published = 0;
  const log = {
    reads: 0,
    onRead: null as null | (() => void),
    get lastSeq() {
      return published;
    },
    get listeners() {
      return listeners.size;
    },
    subscribe(l: Listener) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    store(n: number): EventRecord[] {
      const batch = Array.from({ length: n }, (_, i) => ev(stored.length + i + 1));
      stored.push(...batch);
      return batch;
    },
    publish(batch: EventRecord[]) {
      published = Math.max(published, batch[batch.length - 1]!.seq);
      for (const l of listeners) l(batch);
    },
    commit(n: number) {
      log.publish(log.store(n));
    },
    async read(after: number, limit: number) {
      log.reads++;
      const page = stored.filter((e) => e.seq > after).slice(0, limit);
      await new Promise((r) => setImmediate(r));
      log.onRead?.();
      return page;
    },
  };
  return log;
}

/** A socket whose peer reads nothing (every byte stays queued) unless it `drains`. */
function socket(drains = false) {
  const writes: Buffer[] = [];
  const closes: [number, string][] = [];
  const reader = frameReader();
  const s: StreamSocket = {
    write: (frames) => {
      writes.push(frames);
      reader.write(frames);
    },
    close: (code, reason) => closes.push([code, reason]),
    get bufferedAmount() {
      return drains ? 0 : writes.reduce((n, f) => n + f.length, 0);
    },
  };
  const seqs = () => reader.messages.map((m) => (JSON.parse(m) as { event: EventRecord }).event.seq);
  return { s, writes, closes, seqs, messages: reader.messages };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const turn = () => new Promise((r) => setImmediate(r));
/** Lets flushes and reads run until no read starts any more. */
const settle = async (log: ReturnType<typeof fakeLog>) => {
  for (let last = -1; last !== log.reads;) {
    last = log.reads;
    for (let i = 0; i < 5; i++) await turn();
  }
};
const hubOn = (log: ReturnType<typeof fakeLog>, o: Partial<HubOptions> = {}) =>
  new EventHub({ source: log, read: (a, l) => log.read(a, l), gatherMs: 0, ...o });

describe('EventHub', () => {
  it('writes each live subscriber the same bytes of every batch, reading the store not once', async () => {
    const log = fakeLog();
    log.commit(3);
    const hub = hubOn(log);
    const subs = Array.from({ length: 50 }, () => socket());
    for (const sub of subs) hub.join({ socket: sub.s, after: log.lastSeq });
    for (let i = 0; i < 20; i++) {
      log.commit(1 + (i % 3));
      await turn();
    }
    await settle(log);
    expect(log.reads).toBe(0);
    expect(subs[0]!.writes.length).toBe(20);
    for (const sub of subs) {
      expect(sub.seqs()).toEqual(range(4, log.lastSeq));
      // Framed once: the same Buffer went to every socket.
      sub.writes.forEach((w, i) => expect(w).toBe(subs[0]!.writes[i]));
    }
    expect(subs[0]!.messages[0]).toBe(JSON.stringify({ type: 'event', event: ev(4) }));
  });

  it('a subscriber joining with after_seq replays from the store, then goes live with no gap and no repeat while commits land', async () => {
    const log = fakeLog();
    for (let i = 0; i < 120; i++) log.commit(1 + (i % 4));
    const hub = hubOn(log, { page: 50 });
    const live = socket();
    hub.join({ socket: live.s, after: log.lastSeq });
    const startedLive = log.lastSeq;
    // Commits land during every read of the replay: one batch before each answer.
    log.onRead = () => log.commit(2);
    const late = socket();
    const stream = hub.join({ socket: late.s, after: 7 });
    expect(stream.live).toBe(false);
    await settle(log);
    log.onRead = null;
    const readsToCatchUp = log.reads;
    expect(stream.live).toBe(true);
    for (let i = 0; i < 10; i++) {
      log.commit(2);
      await turn();
    }
    await settle(log);
    expect(late.seqs()).toEqual(range(8, log.lastSeq));
    expect(live.seqs()).toEqual(range(startedLive + 1, log.lastSeq));
    // Caught up, it reads nothing more: the ten commits after went out as shared bytes.
    expect(log.reads).toBe(readsToCatchUp);
  });

  it('batches heard out of seq order are neither a gap nor a repeat, in one flush or across two', async () => {
    const log = fakeLog();
    const hub = hubOn(log);
    const sub = socket();
    const stream = hub.join({ socket: sub.s, after: 0 });
    // In one flush: B's listeners run before A's, and the flush sorts them into one run.
    const a = log.store(2);
    const b = log.store(3);
    log.publish(b);
    log.publish(a);
    await settle(log);
    expect(sub.seqs()).toEqual([1, 2, 3, 4, 5]);
    expect(log.reads).toBe(0);
    // Across flushes: D is offered before C; the stream reads the store from its last seq once.
    const c = log.store(1);
    const d = log.store(2);
    log.publish(d);
    await turn();
    log.publish(c);
    await settle(log);
    expect(sub.seqs()).toEqual(range(1, 8));
    expect(log.reads).toBe(1);
    expect(stream.live).toBe(true);
    log.commit(1);
    await settle(log);
    expect(sub.seqs()).toEqual(range(1, 9));
    expect(log.reads).toBe(1);
  });

  it('closes a subscriber that falls too far behind with 4008, and the others carry on', async () => {
    const log = fakeLog();
    const hub = hubOn(log, { maxBuffered: 2000 });
    const stuck = socket();
    const fine = socket(true);
    hub.join({ socket: stuck.s, after: 0 });
    hub.join({ socket: fine.s, after: 0 });
    for (let i = 0; i < 40; i++) {
      log.commit(1);
      await turn();
    }
    await settle(log);
    expect(stuck.closes).toEqual([[4008, 'too slow: reconnect with after_seq to resume']]);
    expect(stuck.seqs().length).toBeLessThan(40);
    expect(fine.seqs()).toEqual(range(1, 40));
    expect(fine.closes).toEqual([]);
  });

  describe('with fake timers', () => {
    beforeEach(() => {
      vi.useFakeTimers({
        toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'Date'],
      });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('gathers what commits while it waits into one write per subscriber, and holds no timer when quiet', () => {
      const log = fakeLog();
      const hub = hubOn(log, { gatherMs: 50 });
      const subs = [socket(), socket()];
      for (const sub of subs) hub.join({ socket: sub.s, after: 0 });
      log.commit(1);
      vi.advanceTimersToNextTimer(); // the next turn: an event after a quiet spell goes out at once
      expect(subs[0]!.writes.length).toBe(1);
      for (let i = 0; i < 30; i++) log.commit(1);
      vi.advanceTimersByTime(49);
      expect(subs[0]!.writes.length).toBe(1);
      vi.advanceTimersByTime(1);
      for (const sub of subs) {
        expect(sub.writes.length).toBe(2);
        expect(sub.seqs()).toEqual(range(1, 31));
      }
      vi.advanceTimersByTime(50);
      expect(vi.getTimerCount()).toBe(0);
      hub.close();
    });

    it('a commit after the wait goes out with it, before its timer runs (a busy loop runs timers late)', () => {
      const log = fakeLog();
      const hub = hubOn(log, { gatherMs: 50 });
      const sub = socket();
      hub.join({ socket: sub.s, after: 0 });
      log.commit(1);
      vi.advanceTimersToNextTimer();
      expect(sub.writes.length).toBe(1);
      log.commit(1);
      vi.setSystemTime(Date.now() + 49);
      log.commit(1);
      // Inside the wait: held.
      expect(sub.seqs()).toEqual([1]);
      // The wait is over and its timer has not run: the next commit sends all that waited, at once.
      vi.setSystemTime(Date.now() + 1);
      log.commit(1);
      expect(sub.writes.length).toBe(2);
      expect(sub.seqs()).toEqual([1, 2, 3, 4]);
      hub.close();
    });

    it('without a set wait, waits after a flush in step with its subscribers: 80 wait 10 ms, no more than 50', () => {
      expect([1, 80, 400, 10_000].map(gatherFor)).toEqual([0.125, 10, 50, 50]);
      const log = fakeLog();
      const hub = hubOn(log, { gatherMs: undefined });
      const subs = Array.from({ length: 80 }, () => socket());
      for (const sub of subs) hub.join({ socket: sub.s, after: 0 });
      log.commit(1);
      vi.advanceTimersToNextTimer();
      expect(subs[0]!.writes.length).toBe(1);
      log.commit(2);
      vi.advanceTimersByTime(9);
      expect(subs[0]!.writes.length).toBe(1);
      vi.advanceTimersByTime(1);
      for (const sub of subs) expect(sub.seqs()).toEqual([1, 2, 3]);
      expect(subs.every((sub) => sub.writes.length === 2)).toBe(true);
      hub.close();
    });

    it('close() leaves the log without a listener, no timer, and sends nothing more', () => {
      const log = fakeLog();
      const hub = hubOn(log, { gatherMs: 50 });
      const sub = socket();
      hub.join({ socket: sub.s, after: 0 });
      expect(log.listeners).toBe(1);
      log.commit(1);
      vi.advanceTimersToNextTimer();
      log.commit(1);
      hub.close();
      expect(log.listeners).toBe(0);
      expect(hub.size).toBe(0);
      expect(vi.getTimerCount()).toBe(0);
      log.commit(1);
      vi.runAllTimers();
      expect(sub.seqs()).toEqual([1]);
    });
  });
});
