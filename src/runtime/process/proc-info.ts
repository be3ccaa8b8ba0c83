import { readFileSync } from 'node:fs';

/**
 * A process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat). Together with the
 * pid it names one process for its whole life: a pid reused later has another start time.
 * Null where /proc is missing or the process is gone.
 */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may contain spaces or ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const state = rest[0];
    if (state === 'Z' || state === 'X') return null;
    return rest[19] ?? null;
  } catch {
    return null;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when the process with this pid is still the one that had this start time. */
export function isSameProcess(pid: number, startTime: string | null): boolean {
  if (!isAlive(pid)) return false;
  // Recorded where /proc was missing: a live pid is all there is to go on.
  if (startTime === null) return true;
  return processStartTime(pid) === startTime;
}
