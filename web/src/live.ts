import { useEffect, useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { EventRecord } from '../../src/contract/events.js';
import { eventStreamUrl } from './api.js';
import { applyBatch } from './item-cache.js';

/*
 * The board stays live over the event stream's WebSocket. The first connection starts from now and
 * its hello makes every list refetch (so nothing between the first fetch and the socket is lost); a
 * reconnection asks for `after_seq` = the last event seen, so the server replays what was missed,
 * each event once. Events are batched (150 ms): a batch reads each item it names once and puts it in
 * place in the cached lists, and refreshes only that item's own reads (item-cache.ts says when a
 * list is read again instead).
 */

export type LiveState = 'connecting' | 'live' | 'reconnecting';

type Frame =
  | { type: 'hello'; after_seq: number; last_seq: number }
  | { type: 'event'; event: EventRecord }
  | { type: string };

const listeners = new Set<(e: EventRecord) => void>();

/** Runs `fn` for each live event while the component is mounted. */
export function useEventListener(fn: (e: EventRecord) => void): void {
  useEffect(() => {
    listeners.add(fn);
    return () => void listeners.delete(fn);
  }, [fn]);
}

/** The events of a batch not yet applied. */
class Pending {
  touched = new Set<string>();
  created = false;
  hello = false;

  take() {
    const batch = { touched: this.touched, created: this.created, hello: this.hello };
    this.touched = new Set();
    this.created = false;
    this.hello = false;
    return batch;
  }
}

export function useLive(client: QueryClient): LiveState {
  const [state, setState] = useState<LiveState>('connecting');
  useEffect(() => {
    let lastSeq: number | null = null;
    let socket: WebSocket | null = null;
    let retry: number | undefined;
    let flush: number | undefined;
    let attempt = 0;
    let stopped = false;
    const pending = new Pending();
    // One batch at a time: a later batch's read of an item must not land before an earlier one's.
    let applying: Promise<void> = Promise.resolve();
    const apply = () => {
      flush = undefined;
      const batch = pending.take();
      applying = applying.then(() => applyBatch(client, batch)).catch(() => undefined);
    };
    const soon = () => {
      flush ??= window.setTimeout(apply, 150);
    };
    const open = () => {
      socket = new WebSocket(eventStreamUrl(lastSeq));
      socket.onmessage = (m: MessageEvent<string>) => {
        const frame = JSON.parse(m.data) as Frame;
        if (frame.type === 'hello' && 'last_seq' in frame) {
          attempt = 0;
          setState('live');
          lastSeq ??= frame.last_seq;
          pending.hello = true;
          soon();
        } else if (frame.type === 'event' && 'event' in frame) {
          const e = frame.event;
          if (lastSeq !== null && e.seq <= lastSeq) return;
          lastSeq = e.seq;
          if (e.work_item_id) pending.touched.add(e.work_item_id);
          if (e.type === 'work_item_created') pending.created = true;
          for (const l of listeners) l(e);
          soon();
        }
      };
      socket.onclose = () => {
        if (stopped) return;
        setState('reconnecting');
        // 0.5 s, 1 s, 2 s … up to 10 s between attempts while the server is away.
        retry = window.setTimeout(open, Math.min(10_000, 500 * 2 ** attempt++));
      };
    };
    open();
    return () => {
      stopped = true;
      window.clearTimeout(retry);
      window.clearTimeout(flush);
      socket?.close();
    };
  }, [client]);
  return state;
}
