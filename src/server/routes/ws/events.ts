import type { WebSocket } from '@fastify/websocket';
import { JigError } from '../../../contract/errors.js';
import { eventStream } from '../../../contract/routes/ws/events.js';
import type { Services } from '../../compose.js';
import { routeFile } from '../../route-file.js';

/** The live event stream: every subscriber shares one read per batch (server/event-hub.ts). */
export const eventStreamRoutes = routeFile(
  import.meta.url,
  (r, inst: Pick<Services, 'events' | 'hub' | 'connections'>) => {
    const { hub, connections } = inst;
    const { pingMs } = connections.limits;
    r.app.addHook('onClose', async () => hub.close());

    r.socket(
      eventStream,
      {
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
          // Last: a stream takes a slot only once it is sure to open (docs/security.md).
          connections.admitWebSocket(req.raw.socket);
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
        // A client that has not answered the last ping by the next is gone (a laptop asleep, a
        // dropped network): its socket is cut, and its slot freed.
        let answered = true;
        socket.on('pong', () => (answered = true));
        const ping = setInterval(() => {
          if (!answered) return socket.terminate();
          answered = false;
          socket.ping();
        }, pingMs);
        socket.on('close', () => {
          clearInterval(ping);
          hub.leave(stream);
        });
      },
    );
  },
);
