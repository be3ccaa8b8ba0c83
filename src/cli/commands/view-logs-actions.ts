import { MAX_LOG_READ, type Session } from '../../contract/routes/work-items/sessions.js';
import { JigClient } from '../../client/http.js';
import { getItem, listSessions } from '../../client/items.js';
import { ENDED_STATUSES, readLogFrom } from '../../client/view-items.js';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';
import { outputStyle, paint, statusColour, table } from '../table.js';
import { endedLine, outcomeCode } from './view-events-actions.js';
import { itemFor } from './view-target.js';
import type { WorkItem } from '../../contract/items.js';

interface LogsOpts {
  session?: string;
  lines?: string;
  follow?: boolean;
  list?: boolean;
  json?: boolean;
}

const POLL_MS = 300;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Writes a session's output: as is, or (`--json`) one `{session, task_path, line}` object per
 * line, a partial line held back until its end arrives or the output ends.
 */
class LogPrinter {
  private readonly partial = new Map<string, string>();
  private shown: string | null = null;

  constructor(
    private readonly json: boolean,
    private readonly headers: boolean,
  ) {}

  write(s: Session, text: string): void {
    if (text.length === 0) return;
    if (!this.json) {
      // The first session's output needs no label; a switch to another does.
      if (this.headers && this.shown !== null && this.shown !== s.id) {
        const style = outputStyle();
        process.stdout.write(`${paint(style, 'bold', `==> ${s.id} ${s.task_path} <==`)}\n`);
      }
      this.shown = s.id;
      process.stdout.write(text);
      return;
    }
    const lines = ((this.partial.get(s.id) ?? '') + text).split('\n');
    this.partial.set(s.id, lines.pop() ?? '');
    for (const line of lines)
      process.stdout.write(`${JSON.stringify({ session: s.id, task_path: s.task_path, line })}\n`);
  }

  flush(s: Session): void {
    const rest = this.partial.get(s.id);
    if (this.json && rest)
      process.stdout.write(`${JSON.stringify({ session: s.id, task_path: s.task_path, line: rest })}\n`);
    this.partial.delete(s.id);
  }
}

function lastLines(text: string, n: number): string {
  const lines = text.split('\n');
  const trailing = lines[lines.length - 1] === '' ? lines.pop() : undefined;
  return lines.slice(-n).join('\n') + (trailing === undefined ? '' : '\n');
}

/** Reads a session from `offset` to its current end; answers the new offset. */
async function readOn(
  c: JigClient,
  id: string,
  s: Session,
  offset: number,
  out: (text: string) => void,
): Promise<number> {
  for (;;) {
    const chunk = await readLogFrom(c, id, s.id, offset);
    const bytes = Buffer.byteLength(chunk);
    out(chunk);
    offset += bytes;
    if (bytes < MAX_LOG_READ) return offset;
  }
}

/** The start of what is shown of a session: all of it, or its last N lines. */
async function start(
  c: JigClient,
  id: string,
  s: Session,
  lines: number | null,
  p: LogPrinter,
): Promise<number> {
  if (lines === null) return readOn(c, id, s, 0, (t) => p.write(s, t));
  const from = Math.max(0, s.log_bytes - MAX_LOG_READ);
  const text = await readLogFrom(c, id, s.id, from);
  p.write(s, lastLines(text, lines));
  return from + Buffer.byteLength(text);
}

function listed(sessions: Session[], json: boolean): number {
  if (json) {
    printJson({ sessions });
    return EXIT_OK;
  }
  const style = outputStyle();
  const rows = sessions.map((s) => [
    s.id,
    { text: s.status, colour: s.status === 'running' ? statusColour('running') : null },
    s.task_path,
    s.started_at,
    `${s.log_bytes} bytes`,
  ]);
  process.stdout.write(table(style, ['SESSION', 'STATUS', 'TASK', 'STARTED', 'LOG'], rows));
  return EXIT_OK;
}

/**
 * Follows output by reading on from each session's offset every 300 ms (the API has no log stream).
 * Without `only`, sessions that had exited before the follow began are skipped except the latest,
 * and every session that starts later is followed.
 */
