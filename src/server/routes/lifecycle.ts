import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBodySchema } from '../../contract/error-body.js';
import { WorkItem } from '../../contract/items.js';
import type { Instance } from '../../runtime/instance.js';

const IdParams = z.object({ id: z.string().min(1).max(64) });
const GateParams = IdParams.extend({ gate: z.string().min(1).max(64) });
const errors = { 404: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema };
const Note = z.string().trim().min(1).max(20_000);

/** The moves that need the engine: start, pause, steer, retry, skip, the gates, progress and budget. */
export function lifecycleRoutes(inst: Instance): FastifyPluginAsyncZod {
  return async (app) => {
    const dto = (rec: Parameters<typeof inst.items.dto>[0]) => inst.items.dto(rec);

    app.post(
      '/api/work-items/:id/resume',
      {
        schema: {
          summary: 'Start a paused item (queued when no slot is free); the note is delivered as a steer',
          tags: ['lifecycle'],
          params: IdParams,
          body: z.object({ note: Note.optional() }).strict().nullish(),
          response: { 200: WorkItem, ...errors, 503: ErrorBodySchema },
        },
      },
      async (req) => dto(await inst.engine.resume(req.params.id, req.body?.note, 'human')),
    );
    app.post(
      '/api/work-items/:id/escalate',
      {
        schema: {
          summary:
            'Send a message to an agent that helps with a stopped item (409 when a spend cap stopped it); answers once the agent has started',
          tags: ['lifecycle'],
          params: IdParams,
          body: z.object({ message: Note }).strict(),
          response: {
            202: z.object({ work_item_id: z.string(), session: z.string(), harness: z.string() }),
            ...errors,
          },
        },
      },
      async (req, reply) => {
        const out = await inst.engine.escalate(req.params.id, req.body.message, 'human');
        return reply.code(202).send({ work_item_id: req.params.id, ...out });
      },
    );
    app.post(
      '/api/work-items/:id/escalate/stop',
      {
        schema: {
          summary: 'End the running escalation turn of an item',
          tags: ['lifecycle'],
          params: IdParams,
          response: { 200: z.object({ work_item_id: z.string(), stopped: z.string() }), ...errors },
        },
      },
      async (req) => ({ work_item_id: req.params.id, ...(await inst.engine.stopEscalation(req.params.id)) }),
    );
    app.post(
      '/api/work-items/:id/pause',
      {
        schema: {
          summary: 'Stop a running or queued item; its sessions end (SIGTERM, then SIGKILL after 10 s)',
          tags: ['lifecycle'],
          params: IdParams,
          response: { 200: WorkItem, ...errors },
        },
      },
      async (req) => dto(await inst.engine.pause(req.params.id, 'human')),
    );
    app.post(
      '/api/work-items/:id/steer',
      {
        schema: {
          summary: 'Store a note for the next agent launch of a paused or stopped item',
          tags: ['lifecycle'],
          params: IdParams,
          body: z.object({ note: Note }).strict(),
          response: { 200: WorkItem, ...errors },
        },
      },
      async (req) => dto(await inst.engine.steer(req.params.id, req.body.note, 'human')),
    );
    app.post(
      '/api/work-items/:id/retry',
      {
        schema: {
          summary:
            'Rerun the node the item stopped on, or from an earlier path (node, node.step or node.step.task); the steer goes to the next agent launch',
          tags: ['lifecycle'],
          params: IdParams,
          body: z
            .object({
              path: z
                .string()
                .regex(/^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*){0,2}$/, {
                  error: 'is not a path like node, node.step or node.step.task',
                })
                .optional(),
              steer: Note.optional(),
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
            .nullish(),
          response: { 200: WorkItem, ...errors },
        },
      },
      async (req) =>
        dto(
          await inst.engine.retry(req.params.id, 'human', {
            ...(req.body?.path ? { path: req.body.path } : {}),
            ...(req.body?.steer ? { steer: req.body.steer } : {}),
            ...(req.body?.task_config ? { task_config: req.body.task_config } : {}),
          }),
        ),
    );
    app.post(
      '/api/work-items/:id/skip',
      {
        schema: {
          summary: 'Advance past the current node or gate without running it',
          tags: ['lifecycle'],
          params: IdParams,
          body: z.object({ note: Note.optional() }).strict().nullish(),
          response: { 200: WorkItem, ...errors },
        },
      },
      async (req) => dto(await inst.engine.skip(req.params.id, req.body?.note, 'human')),
    );
    app.post(
      '/api/work-items/:id/gates/:gate/approve',
      {
        schema: {
          summary: 'Approve the pending gate (approving an approved gate answers the item as it is)',
          tags: ['gates'],
          params: GateParams,
          response: { 200: WorkItem, ...errors },
        },
      },
      async (req) => dto(await inst.engine.approve(req.params.id, req.params.gate, 'human')),
    );
    app.post(
      '/api/work-items/:id/gates/:gate/reject',
      {
        schema: {
          summary: 'Reject the pending gate; the chain goes back to reject_to with the note as a steer',
          tags: ['gates'],
          params: GateParams,
          body: z.object({ note: Note, node: z.string().min(1).optional() }).strict(),
          response: { 200: WorkItem, ...errors },
        },
      },
      async (req) =>
        dto(await inst.engine.reject(req.params.id, req.params.gate, req.body.note, 'human', req.body.node)),
    );
    app.post(
      '/api/work-items/:id/progress',
      {
        schema: {
          summary: 'Record that a worker started a task of the plan (plan_progress)',
          tags: ['lifecycle'],
          params: IdParams,
          body: z.object({ task: z.string().trim().min(1).max(500) }).strict(),
          response: {
            200: z.object({ work_item_id: z.string(), task: z.string(), seq: z.number().int() }),
            ...errors,
          },
        },
      },
      async (req) => inst.engine.progress(req.params.id, req.body.task, 'agent'),
    );
    app.post(
      '/api/work-items/:id/budget/raise',
      {
        schema: {
          summary:
            "Raise the item's own dollar cap above what it has spent; an item stopped on its budget runs again",
          tags: ['lifecycle'],
          params: IdParams,
          body: z.object({ cap_usd: z.number().finite().min(0) }).strict(),
          response: { 200: WorkItem, ...errors },
        },
      },
      async (req) => dto(await inst.engine.raiseBudget(req.params.id, req.body.cap_usd, 'human')),
    );
    app.get(
      '/api/work-items/:id/artifact',
      {
        schema: {
          summary: "Read the pending gate's document",
          tags: ['gates'],
          params: IdParams,
          response: {
            200: z.object({ gate: z.string(), kind: z.string(), path: z.string(), text: z.string() }),
            404: ErrorBodySchema,
          },
        },
      },
      async (req) => inst.engine.artifact(req.params.id),
    );
  };
}
