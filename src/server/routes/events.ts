import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WebSocket } from '@fastify/websocket';
import { z } from 'zod';
import { ErrorBodySchema } from '../../contract/error-body.js';
import { EventsPage, EventsQuery } from '../../contract/events.js';
import { JigError } from '../../contract/errors.js';
import { readEvents } from '../../store/events.js';
import { EventStream } from '../event-stream.js';
import { getItem } from '../../store/work-items.js';
import type { Instance } from '../../runtime/instance.js';

const PING_MS = 25_000;

export function eventRoutes(inst: Instance): FastifyPluginAsyncZod {
  return async (app) => {
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
          querystring: z.object({ after_seq: z.coerce.number().int().min(0).optional() }),
        },
      },
      (socket: WebSocket, req) => {
        const query = req.query;
        const stream = new EventStream({
          socket,
          after: query.after_seq ?? inst.events.lastSeq,
          read: (after, limit) => readEvents(inst.store.db, { after, limit }),
          onError: (err) => req.log.warn({ err }, 'event stream failed'),
        });
        const pull = (): Promise<void> => stream.pull();

        const unsubscribe = inst.events.subscribe(() => void pull());
        const ping = setInterval(() => socket.ping(), PING_MS);
        socket.on('close', () => {
          stream.close();
          clearInterval(ping);
          unsubscribe();
        });
        socket.send(
          JSON.stringify({ type: 'hello', after_seq: stream.lastSent, last_seq: inst.events.lastSeq }),
        );
        void pull();
      },
    );
  };
}
