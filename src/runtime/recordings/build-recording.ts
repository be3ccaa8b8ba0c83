import { closeSync } from 'node:fs';
import { openRegular, readAt } from '../fs/regular-file.js';
import type { GateDecision } from '../../contract/chain-test.js';
import type { EventRecord } from '../../contract/events.js';
import type { RecordedGate, RecordedSession, Recording } from '../../contract/recording.js';
import type { Store } from '../../store/database.js';
import { readEvents } from '../../store/events.js';
import { sessionsOf, type SessionRecord } from '../../store/sessions.js';
import { itemOr404 } from '../../store/work-items.js';
import { pathOf } from '../chain-test/report.js';
import { readChanges } from './session-changes.js';

/*
 * An item's recording (issue 51): its row, its frozen chain, the path its events took, each
 * session with what it answered and changed, each gate decision. Read from the store and the
 * home's run folder; nothing of the item changes.
 */

/** A stream is kept from its end: the result line and the usage are last. */
const STREAM_LIMIT = 256 * 1024;

/** The log's end; the task can write where its log is, so only a regular file is read. */
function tail(path: string): string {
  const opened = openRegular(path);
  if (!opened.ok) return '';
  try {
    const length = Math.min(opened.stat.size, STREAM_LIMIT);
    return readAt(opened.fd, opened.stat.size - length, length).toString('utf8');
  } finally {
    closeSync(opened.fd);
  }
}

function session(s: SessionRecord, attempt: number, runDir: string): RecordedSession {
  const changes = s.kind === 'agent' || s.provider !== null ? readChanges(runDir, s.id) : null;
  return {
    task: s.task_path,
    attempt,
    kind: s.kind,
    status: s.status,
    exit_code: s.exit_code,
    harness: s.harness,
    model: s.model,
    cost_usd: s.cost_usd,
    tokens: {
      input: s.tokens_input,
      output: s.tokens_output,
      cache_read: s.tokens_cache_read,
      cache_write: s.tokens_cache_write,
    },
    note: s.note,
    result: s.result,
    document: changes?.document ?? null,
    files: changes?.files ?? null,
    skipped_files: changes?.skipped ?? [],
    stream: tail(s.log_path),
    started_at: s.started_at,
    exited_at: s.exited_at,
  };
}

function gate(e: EventRecord): RecordedGate | null {
  const p = e.payload;
  const name = typeof p.gate === 'string' ? p.gate : e.node;
  if (name === null) return null;
  let decision: GateDecision;
  if (e.type === 'gate_approved') decision = 'approve';
  else if (e.type === 'gate_rejected' && typeof p.note === 'string' && p.note !== '')
    decision = typeof p.reject_to === 'string' ? { reject: p.note, node: p.reject_to } : { reject: p.note };
  else return null;
  return { gate: name, decision, by: e.by };
}

/** Every event of an item, in order (its log is read in pages). */
async function allEvents(store: Store, id: string): Promise<EventRecord[]> {
  const out: EventRecord[] = [];
  for (;;) {
    const page = await readEvents(store.db, { workItemId: id, after: out.at(-1)?.seq ?? 0, limit: 1000 });
    out.push(...page);
    if (page.length < 1000) return out;
  }
}

export async function buildRecording(
  d: { store: Store; runDir: string; now: () => Date },
  id: string,
): Promise<Recording> {
  const rec = await itemOr404(d.store.db, id);
  const events = await allEvents(d.store, id);
  const attempts = new Map<string, number>();
  const sessions = (await sessionsOf(d.store.db, id)).map((s) => {
    const n = (attempts.get(s.task_path) ?? 0) + 1;
    attempts.set(s.task_path, n);
    return session(s, n, d.runDir);
  });
  return {
    format: 'jig-recording',
    version: 1,
    recorded_at: d.now().toISOString(),
    item: {
      id: rec.id,
      title: rec.title,
      chain: rec.chain,
      repo: rec.repo,
      status: rec.status,
      stop: rec.stop_kind === null ? null : { kind: rec.stop_kind, reason: rec.stop_reason ?? '' },
    },
    chain: rec.chain_definition,
    path: pathOf(events).path,
    sessions,
    gates: events.flatMap((e) => gate(e) ?? []),
    spent_usd: rec.spent_usd,
  };
}
