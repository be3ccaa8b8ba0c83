import { z } from 'zod';
import { ErrorBodySchema } from '../error-body.js';
import { ProblemSchema } from '../reload.js';
import { defineRoute } from '../route.js';
import {
  ChainIdParams,
  ChainListAnswer,
  LibraryAnswer,
  LibraryComponent,
  LibraryRefParams,
  ResolvedChainAnswer,
  SteeringPreviewAnswer,
  SteeringPreviewQuery,
} from '../templates.js';
import { reloadParts } from './apply.js';

// A chain that does not resolve answers its problems; a params refusal (an empty id) is a plain 422,
// which the schema must let through too, or serialising it fails into a 500.
export const ChainProblems = ErrorBodySchema.extend({ problems: z.array(ProblemSchema) });
export const ChainUnresolved = z.union([ChainProblems, ErrorBodySchema]);

/** The same reload as `POST /api/apply/reload`, at the path the templates API has always had. */
export const templatesReload = defineRoute({ method: 'POST', path: '/api/templates/reload', ...reloadParts });

export const listChains = defineRoute({
  method: 'GET',
  path: '/api/templates/chains',
  summary: 'Every chain file: description, node and gate counts, whether it resolves, its problems',
  tags: ['templates'],
  responses: { 200: ChainListAnswer },
});

export const resolvedChain = defineRoute({
  method: 'GET',
  path: '/api/templates/chains/:id/resolved',
  summary:
    'One chain with extends expanded, and which layer set each field (404 unknown; 422 with its problems)',
  tags: ['templates'],
  params: ChainIdParams,
  responses: { 200: ResolvedChainAnswer, 404: ErrorBodySchema, 422: ChainUnresolved },
});

export const getLibrary = defineRoute({
  method: 'GET',
  path: '/api/templates/library',
  summary: 'library.yaml: its model and every component, with problems and what uses each',
  tags: ['templates'],
  responses: { 200: LibraryAnswer },
});

export const getLibraryComponent = defineRoute({
  method: 'GET',
  path: '/api/templates/library/:ref',
  summary: 'One library component (`tasks.implementer`, `nodes.verification`); 404 unknown',
  tags: ['templates'],
  params: LibraryRefParams,
  responses: { 200: LibraryComponent, 404: ErrorBodySchema },
});

export const steeringPreview = defineRoute({
  method: 'GET',
  path: '/api/templates/steering/preview',
  summary:
    "What an agent task reads at launch: Jig's contract, the repo's steering, then the task's, each with its source",
  tags: ['templates'],
  query: SteeringPreviewQuery,
  responses: { 200: SteeringPreviewAnswer, 404: ErrorBodySchema, 422: ErrorBodySchema },
});
