import { closeSync } from 'node:fs';
import { basename } from 'node:path';
import { JigError } from '../../../contract/errors.js';
import { listSessions, MAX_LOG_READ, readSessionLog } from '../../../contract/routes/work-items/sessions.js';
import { getSession, sessionsOf } from '../../../store/sessions.js';
import { getItem } from '../../../store/work-items.js';
import { openRegular, readAt, regularSize } from '../../../runtime/fs/regular-file.js';
import type { Instance } from '../../../runtime/instance.js';
import { routeFile } from '../../route-file.js';

/** Task sessions of an item and their output logs. */
export const sessionRoutes = routeFile(import.meta.url, (r, inst: Instance) => {
  const known = async (id: string) => {
    if (!(await getItem(inst.store.db, id))) throw new JigError('item_not_found', { id });
  };

  r.serve(listSessions, async (req) => {
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
        worker: s.worker,
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
  });

  r.serve(readSessionLog, async (req, reply) => {
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
        buf = readAt(log.fd, start, Math.min(size - start, MAX_LOG_READ));
      } finally {
        closeSync(log.fd);
      }
    }
    void reply
      .header('content-type', 'text/plain; charset=utf-8')
      .header('x-log-offset', String(start))
      .header('x-log-size', String(size));
    return buf.toString('utf8');
  });
});
