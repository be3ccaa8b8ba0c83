import type { WorkItem } from '../contract/items.js';
import { outputStyle, paint } from './table.js';

/*
 * Next-step hints: after an act, the verb a person most likely runs next, on a terminal only (a
 * pipe gets the one summary line a script can parse, nothing more).
 */

const SUGGESTABLE = ['retry', 'resume', 'skip', 'escalate', 'cancel', 'complete'];

/** What to run next for an item in the state an act left it, or null when nothing is pending. */
export function nextFor(item: WorkItem): string | null {
  const id = item.id;
  switch (item.status) {
    case 'paused':
      return `jig item resume ${id}  (starts it)`;
    case 'blocked':
      return item.stop?.kind === 'dependency'
        ? `jig item unblock ${id}  (drops what will never complete), or jig item cancel ${id}`
        : `jig view show ${id}  (what it waits on; it starts by itself when they complete)`;
    case 'running':
    case 'queued':
    case 'waiting':
      return `jig view events ${id} -f  (follow it to the end)`;
    case 'stopped': {
      const stop = item.stop;
      if (stop?.kind === 'gate' && item.gate_reject_to === null)
        return `jig item approve ${id}, or jig item cancel ${id}  (nothing runs before this gate: a reject has nowhere to go)`;
      if (stop?.kind === 'gate')
        return `jig view doc ${id} artifact, then jig item approve ${id} or jig item reject ${id} --note TEXT`;
      if (stop?.kind === 'rate_limit') return null;
      if (stop?.kind === 'budget') return `jig item raise-budget ${id} --usd N`;
      if (stop?.kind === 'mr_closed') return `jig item reopen-mr ${id}, or jig item cancel ${id}`;
      // The suggestion comes from an agent's result file: only a verb this CLI has is shown as one.
      const suggested = stop?.suggested_action;
      if (suggested && SUGGESTABLE.includes(suggested.action))
        return `jig item ${suggested.action} ${id}  (${suggested.reason})`;
      return `jig item retry ${id}, or jig view logs ${id} to see why`;
    }
    default:
      return null;
  }
}

/** Writes the act's summary line, then the hint when stdout is a terminal. */
export function printAct(line: string, next: string | null): void {
  process.stdout.write(`${line}\n`);
  const style = outputStyle();
  if (next && style.tty) process.stdout.write(`${paint(style, 'dim', `next: ${next}`)}\n`);
}
