import { z } from 'zod';
import { ReasonBody, WorkItem } from '../../items.js';
import { LinkedItem } from '../../items/dependencies.js';
import { defineRoute } from '../../route.js';
import { ItemIdParams, itemErrors } from './params.js';

/** `GET /api/work-items/:id/cancel-preview`: what a cancel would do, before it is asked for. */
export const CancelPreview = z.object({
  id: z.string(),
  status: z.string(),
  allowed: z.boolean(),
  detail: z.string().nullable(),
  result_status: z.literal('cancelled'),
  keeps_worktree: z.boolean(),
  keeps_branch: z.boolean(),
  worktree_path: z.string().nullable(),
  branch: z.string(),
  branch_exists: z.boolean(),
  sessions_to_stop: z.number().int(),
  dependents: z
    .array(LinkedItem)
    .describe('items that come after it and have not ended: a cancel leaves them blocked for a person'),
});
export type CancelPreview = z.infer<typeof CancelPreview>;

export const cancelPreview = defineRoute({
  operationId: 'cancelPreview',
  method: 'GET',
  path: '/api/work-items/:id/cancel-preview',
  summary: 'What a cancel would do',
  tags: ['work items'],
  params: ItemIdParams,
  responses: { 200: CancelPreview, ...itemErrors },
});

// The five moves that end, archive or bring back an item take the same body and answer the item.
const MoveBody = ReasonBody.nullish();
const moveAnswers = { 200: WorkItem, ...itemErrors } as const;

export const cancelItem = defineRoute({
  operationId: 'cancelItem',
  method: 'POST',
  path: '/api/work-items/:id/cancel',
  summary: 'End an item; its worktree and branch are kept',
  tags: ['work items'],
  params: ItemIdParams,
  body: MoveBody,
  responses: moveAnswers,
});

/** A completion by hand may close the item's issues though its branch changed nothing. */
export const CompleteBody = ReasonBody.extend({
  close_beads: z
    .boolean()
    .optional()
    .describe(
      'close the beads and tracker issues it implements even if nothing changed on its branch (a person says it is done)',
    ),
})
  .strict()
  .nullish();

export const completeItem = defineRoute({
  operationId: 'completeItem',
  method: 'POST',
  path: '/api/work-items/:id/complete',
  summary: 'End an item as completed by hand',
  tags: ['work items'],
  params: ItemIdParams,
  body: CompleteBody,
  responses: moveAnswers,
});

export const archiveItem = defineRoute({
  operationId: 'archiveItem',
  method: 'POST',
  path: '/api/work-items/:id/archive',
  summary: 'Archive a completed or cancelled item; its worktree is reclaimed',
  tags: ['work items'],
  params: ItemIdParams,
  body: MoveBody,
  responses: moveAnswers,
});

export const restoreItem = defineRoute({
  operationId: 'restoreItem',
  method: 'POST',
  path: '/api/work-items/:id/restore',
  summary: 'Bring an archived item back under Done',
  tags: ['work items'],
  params: ItemIdParams,
  body: MoveBody,
  responses: moveAnswers,
});

export const abandonItem = defineRoute({
  operationId: 'abandonItem',
  method: 'POST',
  path: '/api/work-items/:id/abandon',
  summary: 'End an item and delete its worktree and branch (needs a reason)',
  tags: ['work items'],
  params: ItemIdParams,
  body: MoveBody,
  responses: moveAnswers,
});
