import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBodySchema } from '../../contract/error-body.js';
import { ProblemSchema } from '../../contract/reload.js';
import {
  ChainIdParams,
  ChainListAnswer,
  LibraryAnswer,
  LibraryComponent,
  LibraryRefParams,
  ResolvedChainAnswer,
  SteeringPreviewAnswer,
  SteeringPreviewQuery,
} from '../../contract/templates.js';
import { TemplatesService } from '../../runtime/config/templates-service.js';
import type { Instance } from '../../runtime/instance.js';

// A chain that does not resolve answers its problems; a params refusal (an empty id) is a plain 422,
// which the schema must let through too, or serialising it fails into a 500.
const Unresolved = z.union([ErrorBodySchema.extend({ problems: z.array(ProblemSchema) }), ErrorBodySchema]);

export function templateRoutes(inst: Instance): FastifyPluginAsyncZod {
  const svc = new TemplatesService(inst.paths.configDir, inst.config, (path) => inst.repos.find(path));
  return async (app) => {
    app.get(
      '/api/templates/chains',
      {
        schema: {
          summary: 'Every chain file: description, node and gate counts, whether it resolves, its problems',
          tags: ['templates'],
          response: { 200: ChainListAnswer },
        },
      },
      async () => svc.listChains(),
    );
    app.get(
      '/api/templates/chains/:id/resolved',
      {
        schema: {
          summary:
            'One chain with extends expanded, and which layer set each field (404 unknown; 422 with its problems)',
          tags: ['templates'],
          params: ChainIdParams,
          response: { 200: ResolvedChainAnswer, 404: ErrorBodySchema, 422: Unresolved },
        },
      },
      async (req) => svc.resolvedChain(req.params.id),
    );
    app.get(
      '/api/templates/library',
      {
        schema: {
          summary: 'library.yaml: its model and every component, with problems and what uses each',
          tags: ['templates'],
          response: { 200: LibraryAnswer },
        },
      },
      async () => svc.library(),
    );
    app.get(
      '/api/templates/library/:ref',
      {
        schema: {
          summary: 'One library component (`tasks.implementer`, `nodes.verification`); 404 unknown',
          tags: ['templates'],
          params: LibraryRefParams,
          response: { 200: LibraryComponent, 404: ErrorBodySchema },
        },
      },
      async (req) => svc.libraryComponent(req.params.ref),
    );
    app.get(
      '/api/templates/steering/preview',
      {
        schema: {
          summary:
            "What an agent task reads at launch: Jig's contract, the repo's steering, then the task's, each with its source",
          tags: ['templates'],
          querystring: SteeringPreviewQuery,
          response: { 200: SteeringPreviewAnswer, 404: ErrorBodySchema, 422: ErrorBodySchema },
        },
      },
      async (req) => svc.steeringPreview(req.query.chain, req.query.task, req.query.repo),
    );
  };
}
