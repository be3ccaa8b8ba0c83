import type { EventPayload } from '../../contract/event-kinds.js';
import type { StopKind } from '../../contract/item-status.js';
import { stopKindOf, worstStatus } from '../../core/chain/walk-rules.js';
import type { TaskRun } from './step-runner.js';

/** How running a node ended: it completed, it stops the item, or the item stopped running under it. */
export type NodeOutcome =
  | { kind: 'completed'; payload: Omit<EventPayload<'node_completed'>, 'node'> }
  | { kind: 'stop'; stop: StopKind; reason: string; session: string | null }
  | { kind: 'halt' }
  /** The walk was moved to another node (a restart on a new base). */
  | { kind: 'moved' };

export const stopOf = (stop: StopKind, reason: string, session: string | null = null): NodeOutcome => ({
  kind: 'stop',
  stop,
  reason,
  session,
});

/** A failure that skips recovery, the fix loop and escalation: config, question, cap, infra. */
export function hardStop(runs: readonly TaskRun[]): NodeOutcome | null {
  const worst = worstStatus(runs.map((r) => r.status));
  if (worst === null || worst === 'failed') return null;
  const bad = runs.find((r) => r.status === worst)!;
  return stopOf(stopKindOf[worst] ?? 'infra', failureReason(bad), bad.session?.id ?? null);
}

/** What a failure says: the task's path, how it ended, its session; a question when it asked one. */
export function failureReason(r: {
  task: { path: string };
  status: TaskRun['status'];
  session: TaskRun['session'];
}): string {
  const question = r.session?.result?.question;
  if (r.status === 'needs_context' && typeof question === 'string' && question)
    return `${r.task.path} asks: ${question}`;
  if (r.session?.note && r.status !== 'failed')
    return `${r.task.path}: ${r.session.note} (session ${r.session.id}; jig view logs)`;
  return `${r.task.path} ended ${r.status}${r.session ? ` (session ${r.session.id}; jig view logs)` : ''}`;
}
