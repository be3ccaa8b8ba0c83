import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBodySchema } from '../../contract/error-body.js';
import { TriggerBody, TriggerHeaders, WorkItem } from '../../contract/items.js';
import type { Instance } from '../../runtime/instance.js';

/** `POST /api/triggers`: a stable route. Files a paused item; a trigger can never start work. */
export function triggerRoutes(inst: Instance): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/triggers',
      {
        schema: {
          summary: 'File a paused work item from an event (stable route)',
          description:
            'Auth off loopback: the trigger token (run/trigger-token), the MCP token or a session. ' +
            'The item is always filed paused. With an Idempotency-Key header, a repeat within 24 h ' +
            'answers the first item (docs/triggers.md).',
          tags: ['stable'],
          body: TriggerBody,
          headers: TriggerHeaders,
          response: { 201: WorkItem, 422: ErrorBodySchema, 502: ErrorBodySchema, 503: ErrorBodySchema },
        },
      },
      async (req, reply) => {
        const b = req.body;
        const { rec, replayed } = await inst.items.trigger(
          {
            title: b.title,
            repo: b.repo,
            chain: b.chain,
            chain_template: b.chain_template,
            description: b.description,
          },
          req.headers['idempotency-key'],
        );
        if (replayed) void reply.header('idempotent-replayed', 'true');
        return reply.code(201).send(inst.items.dto(rec));
      },
    );
  };
}
