import { JigError } from '../../contract/errors.js';
import type { EventRecord } from '../../contract/events.js';
import { gateAnswer } from '../../store/events.js';
import type { ItemRecord } from '../../store/work-items.js';
import type { UnitOfWork } from '../events/event-log.js';
import { atGate } from './gate-moves.js';
import { gateOpen } from './move-guards.js';

/*
 * Gate requests (issue 40). Each time the walk stops at a gate it records a `gate_requested` event,
 * and the item keeps its seq as `gate_request`. A person's decision answers one request: the one it
 * names (`request`), else the one open when it arrives; never a later one. Of two decisions on one
 * request one applies; the other is refused, unless it is the same decision again (a double
 * click, a retried request), which answers the item as it is.
 */

/** What a person decided at a gate. */
export type Decision = { kind: 'approve' } | { kind: 'reject'; note: string };

/**
 * The item waits at `gate` on `request`: the seq a decision names or saw open (null only for an
 * item stopped there before requests were recorded).
 */
export function waitsOn(rec: ItemRecord, gate: string, request: number | null | undefined): boolean {
  return request !== undefined && gateOpen(rec, gate) && rec.gate_request === request;
}

/** Whether an event that answered a request is the decision now asked for. */
function sameDecision(answer: EventRecord, d: Decision): boolean {
  if (d.kind === 'approve') return answer.type === 'gate_approved';
  return answer.type === 'gate_rejected' && 'note' in answer.payload && answer.payload.note === d.note;
}

/** How a request was answered, in words: "; request 41 was approved by human". */
function answeredNote(request: number, answer: EventRecord | null, rec: ItemRecord): string {
  if (answer === null)
    return rec.gate_request !== null && rec.gate_request !== request
      ? `; request ${request} is not the one open (${rec.gate_request})`
      : `; request ${request} is no longer open`;
  switch (answer.type) {
    case 'gate_approved':
      return `; request ${request} was approved by ${answer.by}`;
    case 'gate_rejected':
      return `; request ${request} was rejected by ${answer.by}`;
    case 'node_skipped':
      return `; request ${request} was answered by a skip of the gate`;
    default:
      return `; request ${request} was superseded by request ${answer.seq}`;
  }
}

/**
 * A decision that finds its request no longer open: the same decision again answers false (nothing
 * to apply, the item as it is), anything else is 409 `gate_not_waiting` saying what answered it.
 * `request` undefined: no request was open when the decision arrived and it named none.
 */
export async function answeredBefore(
  uow: UnitOfWork,
  rec: ItemRecord,
  gate: string,
  request: number | null | undefined,
  decision: Decision,
): Promise<false> {
  let answered = '';
  if (typeof request === 'number') {
    const answer = await gateAnswer(uow.db, rec.id, gate, request);
    if (answer && sameDecision(answer, decision)) return false;
    answered = answeredNote(request, answer, rec);
  } else if (decision.kind === 'approve') {
    // An approval of a gate the walk is already past, with no request named: the item as it is.
    const at = atGate(rec, gate);
    if (at.walk.approved.includes(gate) && at.walk.node > at.idx) return false;
  }
  const open = rec.current_node !== null && gateOpen(rec, rec.current_node);
  throw new JigError(
    'gate_not_waiting',
    {
      gate,
      state: rec.status,
      answered,
      pending: open ? `; the item waits at gate ${rec.current_node} (request ${rec.gate_request})` : '',
    },
    { status: rec.status, gate, request: open ? rec.gate_request : null },
  );
}
