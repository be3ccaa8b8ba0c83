import { readdirSync, readFileSync } from 'node:fs';

/**
 * A process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat). Together with the
 * pid it names one process for its whole life: a pid reused later has another start time.
 * Null where /proc is missing or the process is gone.
 */
export function processStartTime(pid: number, { ended = false }: { ended?: boolean } = {}): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may contain spaces or ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const state = rest[0];
    // A process that has ended is no longer the one it was, unless the caller is its parent, which
    // has not reaped it yet and asks for the start of the child it just made (`ended`).
    if (!ended && (state === 'Z' || state === 'X')) return null;
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

/** One process as /proc/<pid>/stat shows it: parent, group, start time. */
interface Stat {
  pid: number;
  ppid: number;
  pgid: number;
  start: string;
}

function readStat(pid: number): Stat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (rest[0] === 'Z' || rest[0] === 'X') return null;
    return { pid, ppid: Number(rest[1]), pgid: Number(rest[2]), start: rest[19] ?? '' };
  } catch {
    return null;
  }
}

/**
 * Every live descendant of `pid` (children, their children, …) with its start time and group.
 * A CLI's tools may start their commands in sessions of their own (Claude Code's Bash tool calls
 * setsid), so ending the task's process group alone would leave them running; the tree is walked
 * through parent pids, which only works while the parents live — callers remember what they saw.
 */
export function descendants(pid: number): { pid: number; start: string; pgid: number }[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const children = new Map<number, Stat[]>();
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    const s = readStat(Number(e));
    if (!s) continue;
    const list = children.get(s.ppid) ?? [];
    list.push(s);
    children.set(s.ppid, list);
  }
  const out: { pid: number; start: string; pgid: number }[] = [];
  const queue = [pid];
  const seen = new Set<number>([pid]);
  while (queue.length > 0) {
    for (const c of children.get(queue.shift()!) ?? []) {
      if (seen.has(c.pid)) continue;
      seen.add(c.pid);
      out.push({ pid: c.pid, start: c.start, pgid: c.pgid });
      queue.push(c.pid);
    }
  }
  return out;
}
