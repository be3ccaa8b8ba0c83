import type { EventRecord } from '../../../src/contract/events.js';
import type { Item } from '../api.js';

/*
 * Where each node of an item's chain stands, read from its events and its state: what the graph
 * colours and times. Pure, so the rules are unit-tested.
 */

export type NodeState = 'pending' | 'running' | 'waiting' | 'stopped' | 'done' | 'skipped';

export interface NodeStatus {
  state: NodeState;
  /** How long its last run took (or has run so far), in ms; null before it ran. */
  ms: number | null;
  /** How many times it was entered. */
  runs: number;
}

export function nodeStates(
  item: Item,
  nodes: readonly string[],
  events: readonly EventRecord[],
  now: number,
): Map<string, NodeStatus> {
  const out = new Map<string, NodeStatus>(nodes.map((n) => [n, { state: 'pending', ms: null, runs: 0 }]));
  const started = new Map<string, number>();
  for (const e of events) {
    const node =
      typeof e.payload.gate === 'string'
        ? e.payload.gate
        : (e.node ?? (typeof e.payload.node === 'string' ? e.payload.node : null));
    const s = node === null ? undefined : out.get(node);
    if (!s || node === null) continue;
    const at = Date.parse(e.at);
    switch (e.type) {
      case 'node_started':
      case 'gate_requested':
        started.set(node, at);
        s.runs += 1;
        s.state = e.type === 'gate_requested' ? 'waiting' : 'running';
        s.ms = null;
        break;
      case 'node_completed':
      case 'gate_approved':
        s.state = 'done';
        s.ms = started.has(node) ? at - started.get(node)! : null;
        break;
      case 'gate_rejected':
        s.state = 'pending';
        break;
      case 'node_skipped':
        s.state = 'skipped';
        break;
      default:
        break;
    }
  }
  // The item's own state is the truth for the node it is at.
  const cur = item.current_node === null ? undefined : out.get(item.current_node);
  if (cur && item.current_node !== null) {
    if (item.status === 'running') cur.state = 'running';
    else if (item.status === 'stopped') cur.state = item.stop?.kind === 'gate' ? 'waiting' : 'stopped';
    // The item can say it is at the node before the event that entered it has been read (the events
    // load on their own): it is in its first run then, not its "0th", and the count says so at once.
    if ((cur.state === 'running' || cur.state === 'waiting') && cur.runs === 0) cur.runs = 1;
    const since = started.get(item.current_node);
    if ((cur.state === 'running' || cur.state === 'waiting') && since !== undefined) cur.ms = now - since;
  }
  return out;
}

/**
 * How often a node was entered, in the inspector's words: a gate is asked, an exec node is run.
 * "not asked yet", "asked once", "asked 3 times"; "not run yet", "run once", "run 2 times".
 */
export function runsText(kind: 'exec' | 'gate', runs: number): string {
  const verb = kind === 'gate' ? 'asked' : 'run';
  if (runs === 0) return `not ${verb} yet`;
  return `${verb} ${runs === 1 ? 'once' : `${runs} times`}`;
}

/** "850 ms", "42 s", "3 min", "2 h 5 min". */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}
