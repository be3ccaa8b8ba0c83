import { ErrorBodySchema } from '../../error-body.js';
import { EventsPage, EventsQuery } from '../../events.js';
import { defineRoute } from '../../route.js';
import { ItemIdParams } from './params.js';

export const readItemEvents = defineRoute({
  operationId: 'readItemEvents',
  method: 'GET',
  path: '/api/work-items/:id/events',
  summary: "Read an item's events forward (after) or backward (before)",
  tags: ['events'],
  params: ItemIdParams,
  query: EventsQuery,
  responses: { 200: EventsPage, 404: ErrorBodySchema, 422: ErrorBodySchema },
});
