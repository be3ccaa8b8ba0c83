import { ErrorBodySchema } from '../error-body.js';
import { TriggerBody, TriggerHeaders, WorkItem } from '../items.js';
import { defineRoute } from '../route.js';

/** A stable route: its shape stays the same between minor releases (docs/triggers.md). */
export const fileTrigger = defineRoute({
  operationId: 'fileTrigger',
  method: 'POST',
  path: '/api/triggers',
  summary: 'File a paused work item from an event (stable route)',
  description:
    'Auth off loopback: the trigger token (run/trigger-token), the MCP token or a session. ' +
    'The item is always filed paused. With an Idempotency-Key header, a repeat within 24 h ' +
    'answers the first item (docs/triggers.md).',
  tags: ['stable'],
  body: TriggerBody,
  headers: TriggerHeaders,
  responses: { 201: WorkItem, 422: ErrorBodySchema, 502: ErrorBodySchema, 503: ErrorBodySchema },
});