async function follow(
  c: JigClient,
  id: string,
  initial: Session[],
  only: Session | null,
  lines: number | null,
  json: boolean,
): Promise<number> {
  const p = new LogPrinter(json, only === null);
  const offsets = new Map<string, number>();
  const latest = initial[initial.length - 1];
  for (const s of initial) {
    if (only ? s.id !== only.id : s.status !== 'running' && s.id !== latest?.id) offsets.set(s.id, -1);
  }
  for (const s of initial) if (!offsets.has(s.id)) offsets.set(s.id, await start(c, id, s, lines, p));
  for (;;) {
    // The end is read before the output, so the last pass reads everything written before it.
    const item = only ? null : await getItem(c, id);
    const { sessions } = await listSessions(c, id);
    for (const s of sessions) {
      const at = offsets.get(s.id) ?? 0;
      if (at < 0) continue;
      offsets.set(s.id, await readOn(c, id, s, at, (t) => p.write(s, t)));
    }
    if (only) {
      const now = sessions.find((s) => s.id === only.id);
      if (!now || now.status !== 'running') {
        p.flush(only);
        return now?.exit_code === 0 ? EXIT_OK : EXIT_FAIL;
      }
    } else if (item && ENDED_STATUSES.has(item.status)) {
      for (const s of sessions) p.flush(s);
      process.stderr.write(endedLine(item));
      return outcomeCode(item);
    }
    await sleep(POLL_MS);
  }
}

/** Sessions that ended well or still run: their output does not say why an item stopped. */
const NOT_A_FAILURE = new Set<Session['status']>(['done', 'done_with_concerns', 'running', 'waiting']);

/**
 * An item stopped by something no task's output shows: a launch refused before any process ran (an
 * agent CLI not installed, a sandbox that cannot start, a cap reached before the launch) while its
 * latest session, often the setup command, passed. Its stop is the failure to show; null otherwise.
 */
function stopOutsideLogs(item: WorkItem, latest: Session | undefined): WorkItem['stop'] {
  const stop = item.stop;
  if (item.status !== 'stopped' || !stop || stop.kind === 'gate' || stop.kind === 'rate_limit') return null;
  return latest === undefined || NOT_A_FAILURE.has(latest.status) ? stop : null;
}

function printStop(
  id: string,
  stop: NonNullable<WorkItem['stop']>,
  latest: Session | undefined,
  json: boolean,
) {
  const text = `item ${id} stopped (${stop.kind}) before a task wrote why: ${stop.reason}`;
  if (json) process.stdout.write(`${JSON.stringify({ session: null, task_path: null, line: text })}\n`);
  else process.stdout.write(`${text}\n`);
  if (latest)
    process.stderr.write(
      `jig: its latest session, ${latest.id} (${latest.task_path}), ${latest.status === 'running' ? 'runs' : 'passed'}; --session ${latest.id} shows its output\n`,
    );
}

/** `jig view logs`. */
export function viewLogs(given: string | undefined, opts: LogsOpts): Promise<void> {
  return runVerb(async () => {
    const client = new JigClient();
    const id = await itemFor(client, 'view logs', given);
    if (!id) return EXIT_USAGE;
    const lines = opts.lines === undefined ? null : Number(opts.lines);
    if (lines !== null && (!Number.isInteger(lines) || lines < 1)) {
      process.stderr.write(`jig: -n ${opts.lines} is not a whole number from 1\n`);
      return EXIT_USAGE;
    }
    const { sessions } = await listSessions(client, id);
    if (opts.list) return listed(sessions, opts.json === true);
    const chosen = opts.session ? sessions.find((s) => s.id === opts.session) : sessions[sessions.length - 1];
    if (opts.session && !chosen) {
      process.stderr.write(`jig: item ${id} has no session ${opts.session} (view logs ${id} --list)\n`);
      return EXIT_USAGE;
    }
    if (!opts.follow) {
      // Asked for the item's output with no session named: the failure it stopped on comes first.
      const stop = opts.session ? null : stopOutsideLogs(await getItem(client, id), chosen);
      if (stop) {
        printStop(id, stop, chosen, opts.json === true);
        return EXIT_OK;
      }
      if (!chosen) {
        process.stderr.write(`jig: item ${id} has run no task yet\n`);
        return EXIT_USAGE;
      }
      const p = new LogPrinter(opts.json === true, false);
      await start(client, id, chosen, lines, p);
      p.flush(chosen);
      return EXIT_OK;
    }
    return follow(client, id, sessions, opts.session ? (chosen ?? null) : null, lines, opts.json === true);
  });
}
