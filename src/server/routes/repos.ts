import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBodySchema } from '../../contract/error-body.js';
import {
  ConnectBody,
  ProbeAnswer,
  ProbeBody,
  RepoPatchBody,
  RepoPathQuery,
  RepoView,
  ReposAnswer,
} from '../../contract/repos.js';
import type { Instance } from '../../runtime/instance.js';

const errors = { 404: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema };

export function repoRoutes(inst: Instance): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/repos',
      {
        schema: {
          summary: 'Connected repos and workspaces',
          tags: ['repos'],
          response: { 200: ReposAnswer, 422: ErrorBodySchema },
        },
      },
      async () => inst.repos.list(),
    );
    app.post(
      '/api/repos/probe',
      {
        schema: {
          summary: 'Read a repository and propose how to connect it (each proposal with its reason)',
          tags: ['repos'],
          body: ProbeBody,
          response: { 200: ProbeAnswer, 422: ErrorBodySchema },
        },
      },
      async (req) => inst.repos.probe(req.body.path),
    );
    app.post(
      '/api/repos',
      {
        schema: {
          summary: 'Connect a repository (201), or re-probe a connected one (200)',
          tags: ['repos'],
          body: ConnectBody,
          response: { 200: RepoView, 201: RepoView, ...errors },
        },
      },
      async (req, reply) => {
        const { repo, created } = await inst.repos.connect(req.body);
        return reply.code(created ? 201 : 200).send(repo);
      },
    );
    app.patch(
      '/api/repos',
      {
        schema: {
          summary: "Change a repo's entry (null clears a key)",
          tags: ['repos'],
          querystring: RepoPathQuery,
          body: RepoPatchBody,
          response: { 200: RepoView, ...errors },
        },
      },
      async (req) => inst.repos.patch(req.query.path, req.body),
    );
    app.delete(
      '/api/repos',
      {
        schema: {
          summary: 'Disconnect a repo (409 while items not done, cancelled or abandoned use it)',
          tags: ['repos'],
          querystring: RepoPathQuery,
          response: { 204: z.null().describe('no body'), ...errors },
        },
      },
      async (req, reply) => {
        await inst.repos.disconnect(req.query.path);
        return reply.code(204).send(null);
      },
    );
  };
}
