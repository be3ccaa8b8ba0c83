import { z } from 'zod';
import { kind, str } from './event-kind-parts.js';
import { LinkedItem } from './items/dependencies.js';

/** The event kinds of dependencies between items (`after`), part of the one catalogue (event-kinds.ts). */
export const dependencyEventKinds = {
  dependencies_changed: kind(
    'The items this one comes after were set (PATCH `after`) or dropped (unblock).',
    z.strictObject({ from: z.array(str), to: z.array(str) }),
  ),
  work_item_blocked: kind(
    'Asked to start (resume, start, retry) while an item it comes after has not completed: it holds no slot and starts by itself when they have.',
    z.strictObject({ waiting_on: z.array(LinkedItem), note: str.optional() }),
  ),
  dependency_ended: kind(
    'An item this blocked one comes after was cancelled or abandoned: it will not start by itself until a person drops that dependency (unblock) or cancels it.',
    z.strictObject({ dependency: str, status: z.enum(['cancelled', 'abandoned']) }),
  ),
  work_item_unblocked: kind(
    'A blocked item has nothing left to wait on (its last dependency completed, or a person dropped them): it starts (runs, or waits for a slot).',
    z.strictObject({
      status: z.enum(['running', 'queued']),
      completed: str.optional().describe('the dependency whose completion released it'),
      dropped: z.array(str).optional().describe("the dependencies a person's unblock dropped"),
    }),
  ),
};
