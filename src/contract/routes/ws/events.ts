import { z } from 'zod';
import { defineRoute } from '../../route.js';

export const EventStreamQuery = z.object({
  // Digits only: an empty `after_seq=` is a mistake, not 0 (which would replay everything).
  after_seq: z
    .string()
    .regex(/^\d{1,15}$/, 'is a whole number from 0')
    .transform(Number)
    .optional(),
});

/** Not in the OpenAPI document (it is not an HTTP route); docs/events.md describes its frames. */
export const eventStream = defineRoute({
  method: 'GET',
  path: '/api/ws/events',
  summary: 'The live event stream (WebSocket): a hello, then every event after after_seq',
  tags: ['events'],
  hide: true,
  query: EventStreamQuery,
});
