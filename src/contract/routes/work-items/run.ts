import { z } from 'zod';
import { ErrorBodySchema } from '../../error-body.js';
import { WorkItem } from '../../items.js';
import { UnblockAnswer, UnblockBody } from '../../items/dependencies.js';
import { defineRoute } from '../../route.js';
import { ItemIdParams, Note, itemErrors } from './params.js';

/** `node`, `node.step` or `node.step.task`: where a retry starts, or what a skip passes. */
const RunPath = z.string().regex(/^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*){0,2}$/, {
  error: 'is not a path like node, node.step or node.step.task',
});

/** The canonical path of one task of the item's chain (`node.step.task`, `node.on_failure.task`, …). */
const TASK_PATH = /^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*){2,5}$/;

/** A note that travels with the move, delivered to the next agent launch as a steer. */
export const NoteBody = z.object({ note: Note.optional() }).strict().nullish();
export const SteerBody = z.object({ note: Note }).strict();

export const ResumeBody = z
  .object({
    note: Note.optional().describe('a steer for the next agent launch, whichever task it is'),
    steers: z
      .record(z.string(), Note)
      // Checked here rather than as the record's key schema: zod names a bad key only "Invalid key".
      .superRefine((r, ctx) => {
        const keys = Object.keys(r);
        if (keys.length > 50) ctx.addIssue({ code: 'custom', message: 'names more than 50 tasks' });
        for (const k of keys)
          if (!TASK_PATH.test(k))
            ctx.addIssue({ code: 'custom', path: [k], message: 'is not a task path like node.step.task' });
      })
      .optional()
      .describe('a steer per agent task, by task path: each waits for the next launch of its task'),
  })
  .strict()
  .nullish();

export const SkipBody = z
  .object({
    note: Note.optional(),
    path: RunPath.optional().describe(
      'what to pass: the current node (the default), a node still to come, or a step or task of the current node not run yet',
    ),
  })
  .strict()
  .nullish();

export const RetryBody = z
  .object({
    path: RunPath.optional(),
    steer: Note.optional(),
    restart: z
      .boolean()
      .optional()
      .describe(
        'a fresh agent session; without it the retried task continues the CLI session it stopped in, where the CLI can resume',
      ),
    task_config: z
      .object({
        model: z.string().max(200).optional(),
        effort: z.string().trim().min(1).max(40).optional(),
      })
      .strict()
      .optional()
      .describe("model and effort for the retried node's agent tasks (kept as its node override)"),
  })
  .strict()
  .nullish();

export const resumeItem = defineRoute({
  operationId: 'resumeItem',
  method: 'POST',
  path: '/api/work-items/:id/resume',
  summary:
    'Start a paused item (queued when no slot is free, blocked while an item it comes after has not completed); the note is delivered as a steer',
  tags: ['lifecycle'],
  params: ItemIdParams,
  body: ResumeBody,
  responses: { 200: WorkItem, ...itemErrors, 503: ErrorBodySchema },
});

export const pauseItem = defineRoute({
  operationId: 'pauseItem',
  method: 'POST',
  path: '/api/work-items/:id/pause',
  summary: 'Stop a running or queued item; its sessions end (SIGTERM, then SIGKILL after 10 s)',
  tags: ['lifecycle'],
  params: ItemIdParams,
  responses: { 200: WorkItem, ...itemErrors },
});

export const steerItem = defineRoute({
  operationId: 'steerItem',
  method: 'POST',
  path: '/api/work-items/:id/steer',
  summary: 'Store a note for the next agent launch of a paused or stopped item',
  tags: ['lifecycle'],
  params: ItemIdParams,
  body: SteerBody,
  responses: { 200: WorkItem, ...itemErrors },
});

export const retryItem = defineRoute({
  operationId: 'retryItem',
  method: 'POST',
  path: '/api/work-items/:id/retry',
  summary:
    'Rerun the node the item stopped on, or from an earlier path (node, node.step or node.step.task); the steer goes to the next agent launch',
  tags: ['lifecycle'],
  params: ItemIdParams,
  body: RetryBody,
  responses: { 200: WorkItem, ...itemErrors },
});

export const skipItem = defineRoute({
  operationId: 'skipItem',
  method: 'POST',
  path: '/api/work-items/:id/skip',
  summary:
    'Advance past the current node or gate without running it, or mark a node to come, or a step or task of the current node, to pass',
  tags: ['lifecycle'],
  params: ItemIdParams,
  body: SkipBody,
  responses: { 200: WorkItem, ...itemErrors },
});

export const unblockItem = defineRoute({
  operationId: 'unblockItem',
  method: 'POST',
  path: '/api/work-items/:id/unblock',
  summary:
    'Drop what the item comes after (one dependency, or all); a blocked item with nothing left to wait on starts',
  tags: ['lifecycle'],
  params: ItemIdParams,
  body: UnblockBody,
  responses: { 200: UnblockAnswer, ...itemErrors },
});
