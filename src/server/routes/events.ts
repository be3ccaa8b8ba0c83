import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WebSocket } from '@fastify/websocket';
import { z } from 'zod';
import { ErrorBodySchema } from '../../contract/error-body.js';
import { EventsPage, EventsQuery } from '../../contract/events.js';
import { JigError } from '../../contract/errors.js';
import { readEvents } from '../../store/events.js';
import { EventHub } from '../event-hub.js';
import { getItem } from '../../store/work-items.js';
import type { Instance } from '../../runtime/instance.js';

const PING_MS = 25_000;

export function eventRoutes(inst: Instance): FastifyPluginAsyncZod {
  return async (app) => {
    const hub = new EventHub({
      source: inst.events,
      read: (after, limit) => readEvents(inst.store.db, { after, limit }),
    });
    app.addHook('onClose', async () => hub.close());

    app.get(
      '/api/work-items/:id/events',
      {
        schema: {
          summary: "Read an item's events forward (after) or backward (before)",
          tags: ['events'],
          params: z.object({ id: z.string().min(1).max(64) }),
          querystring: EventsQuery,
          response: { 200: EventsPage, 404: ErrorBodySchema, 422: ErrorBodySchema },
        },
      },
      async (req) => {
        const q = req.query;
        if (q.after !== undefined && q.before !== undefined) {
          throw new JigError('validation_failed', { reason: 'query: send after or before, not both' });
        }
        if (!(await getItem(inst.store.db, req.params.id)))
          throw new JigError('item_not_found', { id: req.params.id });
        const events = await readEvents(inst.store.db, { workItemId: req.params.id, ...q });
        const first = events[0];
        const last = events[events.length - 1];
        return {
          events,
          next_after: last ? last.seq : (q.after ?? null),
          next_before: first ? first.seq : (q.before ?? null),
        };
      },
    );

    app.get(
      '/api/ws/events',
      {
        websocket: true,
        schema: {
          hide: true,
          querystring: z.object({
            // Digits only: an empty `after_seq=` is a mistake, not 0 (which would replay everything).
            after_seq: z
              .string()
              .regex(/^\d{1,15}$/, 'is a whole number from 0')
              .transform(Number)
              .optional(),
          }),
        },
        // Refused before the upgrade, as an HTTP answer: a seq past the log's end was never sent by
        // this store (it was reset or restored), and the client would silently wait for events
        // that carry its numbers again.
        preHandler: async (req) => {
          const after = req.query.after_seq;
          if (after !== undefined && after > inst.events.lastSeq) {
            throw new JigError('validation_failed', {
              reason: `querystring.after_seq: ${after} is past the last event (${inst.events.lastSeq}); reconnect without after_seq`,
            });
          }
        },
      },
      (socket: WebSocket, req) => {
        const after = req.query.after_seq ?? inst.events.lastSeq;
        // The hello goes first: the stream sends nothing before it is joined.
        socket.send(JSON.stringify({ type: 'hello', after_seq: after, last_seq: inst.events.lastSeq }));
        const tcp = req.raw.socket;
        const stream = hub.join({
          socket: {
            // Frames shared by every subscriber go straight to the connection: ws would frame and
            // copy them again for each socket. ws writes its own frames (hello, ping, close) to the
            // same connection synchronously, so frames never interleave; after a close frame,
            // nothing more is written.
            write: (frames) => {
              if (socket.readyState === socket.OPEN) tcp.write(frames);
            },
            close: (code, reason) => socket.close(code, reason),
            get bufferedAmount() {
              return socket.bufferedAmount;
            },
          },
          after,
          onError: (err) => req.log.warn({ err }, 'event stream failed'),
        });
        const ping = setInterval(() => socket.ping(), PING_MS);
        socket.on('close', () => {
          clearInterval(ping);
          hub.leave(stream);
        });
      },
    );
  };
}
