import type { FastifyInstance } from 'fastify';
import { JigError } from '../contract/errors.js';

/**
 * Reads and drops the body of a GET or HEAD request before it is answered. Fastify parses no body
 * for them, so an answer larger than the socket buffers (the 400 KB OpenAPI document) could be
 * sent while the caller was still writing its body; closing with unread bytes then resets the
 * connection, and the caller loses the answer. Bounded like every body: past the limit, 413.
 */
export function drainBodilessRequests(app: FastifyInstance, limit: number): void {
  app.addHook('onRequest', (req, _reply, done) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return done();
    const raw = req.raw;
    const length = Number(raw.headers['content-length'] ?? 0);
    if (!(length > 0) && raw.headers['transfer-encoding'] === undefined) return done();
    if (length > limit) return done(new JigError('payload_too_large', { limit }));
    let seen = 0;
    let settled = false;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      raw.off('data', count);
      if (err) done(err);
      else done();
    };
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) finish(new JigError('payload_too_large', { limit }));
    };
    raw.on('data', count);
    raw.once('end', () => finish());
    raw.once('error', (e) => finish(e));
    // A caller that gives up mid-body ends the request without `end`: nothing waits on it then.
    raw.once('close', () => finish());
  });
}
