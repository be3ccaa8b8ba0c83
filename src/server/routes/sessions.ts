import { closeSync } from 'node:fs';
import { basename } from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBodySchema } from '../../contract/error-body.js';
import { JigError } from '../../contract/errors.js';
import { getSession, sessionsOf } from '../../store/sessions.js';
import { getItem } from '../../store/work-items.js';
import { openRegular, readAt, regularSize } from '../../runtime/fs/regular-file.js';
import type { Instance } from '../../runtime/instance.js';

const Session = z.object({
  id: z.string(),
  node: z.string(),
  task_path: z.string(),
  kind: z.string(),
  status: z.string(),
  argv: z.array(z.string()),
  pid: z.number().int().nullable(),
  exit_code: z.number().int().nullable(),
  result: z.record(z.string(), z.unknown()).nullable(),
  time_cap_s: z.number().int().nullable(),
  started_at: z.string(),
  exited_at: z.string().nullable(),
  log_bytes: z.number().int(),
  harness: z.string().nullable().describe('agent sessions: the harness id'),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  cli_session_id: z.string().nullable().describe("the CLI's own session id (its resume key)"),
  tokens: z.object({
    input: z.number().int(),
    output: z.number().int(),
    cache_read: z.number().int(),
    cache_write: z.number().int(),
  }),
  cost_usd: z.number().nullable(),
  cost_source: z.enum(['reported', 'estimated']).nullable().describe('null: unknown (never free)'),
  readout: z.record(z.string(), z.unknown()).nullable(),
  note: z.string().nullable().describe('why the session ended as it did, when Jig knows'),
});

const MAX_READ = 1024 * 1024;

/** Task sessions of an item and their output logs. */
export function sessionRoutes(inst: Instance): FastifyPluginAsyncZod {
  return async (app) => {
    const known = async (id: string) => {
      if (!(await getItem(inst.store.db, id))) throw new JigError('item_not_found', { id });
    };
    app.get(
      '/api/work-items/:id/sessions',
      {
        schema: {
          summary: "An item's task sessions, oldest first",
          tags: ['sessions'],
          params: z.object({ id: z.string().min(1).max(64) }),
          response: { 200: z.object({ sessions: z.array(Session) }), 404: ErrorBodySchema },
        },
      },
      async (req) => {
        await known(req.params.id);
        const rows = await sessionsOf(inst.store.db, req.params.id);
        return {
          sessions: rows.map((s) => ({
            id: s.id,
            node: s.node,
            task_path: s.task_path,
            kind: s.kind,
            status: s.status,
            argv: s.argv,
            pid: s.pid,
            exit_code: s.exit_code,
            result: s.result,
            time_cap_s: s.time_cap_s,
            started_at: s.started_at,
            exited_at: s.exited_at,
            log_bytes: regularSize(s.log_path),
            harness: s.harness,
            provider: s.provider,
            model: s.model,
            cli_session_id: s.cli_session_id,
            tokens: {
              input: s.tokens_input,
              output: s.tokens_output,
              cache_read: s.tokens_cache_read,
              cache_write: s.tokens_cache_write,
            },
            cost_usd: s.cost_usd,
            cost_source: s.cost_source as 'reported' | 'estimated' | null,
            readout: s.readout,
            note: s.note,
          })),
        };
      },
    );
    app.get(
      '/api/work-items/:id/sessions/:session/log',
      {
        schema: {
          summary: "A session's output (text); `offset` reads on from a byte position, `tail` the last bytes",
          tags: ['sessions'],
          params: z.object({ id: z.string().min(1).max(64), session: z.string().min(1).max(64) }),
          querystring: z.object({
            offset: z.coerce.number().int().min(0).optional(),
            tail: z.coerce.number().int().min(1).max(MAX_READ).optional(),
          }),
          response: { 200: z.string(), 404: ErrorBodySchema, 422: ErrorBodySchema },
        },
      },
      async (req, reply) => {
        const s = await getSession(inst.store.db, req.params.session);
        // The session must belong to the item named in the path: no reading across items.
        if (!s || s.work_item_id !== req.params.id)
          throw new JigError('not_found', { what: `session ${req.params.session}` });
        // The task could have replaced its log: never wait on a FIFO or read through a link.
        const log = openRegular(s.log_path);
        if (!log.ok && log.reason !== 'missing')
          throw new JigError('not_found', {
            what: `the log of session ${s.id} (${basename(s.log_path)} ${log.detail})`,
          });
        let size = 0;
        let start = 0;
        let buf: Buffer = Buffer.alloc(0);
        if (log.ok) {
          try {
            size = log.stat.size;
            start =
              req.query.tail !== undefined
                ? Math.max(0, size - req.query.tail)
                : Math.min(req.query.offset ?? 0, size);
            buf = readAt(log.fd, start, Math.min(size - start, MAX_READ));
          } finally {
            closeSync(log.fd);
          }
        }
        void reply
          .header('content-type', 'text/plain; charset=utf-8')
          .header('x-log-offset', String(start))
          .header('x-log-size', String(size));
        return buf.toString('utf8');
      },
    );
  };
}
