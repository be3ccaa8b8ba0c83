import { z } from 'zod';
import { isEventKind, type EventKind, type EventPayload } from './event-kinds.js';

/**
 * The event record, version 1. Its shape is stable: fields are only ever added, and `v` changes if
 * one ever has to change meaning (docs/events.md). `seq` is gap-free and increases by one per event
 * across all items.
 */
export const eventActors = ['human', 'agent', 'jig', 'trigger', 'schedule', 'escalation'] as const;
export const EventActor = z.enum(eventActors);
export type EventActor = z.infer<typeof EventActor>;

export const EventRecord = z.object({
  seq: z.number().int().positive(),
  v: z.literal(1),
  work_item_id: z.string(),
  // A string on the wire, not the catalogue's enum: a client keeps reading the log of a newer
  // server that records a kind it does not know, and the OpenAPI document does not change with
  // every kind added. `isKnownEvent` narrows a record to the catalogue's kinds.
  type: z.string().describe('event kind, e.g. work_item_created; see docs/events.md'),
  at: z.string().describe('ISO 8601 UTC time it was stored'),
  by: EventActor,
  node: z.string().nullable().describe('the node it concerns, when one'),
  payload: z.record(z.string(), z.unknown()),
});
export type EventRecord = z.infer<typeof EventRecord>;

/**
 * A record of a kind in the catalogue, its payload typed by its kind. Every key is optional: a record
 * stored by an older server may lack a key added since (keys are only ever added).
 */
export type KnownEventRecord<K extends EventKind = EventKind> = {
  [P in K]: Omit<EventRecord, 'type' | 'payload'> & { type: P; payload: Partial<EventPayload<P>> };
}[K];

/** Whether the record is of a kind this catalogue knows (a newer server may record others). */
export function isKnownEvent(e: EventRecord): e is KnownEventRecord {
  return isEventKind(e.type);
}

export const EventsQuery = z.object({
  after: z.coerce.number().int().min(0).optional().describe('read forward from after this seq'),
  before: z.coerce.number().int().min(1).optional().describe('read backward from before this seq'),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  type: z.string().optional().describe('only events of this kind'),
});

export const EventsPage = z.object({
  events: z.array(EventRecord).describe('in seq order, oldest first, whichever the direction'),
  next_after: z.number().int().nullable().describe('pass as `after` for the next page forward'),
  next_before: z.number().int().nullable().describe('pass as `before` for the next page backward'),
});
export type EventsPage = z.infer<typeof EventsPage>;
