import { z } from 'zod';
import { ErrorBodySchema } from '../error-body.js';
import {
  ConnectBody,
  ForgeCheck,
  ProbeAnswer,
  ProbeBody,
  RepoPatchBody,
  RepoPathQuery,
  RepoView,
  ReposAnswer,
} from '../repos.js';
import { defineRoute } from '../route.js';

const errors = { 404: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema } as const;

export const listRepos = defineRoute({
  operationId: 'listRepos',
  method: 'GET',
  path: '/api/repos',
  summary: 'Connected repos and workspaces',
  tags: ['repos'],
  responses: { 200: ReposAnswer, 422: ErrorBodySchema },
});

export const probeRepo = defineRoute({
  operationId: 'probeRepo',
  method: 'POST',
  path: '/api/repos/probe',
  summary: 'Read a repository and propose how to connect it (each proposal with its reason)',
  tags: ['repos'],
  body: ProbeBody,
  responses: { 200: ProbeAnswer, 422: ErrorBodySchema },
});

export const connectRepo = defineRoute({
  operationId: 'connectRepo',
  method: 'POST',
  path: '/api/repos',
  summary: 'Connect a repository (201), or re-probe a connected one (200)',
  tags: ['repos'],
  body: ConnectBody,
  responses: { 200: RepoView, 201: RepoView, ...errors },
});

export const patchRepo = defineRoute({
  operationId: 'patchRepo',
  method: 'PATCH',
  path: '/api/repos',
  summary: "Change a repo's entry (null clears a key)",
  tags: ['repos'],
  query: RepoPathQuery,
  body: RepoPatchBody,
  responses: { 200: RepoView, ...errors },
});

export const disconnectRepo = defineRoute({
  operationId: 'disconnectRepo',
  method: 'DELETE',
  path: '/api/repos',
  summary: 'Disconnect a repo (409 while items not done, cancelled or abandoned use it)',
  tags: ['repos'],
  query: RepoPathQuery,
  responses: { 204: z.null().describe('no body'), ...errors },
});

export const checkRepoForge = defineRoute({
  operationId: 'checkRepoForge',
  method: 'GET',
  path: '/api/repos/forge',
  summary:
    "Whether merge requests can work from a connected repository: its forge, project, API base and the token's source (no call to the forge)",
  tags: ['repos', 'forge'],
  query: RepoPathQuery,
  responses: { 200: ForgeCheck, 404: ErrorBodySchema },
});
