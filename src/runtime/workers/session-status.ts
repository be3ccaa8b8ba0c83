import type { ResultOutcome } from './session-result.js';

/** Why the server itself ended a session, which decides its status over the exit code. */
export type Ending = 'capped' | PersonEnding | { budget: string };

/** How a person's move ends a session: a pause can resume it, a cancel (or abandon) ends it for good. */
export type PersonEnding = 'paused' | 'cancelled';

/** Argv as shown in events and the task's log view: values of secret-looking options hidden. */
export function redact(argv: readonly string[]): string[] {
  const SECRET = /(key|token|secret|password|auth)/i;
  return argv.map((a, i) => {
    const eq = /^(--?[A-Za-z0-9_.-]+)=(.*)$/.exec(a);
    if (eq && SECRET.test(eq[1]!)) return `${eq[1]}=***`;
    if (/^[A-Z0-9_]*(KEY|TOKEN|SECRET|PASSWORD)[A-Z0-9_]*=/.test(a)) return `${a.split('=')[0]}=***`;
    const prev = argv[i - 1];
    if (prev && /^--?[A-Za-z0-9_.-]+$/.test(prev) && SECRET.test(prev)) return '***';
    return a;
  });
}

/**
 * Status rules (reference §2.4): a result file with a valid status wins; an invalid one (or one Jig
 * refuses to read: see session-result.ts) is `failed`; with no result file, exit 0 is `done` and
 * anything else `failed`. A cap or a pause the server imposed decides over the exit code. No exit
 * code and no result: `unknown`.
 */
export function resolveStatus(
  file: ResultOutcome | null,
  exitCode: number | null,
  ending: Ending | undefined,
): ResultOutcome {
  if (ending === 'capped') return { status: 'capped_out', result: null, note: 'time cap reached' };
  if (ending === 'paused' || ending === 'cancelled') return { status: ending, result: null };
  if (ending !== undefined) return { status: 'budget_exceeded', result: null, note: ending.budget };
  if (file !== null) return file;
  if (exitCode === null) return { status: 'unknown', result: null, note: 'no exit code and no result file' };
  return exitCode === 0
    ? { status: 'done', result: null }
    : { status: 'failed', result: null, note: `exit code ${exitCode}` };
}
