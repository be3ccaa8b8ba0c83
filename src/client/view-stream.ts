import WebSocket from 'ws';
import { z } from 'zod';
import { EventRecord } from '../contract/events.js';
import type { JigClient } from './http.js';

const Frame = z.union([
  z.object({ type: z.literal('hello'), after_seq: z.number(), last_seq: z.number() }),
  z.object({ type: z.literal('event'), event: EventRecord }),
]);

/** The `detail` of a JSON error body, or '' when the body is not one. */
function refusalDetail(body: string): string {
  try {
    const parsed = z.object({ detail: z.string() }).safeParse(JSON.parse(body));
    return parsed.success ? parsed.data.detail : '';
  } catch {
    return '';
  }
}

/** How a followed stream ended: closed by us, or by the server (stopped, or this client too slow). */
export type StreamEnd = { by: 'client' } | { by: 'server'; code: number; reason: string };

export interface EventStream {
  /** Settles when the connection is gone; rejects when it could not be opened. */
  readonly ended: Promise<StreamEnd>;
  close(): void;
}

/**
 * Opens the live event stream (`/api/ws/events`) after a global `seq` (null: from now on). Every event of every item
 * arrives in seq order; `onEvent` runs for each in turn (a returned promise is awaited before the
 * next, so a caller can look something up between two events without reordering them).
 * `onReady` runs once the server follows the log for this client: a caller that read state before
 * the stream opened re-reads it then, so nothing stored in between is missed.
 */
export function openEventStream(
  c: JigClient,
  afterSeq: number | null,
  onEvent: (e: EventRecord) => void | Promise<void>,
  onReady?: () => void,
): EventStream {
  // Without a seq the stream starts at the newest event.
  const query = afterSeq === null ? '' : `?after_seq=${afterSeq}`;
  const url = `${c.server.url.replace(/^http/, 'ws')}/api/ws/events${query}`;
  const headers: Record<string, string> = {};
  if (c.server.token) headers.authorization = `Bearer ${c.server.token}`;
  const ws = new WebSocket(url, { headers });
  let closing = false;
  let chain: Promise<void> = Promise.resolve();
  const ended = new Promise<StreamEnd>((resolve, reject) => {
    ws.on('message', (data: WebSocket.RawData) => {
      const text = Array.isArray(data)
        ? Buffer.concat(data).toString('utf8')
        : Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString('utf8');
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return;
      }
      const frame = Frame.safeParse(parsed);
      // A frame of a kind this client does not know (a newer server) is skipped, not fatal.
      if (!frame.success) return;
      // Every event after the hello's seq follows it: state read before the hello may be stale.
      if (frame.data.type === 'hello') return onReady?.();
      const event = frame.data.event;
      chain = chain
        .then(() => (closing ? undefined : onEvent(event)))
        .catch((err: unknown) => {
          closing = true;
          ws.close();
          reject(err instanceof Error ? err : new Error(String(err)));
        });
    });
    // A refused handshake says why in its body (a login, the stream cap); ws leaves reading it to us.
    ws.on('unexpected-response', (req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        if (body.length < 4096) body += d;
      });
      res.on('end', () => {
        req.destroy();
        const detail = refusalDetail(body);
        reject(
          new Error(`the event stream was refused (HTTP ${res.statusCode})${detail ? `: ${detail}` : ''}`),
        );
      });
      res.on('error', () => reject(new Error(`the event stream was refused (HTTP ${res.statusCode})`)));
    });
    ws.on('close', (code, reason) => {
      void chain.then(() =>
        resolve(closing ? { by: 'client' } : { by: 'server', code, reason: reason.toString('utf8') }),
      );
    });
    ws.on('error', (err) => reject(err));
  });
  return {
    ended,
    close() {
      closing = true;
      ws.close();
    },
  };
}
