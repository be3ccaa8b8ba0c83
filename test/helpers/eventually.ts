import { inspect } from 'node:util';

export interface Eventually {
  /** What is awaited, in words ("serve-b to lead"): the error on giving up names it. */
  what: string;
  /** How many times the probe is called at most (300 by default). */
  tries?: number;
  /** The pause between two tries, in ms (100 by default). */
  everyMs?: number;
}

/** What a probe answers while the awaited state has not come. */
type NotYet = undefined | false;

const shown = (v: unknown): string => {
  const text = v instanceof Error ? v.message : inspect(v, { depth: 6, breakLength: Infinity });
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
};

/**
 * Calls `probe` until it answers something other than undefined or false, and answers that. A probe
 * that throws has not seen it yet either (so a probe may say why with an error or a failed expect).
 * Bounded by a count of tries, not by time: the machines are shared, and a slow one must not fail a
 * test. Once the tries are used up it throws an Error naming `what`, with the probe's last answer
 * and last error.
 */
export async function eventually<T>(
  probe: () => T | NotYet | Promise<T | NotYet>,
  { what, tries = 300, everyMs = 100 }: Eventually,
): Promise<T> {
  const seen: string[] = [];
  let answered = false;
  let last: unknown;
  let failed = false;
  let lastError: unknown;
  for (let i = 0; i < tries; i++) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v;
      answered = true;
      last = v;
    } catch (err) {
      failed = true;
      lastError = err;
    }
    if (i + 1 < tries) await new Promise((r) => setTimeout(r, everyMs));
  }
  if (answered) seen.push(`last answer: ${shown(last)}`);
  if (failed) seen.push(`last error: ${shown(lastError)}`);
  throw new Error(
    `gave up waiting for ${what} after ${tries} tries ${everyMs} ms apart; ${seen.join('; ')}`,
    failed ? { cause: lastError } : undefined,
  );
}
