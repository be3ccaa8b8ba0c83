const MAX_LINES = 40;
const MAX_CHARS = 4000;
/** Only the end is kept, so a job log of megabytes is cut before it is split into lines. */
const SCAN_CHARS = 64 * 1024;

/**
 * The end of a check's log, as CiCheck.log carries it: a failure is reported at the end of a log,
 * so the end is what a repair agent needs, and the cap keeps events and findings small. A carriage
 * return without a newline overwrites its line on a terminal (progress bars), so only what follows
 * the last one is kept.
 */
export function logTail(text: string | null | undefined): string | null {
  if (!text) return null;
  const lines = text
    .slice(-SCAN_CHARS)
    .replace(/\s+$/, '')
    .split(/\r?\n/)
    .map((l) => l.slice(l.lastIndexOf('\r') + 1));
  const tail = lines.slice(-MAX_LINES).join('\n');
  if (tail.trim() === '') return null;
  return tail.length > MAX_CHARS ? tail.slice(-MAX_CHARS) : tail;
}
