import { itemStatuses, type ItemStatus } from '../../contract/item-status.js';
import { isEnded } from './status.js';

/**
 * The moves that need no running engine, as a table (spec: States and transitions). The engine's
 * moves (resume, pause of a running item, retry, skip, gates) are added by the engine.
 */
export type Move = 'cancel' | 'complete' | 'archive' | 'restore' | 'abandon' | 'pause';

export interface ItemState {
  status: ItemStatus;
  archived: boolean;
}

/** A refusal names the rule it broke and the statuses the move accepts (`item_wrong_status`). */
export type MoveResult =
  | { ok: true; to: ItemState; changed: boolean }
  | { ok: false; state: string; rule: string; allowed: ItemStatus[] };

const notEnded: ItemStatus[] = itemStatuses.filter((s) => !isEnded(s));
const abandonable: ItemStatus[] = [...notEnded, 'cancelled'];

const ended = (s: ItemState): boolean => isEnded(s.status);

function describe(s: ItemState): string {
  return s.archived ? `${s.status} and archived` : s.status;
}

/**
 * Decides one move. A move whose result is already the state answers unchanged (human actions are
 * idempotent); any other move the table does not allow is refused, naming the current status.
 */
export function decideMove(move: Move, s: ItemState): MoveResult {
  const refuse = (rule: string, allowed: ItemStatus[]): MoveResult => ({
    ok: false,
    state: describe(s),
    rule,
    allowed,
  });
  switch (move) {
    case 'cancel':
    case 'complete': {
      const target: ItemStatus = move === 'cancel' ? 'cancelled' : 'completed';
      if (s.status === target && !s.archived) return { ok: true, to: s, changed: false };
      if (ended(s)) return refuse(`only an item that has not ended can be ${target}`, notEnded);
      return { ok: true, to: { status: target, archived: false }, changed: true };
    }
    case 'abandon':
      if (s.status === 'abandoned') return { ok: true, to: s, changed: false };
      // A cancel keeps the worktree and branch; abandoning it afterwards is how they go, since
      // nothing else in Jig deletes a branch. An archived cancelled item keeps its archive mark.
      if (s.status === 'cancelled')
        return { ok: true, to: { status: 'abandoned', archived: s.archived }, changed: true };
      if (ended(s))
        return refuse('only an item that has not ended, or a cancelled one, can be abandoned', abandonable);
      return { ok: true, to: { status: 'abandoned', archived: false }, changed: true };
    case 'archive':
      if (s.archived) return { ok: true, to: s, changed: false };
      if (s.status !== 'completed' && s.status !== 'cancelled') {
        return refuse('only a completed or cancelled item can be archived', ['completed', 'cancelled']);
      }
      return { ok: true, to: { ...s, archived: true }, changed: true };
    case 'restore':
      if (!s.archived) {
        return ended(s)
          ? { ok: true, to: s, changed: false }
          : refuse('only an item that has ended can be restored (an archived one comes back under Done)', [
              'completed',
              'cancelled',
              'abandoned',
            ]);
      }
      return { ok: true, to: { ...s, archived: false }, changed: true };
    case 'pause':
      if (s.status === 'paused') return { ok: true, to: s, changed: false };
      // A queued or blocked item holds no slot and runs nothing: pausing it needs no engine.
      if (s.status === 'queued' || s.status === 'blocked')
        return { ok: true, to: { ...s, status: 'paused' }, changed: true };
      return refuse('only a queued, blocked, running or waiting item can be paused', [
        'queued',
        'blocked',
        'running',
        'waiting',
      ]);
    default: {
      const never: never = move;
      return never;
    }
  }
}
