import { closeSync } from 'node:fs';
import { basename } from 'node:path';
import { JigError } from '../../contract/errors.js';
import { MAX_LOG_READ, type Session } from '../../contract/routes/work-items/sessions.js';
import type { Store } from '../../store/database.js';
import { getSession, sessionsOf, type SessionRecord } from '../../store/sessions.js';
import { itemOr404 } from '../../store/work-items.js';
import { openRegular, readAt, regularSize } from '../fs/regular-file.js';

/** A cost is reported, estimated from tokens, or the harness's per-launch figure; anything else reads as unpriced. */
function costSource(s: SessionRecord): Session['cost_source'] {
  const c = s.cost_source;
  return c === 'reported' || c === 'estimated' || c === 'per_launch' ? c : null;
}

function sessionOf(s: SessionRecord): Session {
  return {
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
    cost_source: costSource(s),
    readout: s.readout,
    note: s.note,
  };
}

/** A part of a session's output log: its text, where it starts and how long the log is. */
export interface LogPart {
  text: string;
  start: number;
  size: number;
}

/** Task sessions of an item and their output logs, as the API shows them. */
export class SessionsView {
  constructor(private readonly d: { store: Store }) {}

  async list(id: string): Promise<Session[]> {
    await itemOr404(this.d.store.db, id);
    return (await sessionsOf(this.d.store.db, id)).map(sessionOf);
  }

  /** `tail` bytes from the end, else from `offset`, at most MAX_LOG_READ. */
  async log(
    id: string,
    session: string,
    at: { tail?: number | undefined; offset?: number | undefined },
  ): Promise<LogPart> {
    const s = await getSession(this.d.store.db, session);
    // The session must belong to the item named in the path: no reading across items.
    if (!s || s.work_item_id !== id) throw new JigError('not_found', { what: `session ${session}` });
    // The task could have replaced its log: never wait on a FIFO or read through a link.
    const log = openRegular(s.log_path);
    if (!log.ok && log.reason !== 'missing')
      throw new JigError('not_found', {
        what: `the log of session ${s.id} (${basename(s.log_path)} ${log.detail})`,
      });
    if (!log.ok) return { text: '', start: 0, size: 0 };
    try {
      const size = log.stat.size;
      const start = at.tail !== undefined ? Math.max(0, size - at.tail) : Math.min(at.offset ?? 0, size);
      const text = readAt(log.fd, start, Math.min(size - start, MAX_LOG_READ)).toString('utf8');
      return { text, start, size };
    } finally {
      closeSync(log.fd);
    }
  }
}
