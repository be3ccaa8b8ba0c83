import { z } from 'zod';
import { defineRoute } from '../../route.js';
import { ItemIdParams, Note, itemErrors } from './params.js';

export const EscalateBody = z
  .object({
    message: Note,
    new_thread: z
      .boolean()
      .optional()
      .describe(
        "a fresh conversation; without it the turn goes on in the item's last escalation session, where its CLI can resume",
      ),
  })
  .strict();
export const EscalateAnswer = z.object({
  work_item_id: z.string(),
  session: z.string(),
  harness: z.string(),
  continues: z
    .string()
    .nullable()
    .describe('the earlier escalation session this turn goes on in, or null for a new conversation'),
});
export const EscalationStopped = z.object({ work_item_id: z.string(), stopped: z.string() });

export const escalateItem = defineRoute({
  operationId: 'escalateItem',
  method: 'POST',
  path: '/api/work-items/:id/escalate',
  summary:
    'Send a message to an agent that helps with a stopped item (409 when a spend cap stopped it); answers once the agent has started',
  tags: ['lifecycle'],
  params: ItemIdParams,
  body: EscalateBody,
  responses: { 202: EscalateAnswer, ...itemErrors },
});

export const stopEscalation = defineRoute({
  operationId: 'stopEscalation',
  method: 'POST',
  path: '/api/work-items/:id/escalate/stop',
  summary: 'End the running escalation turn of an item',
  tags: ['lifecycle'],
  params: ItemIdParams,
  responses: { 200: EscalationStopped, ...itemErrors },
});
