import { WALK_VERSION, type WallClock, type Walk } from '../../contract/walk.js';

/*
 * The walk's pure transitions: entering a node, a fresh entry into the same node, a re-measurement,
 * and the wall clocks' holds. Time is a parameter (milliseconds since the epoch, from the injected
 * clock), never read here.
 */

const iso = (ms: number): string => new Date(ms).toISOString();

/** Milliseconds the item has spent held by a person so far, the current hold included. */
export function heldMs(w: Walk, now: number): number {
  return (w.paused_ms ?? 0) + (w.paused_at ? Math.max(0, now - Date.parse(w.paused_at)) : 0);
}

/** A clock started now. */
export function clockAt(w: Walk | null, now: number): WallClock {
  return { at: iso(now), paused_ms: w ? heldMs(w, now) : 0 };
}

/** Minutes a clock has run, less the holds since it started. */
export function elapsedMinutes(c: WallClock, w: Walk, now: number): number {
  return (now - Date.parse(c.at) - (heldMs(w, now) - c.paused_ms)) / 60_000;
}

/** Starts a hold (a pause, or a stop for a person) unless one is running. */
export function hold(w: Walk, now: number): Walk {
  return w.paused_at ? w : { ...w, paused_at: iso(now) };
}

/** Ends a hold: its length is added to the paused total. */
export function release(w: Walk, now: number): Walk {
  if (!w.paused_at) return w;
  return { ...w, paused_ms: heldMs(w, now), paused_at: null };
}

/** The walk of an item's first start: at the first node, its clock running from now. */
export function firstWalk(now: number): Walk {
  return {
    v: WALK_VERSION,
    phase: 'node',
    node: 0,
    step: 0,
    rejects: {},
    approved: [],
    clock: clockAt(null, now),
  };
}

/**
 * The walk positioned at the start of node `index`, with nothing of the node it leaves carried
 * over: what belongs to the item (position, rejections, approvals, documents, restarts, reviews,
 * escalation turns, its clock and holds) stays; the failure handling of a node does not.
 */
export function atNode(w: Walk, index: number): Walk {
  return {
    v: w.v,
    phase: 'node',
    node: index,
    step: 0,
    rejects: w.rejects,
    approved: w.approved,
    ...(w.artifacts !== undefined ? { artifacts: w.artifacts } : {}),
    ...(w.base_restarts !== undefined ? { base_restarts: w.base_restarts } : {}),
    ...(w.reviews !== undefined ? { reviews: w.reviews } : {}),
    ...(w.auto_escalations !== undefined ? { auto_escalations: w.auto_escalations } : {}),
    ...(w.clock !== undefined ? { clock: w.clock } : {}),
    ...(w.paused_ms !== undefined ? { paused_ms: w.paused_ms } : {}),
    ...(w.paused_at !== undefined ? { paused_at: w.paused_at } : {}),
  };
}

/** A fresh entry into the same node (after an escalation that succeeded): counters reset. */
export function freshEntry(w: Walk): Walk {
  return {
    ...w,
    phase: 'node',
    step: 0,
    step_at: null,
    entry: (w.entry ?? 1) + 1,
    recovery: null,
    cycles: 0,
    loop_started_at: null,
    rounds: [],
    measured: [],
    concerns: null,
    stuck_reason: null,
    read_only_before: null,
    failed_step: null,
    // A fresh entry looks at the base again; the node's wall clock keeps running (it bounds the
    // node, escalations included).
    base_checked: false,
  };
}

/** The node's own steps again from the first, as a new measurement. */
export function remeasure(w: Walk): Walk {
  return { ...w, phase: 'node', step: 0, step_at: null, measured: [], concerns: null, failed_step: null };
}
