import { closeSync } from 'node:fs';
import type { ModelTask } from '../../core/chain/model.js';
import type { FailedTask } from '../../core/findings/brief.js';
import {
  logTail,
  parseFindings,
  syntheticFinding,
  type TaggedFinding,
} from '../../core/findings/identity.js';
import type { SessionRecord } from '../../store/sessions.js';
import { openRegular, readAt } from '../fs/regular-file.js';

export interface Measurement {
  findings: TaggedFinding[];
  /** Result-file entries that were not valid findings. */
  dropped: number;
  /** Tasks that ended `failed`. */
  failed: (FailedTask & { kind: string })[];
}

/**
 * The last bytes of a log, enough for its last lines. The task could have replaced its log (a FIFO,
 * a link to /dev/zero): anything but a regular file reads as empty.
 */
function readTail(path: string, bytes = 8192): string {
  const log = openRegular(path);
  if (!log.ok) return '';
  try {
    const len = Math.min(log.stat.size, bytes);
    return readAt(log.fd, log.stat.size - len, len).toString('utf8');
  } catch {
    return '';
  } finally {
    closeSync(log.fd);
  }
}

/** How a person would recognise the command: the `run:` line when there is one, else the argv. */
export function commandOf(task: ModelTask | undefined, s: SessionRecord): string {
  if (task?.kind === 'subprocess' && task.run !== undefined) return task.run;
  if (task?.kind === 'builtin') return `${task.ref}: ${s.argv.join(' ')}`;
  return s.argv.join(' ');
}

/**
 * Gathers the findings of one measurement from its sessions' result files (reference §2.9); a task
 * that failed without reporting any becomes one synthetic `critical` finding with its log's tail.
 */
export function measure(
  sessions: readonly SessionRecord[],
  tasks: ReadonlyMap<string, ModelTask>,
): Measurement {
  const out: Measurement = { findings: [], dropped: 0, failed: [] };
  for (const s of sessions) {
    const task = tasks.get(s.task_path);
    const member = s.member ?? undefined;
    const { findings, dropped } = parseFindings(s.result?.findings, s.task_path, member);
    out.findings.push(...findings);
    out.dropped += dropped;
    if (s.status !== 'failed') continue;
    const command = commandOf(task, s);
    out.failed.push({
      task: s.task_path,
      ...(member !== undefined ? { member } : {}),
      command,
      status: s.status,
      session: s.id,
      log: s.log_path,
      kind: task?.kind ?? s.kind,
    });
    if (findings.length === 0)
      out.findings.push(syntheticFinding(s.task_path, command, logTail(readTail(s.log_path)), member));
  }
  return out;
}
