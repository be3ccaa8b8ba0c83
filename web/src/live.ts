import { useEffect, useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { EventRecord } from '../../src/contract/events.js';

/*
 * The board stays live over `WS /api/ws/events`. The first connection starts from now and its
 * hello makes every list refetch (so nothing between the first fetch and the socket is lost); a
 * reconnection asks for `after_seq` = the last event seen, so the server replays what was missed,
 * each event once. Events are batched: many in a burst cost one refetch per query.
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

export function useLive(client: QueryClient): LiveState {
  const [state, setState] = useState<LiveState>('connecting');
  useEffect(() => {
    let lastSeq: number | null = null;
    let socket: WebSocket | null = null;
    let retry: number | undefined;
    let flush: number | undefined;
    let attempt = 0;
    let stopped = false;
    const touched = new Set<string>();
    const refresh = () => {
      flush = undefined;
      void client.invalidateQueries({ queryKey: ['items'] });
      for (const id of touched) void client.invalidateQueries({ queryKey: ['item', id] });
      touched.clear();
    };
    const soon = () => {
      flush ??= window.setTimeout(refresh, 150);
    };
    const open = () => {
      const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
      const query = lastSeq === null ? '' : `?after_seq=${lastSeq}`;
      socket = new WebSocket(`${proto}//${location.host}/api/ws/events${query}`);
      socket.onmessage = (m: MessageEvent<string>) => {
        const frame = JSON.parse(m.data) as Frame;
        if (frame.type === 'hello' && 'last_seq' in frame) {
          attempt = 0;
          setState('live');
          lastSeq ??= frame.last_seq;
          soon();
        } else if (frame.type === 'event' && 'event' in frame) {
          const e = frame.event;
          if (lastSeq !== null && e.seq <= lastSeq) return;
          lastSeq = e.seq;
          if (e.work_item_id) touched.add(e.work_item_id);
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
