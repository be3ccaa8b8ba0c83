import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBodySchema } from '../../contract/error-body.js';
import { JigError } from '../../contract/errors.js';
import {
  AttachmentKind,
  BulkAnswer,
  BulkBody,
  CreateItemBody,
  DryRunAnswer,
  ItemsPage,
  ListItemsQuery,
  PatchItemBody,
  ReasonBody,
  WorkItem,
} from '../../contract/items.js';
import type { Move } from '../../core/items/moves.js';
import type { Instance } from '../../runtime/instance.js';

const IdParams = z.object({ id: z.string().min(1).max(64) });
const errors = { 404: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema };

export function workItemRoutes(inst: Instance): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/work-items',
      {
        schema: {
          summary: 'File a work item (paused unless the body starts it); ?dry_run=1 checks and files nothing',
          tags: ['work items'],
          querystring: z.object({ dry_run: z.enum(['0', '1', 'true', 'false']).optional() }),
          body: CreateItemBody,
          response: {
            200: DryRunAnswer,
            201: WorkItem,
            ...errors,
            502: ErrorBodySchema,
            503: ErrorBodySchema,
          },
        },
      },
      async (req, reply) => {
        const b = req.body;
        const input = { ...b, attachments: b.attachments };
        if (req.query.dry_run === '1' || req.query.dry_run === 'true')
          return inst.items.dryRun(input, b.start);
        const rec = await inst.items.create(input, 'human', 'human');
        if (!b.start) return reply.code(201).send(inst.items.dto(rec));
        return reply.code(201).send(inst.items.dto(await inst.engine.resume(rec.id, undefined, 'human')));
      },
    );

    app.get(
      '/api/work-items',
      {
        schema: {
          summary: 'List work items, newest first',
          tags: ['work items'],
          querystring: ListItemsQuery,
          response: { 200: ItemsPage, 422: ErrorBodySchema },
        },
      },
      async (req) => inst.items.list(req.query),
    );

    app.get(
      '/api/work-items/:id',
      {
        schema: {
          summary: 'One work item in full',
          tags: ['work items'],
          params: IdParams,
          response: { 200: WorkItem, ...errors },
        },
      },
      async (req) => inst.items.dto(await inst.items.record(req.params.id)),
    );

    app.patch(
      '/api/work-items/:id',
      {
        schema: {
          summary: 'Change title, description, chain, overrides, budget, policy or attachments',
          tags: ['work items'],
          params: IdParams,
          body: PatchItemBody,
          response: { 200: WorkItem, ...errors },
        },
      },
      async (req) => inst.items.dto(await inst.items.patch(req.params.id, req.body, 'human')),
    );

    app.post(
      '/api/work-items/:id/duplicate',
      {
        schema: {
          summary: 'File a fresh paused item from an existing one',
          tags: ['work items'],
          params: IdParams,
          response: { 201: WorkItem, ...errors, 503: ErrorBodySchema },
        },
      },
      async (req, reply) =>
        reply.code(201).send(inst.items.dto(await inst.items.duplicate(req.params.id, 'human'))),
    );

    app.get(
      '/api/work-items/:id/cancel-preview',
      {
        schema: {
          summary: 'What a cancel would do',
          tags: ['work items'],
          params: IdParams,
          response: {
            200: z.object({
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
            }),
            ...errors,
          },
        },
      },
      async (req) => inst.items.cancelPreview(req.params.id),
    );

    const moves: { move: Move; summary: string; reasonRequired?: boolean }[] = [
      { move: 'cancel', summary: 'End an item; its worktree and branch are kept' },
      { move: 'complete', summary: 'End an item as completed by hand' },
      { move: 'archive', summary: 'Archive a completed or cancelled item; its worktree is reclaimed' },
      { move: 'restore', summary: 'Bring an archived item back under Done' },
      {
        move: 'abandon',
        summary: 'End an item and delete its worktree and branch (needs a reason)',
        reasonRequired: true,
      },
    ];
    for (const m of moves) {
      app.post(
        `/api/work-items/:id/${m.move}`,
        {
          schema: {
            summary: m.summary,
            tags: ['work items'],
            params: IdParams,
            body: ReasonBody.nullish(),
            response: { 200: WorkItem, ...errors },
          },
        },
        async (req) => {
          const reason = req.body?.reason?.trim();
          if (m.reasonRequired && !reason) {
            throw new JigError('validation_failed', {
              reason: `body.reason: say why the item is ${m.move}ed`,
            });
          }
          return inst.items.dto(await inst.items.move(req.params.id, m.move, 'human', reason));
        },
      );
    }

    app.post(
      '/api/work-items/bulk',
      {
        schema: {
          summary: 'Pause, cancel, archive or restore several items; one result per item',
          tags: ['work items'],
          body: BulkBody,
          response: { 200: BulkAnswer },
        },
      },
      async (req) => {
        const results = [];
        for (const id of req.body.ids) {
          try {
            const rec =
              req.body.action === 'pause'
                ? await inst.engine.pause(id, 'human')
                : await inst.items.move(id, req.body.action, 'human', req.body.reason);
            results.push({ id, ok: true, status: 200, item: inst.items.dto(rec), detail: null, code: null });
          } catch (err) {
            if (!(err instanceof JigError)) throw err;
            results.push({
              id,
              ok: false,
              status: err.status,
              item: null,
              detail: err.message,
              code: err.code,
            });
          }
        }
        return { results };
      },
    );

    app.get(
      '/api/work-items/:id/attachments/:kind',
      {
        schema: {
          summary: 'Read the spec or plan attached at intake (text/markdown)',
          tags: ['work items'],
          params: z.object({ id: z.string().min(1).max(64), kind: AttachmentKind }),
          response: { 200: z.string(), 404: ErrorBodySchema },
        },
      },
      async (req, reply) => {
        const a = await inst.items.attachment(req.params.id, req.params.kind);
        void reply.header('content-type', 'text/markdown; charset=utf-8');
        return a.text;
      },
    );

    app.get(
      '/api/budget/today',
      {
        schema: {
          summary: 'Spend since local midnight against the daily cap',
          tags: ['budget'],
          response: {
            200: z.object({
              since: z.string(),
              spent_usd: z.number(),
              cap_usd: z.number().nullable(),
              remaining_usd: z.number().nullable(),
              unpriced_sessions: z.number().int(),
            }),
          },
        },
      },
      async () => inst.items.budgetToday(),
    );
  };
}
