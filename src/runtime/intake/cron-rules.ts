import { join } from 'node:path';
import type { IntakeFile } from '../../contract/config/intake.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { Problem } from '../../contract/problems.js';
import type { FileLoad } from '../../core/config/load-file.js';
import { locate } from '../../core/config/tree.js';
import { parseCron, type CronError } from '../../core/cron/index.js';
import { stringPosition } from './cron-position.js';
import { readConfigFile } from '../fs/config-text.js';

/**
 * The cron checks that make a settings file refused (spec: Cron syntax rule 3; When a schedule
 * fires rule 4). They sit beside the file schemas as ConfigState's rule hooks, because the dialect
 * is read by its own parser, and a problem points at the very character at fault: the value's
 * place in the file plus the error's offset in the value.
 */

/** The file's text, read at most once and only when a problem needs a column. */
type TextSource = string | null | (() => string | null);

function once(source: TextSource): () => string | null {
  if (typeof source !== 'function') return () => source;
  let read: { text: string | null } | null = null;
  return () => (read ??= { text: source() }).text;
}

function cronProblem(
  load: FileLoad<unknown>,
  text: string | null,
  list: 'schedules' | 'triggers',
  index: number,
  cron: string,
  error: CronError,
): Problem {
  const path = [list, index, 'cron'];
  // The value's own place, from the loaded tree; the text refines it to the character at fault.
  const start = load.tree ? locate(load.tree, path, 'value') : null;
  const exact = text === null ? null : stringPosition(text, path, error.offset, { value: cron, start });
  const where = exact ?? start ?? { line: null, col: null };
  return {
    path: `${list}.${index}`,
    field: 'cron',
    message: error.message,
    file: load.file,
    line: where.line,
    col: where.col,
  };
}

/** `intake.yaml`: a schedule whose cron does not parse, for any reason, refuses the file. */
export function intakeCronProblems(load: FileLoad<IntakeFile>, source: TextSource): Problem[] {
  const text = once(source);
  const out: Problem[] = [];
  load.model?.schedules.forEach((s, i) => {
    const parsed = parseCron(s.cron);
    if (!parsed.ok) out.push(cronProblem(load, text(), 'schedules', i, s.cron, parsed.error));
  });
  return out;
}

/**
 * `policy.yaml`: a legacy `triggers:` cron that cannot be read at all refuses the file; one that
 * is only out of range is left for the poller to skip with a warning.
 */
export function policyTriggerProblems(load: FileLoad<PolicyFile>, source: TextSource): Problem[] {
  const text = once(source);
  const out: Problem[] = [];
  load.model?.triggers?.forEach((t, i) => {
    const parsed = parseCron(t.cron);
    if (!parsed.ok && parsed.error.kind === 'unreadable')
      out.push(cronProblem(load, text(), 'triggers', i, t.cron, parsed.error));
  });
  return out;
}

function readConfig(configDir: string, file: string): string | null {
  const read = readConfigFile(join(configDir, file));
  return read.ok ? read.text : null;
}

/**
 * Hooks for ConfigState. The hook receives the load, not its text, so the file is read again for
 * the exact column; `stringPosition` checks the value is still the one loaded, and a file changed
 * in between only loses the column inside the value (the value's own place is used).
 */
export function intakeCronRule(configDir: string): (load: FileLoad<IntakeFile>) => Problem[] {
  return (load) => intakeCronProblems(load, () => readConfig(configDir, load.file));
}

export function policyTriggerRule(configDir: string): (load: FileLoad<PolicyFile>) => Problem[] {
  return (load) => policyTriggerProblems(load, () => readConfig(configDir, load.file));
}
