import type { z } from 'zod';
import type { WorkItem } from '../contract/items.js';
import { raiseBudget as raise } from '../contract/routes/work-items/budget.js';
import {
  approveGate as approve,
  gateArtifact,
  rejectGate as reject,
} from '../contract/routes/work-items/gates.js';
import { recordProgress, type ProgressAnswer } from '../contract/routes/work-items/progress.js';
import type { JigClient } from './http.js';
import { patchItem } from './item-setup.js';

/**
 * The acts on an item a person decides (gates, budget) and the ones a worker reports (progress),
 * shared by the CLI verbs and the MCP tools so both send the same request and see the same answer.
 */

/** The gate an item waits on: its current node while it is stopped on a gate, else null. */
export function pendingGate(item: WorkItem): string | null {
  return item.status === 'stopped' && item.stop?.kind === 'gate' ? item.current_node : null;
}

/**
 * The gate a decision names, and the request it answers: the gate given (else the one the item
 * waits on), with the item's open request when that is the gate it waits on. Null: no gate given
 * and none waits.
 */
export function decisionTarget(
  item: WorkItem,
  given: string | undefined,
): { gate: string; request: number | undefined } | null {
  const waiting = item.gate_request !== null ? item.current_node : null;
  const gate = given ?? pendingGate(item);
  if (gate === null) return null;
  return { gate, request: gate === waiting ? (item.gate_request ?? undefined) : undefined };
}

/** What a decision sends besides the gate: the request the sender saw, and for approve the digest. */
export interface GateDecision {
  request?: number | undefined;
  digest?: string | undefined;
}

/**
 * Approves a gate request (the same decision again answers the item as it is; a request already
 * answered otherwise, or superseded, is 409 gate_not_waiting).
 */
export const approveGate = (
  c: JigClient,
  id: string,
  gate: string,
  d: GateDecision = {},
): Promise<WorkItem> =>
  c.call(approve, {
    params: { id, gate },
    body: {
      ...(d.digest !== undefined ? { digest: d.digest } : {}),
      ...(d.request !== undefined ? { request: d.request } : {}),
    },
  });

/** Rejects a gate; the chain goes back to the gate's reject_to (or `node`) with the note as a steer. */
export const rejectGate = (
  c: JigClient,
  id: string,
  gate: string,
  note: string,
  d: { node?: string | undefined; request?: number | undefined } = {},
): Promise<WorkItem> =>
  c.call(reject, {
    params: { id, gate },
    body: {
      note,
      ...(d.node !== undefined ? { node: d.node } : {}),
      ...(d.request !== undefined ? { request: d.request } : {}),
    },
  });

/** The pending gate's document. */
export const readGateArtifact = (c: JigClient, id: string) => c.call(gateArtifact, { params: { id } });

/** Raises the item's own dollar cap; an item stopped on its budget runs again. */
export const raiseBudget = (c: JigClient, id: string, capUsd: number): Promise<WorkItem> =>
  c.call(raise, { params: { id }, body: { cap_usd: capUsd } });

/**
 * Drops the item's own dollar cap (`raise-budget --usd none`); the policy's cap, if any, still
 * applies, and an item stopped on its budget stays stopped until it is retried.
 */
export const dropBudgetCap = (c: JigClient, id: string): Promise<WorkItem> =>
  patchItem(c, id, { budget_usd: null });

/** A worker says which task of the plan it started. */
export const recordTaskProgress = (
  c: JigClient,
  id: string,
  task: string,
): Promise<z.output<typeof ProgressAnswer>> => c.call(recordProgress, { params: { id }, body: { task } });
