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
import { Identifier } from '../config/ids.js';
import { TemplateFileAnswer, TemplateFileBody, TemplateSaved } from '../template-files.js';

// A chain that does not resolve answers its problems; a params refusal (an empty id) is a plain 422,
// which the schema must let through too, or serialising it fails into a 500.
export const ChainProblems = ErrorBodySchema.extend({ problems: z.array(ProblemSchema) });
export const ChainUnresolved = z.union([ChainProblems, ErrorBodySchema]);

/** The same reload as `POST /api/apply/reload`, at the path the templates API has always had. */
export const templatesReload = defineRoute({
  operationId: 'templatesReload',
  method: 'POST',
  path: '/api/templates/reload',
  ...reloadParts,
});

export const listChains = defineRoute({
  operationId: 'listChains',
  method: 'GET',
  path: '/api/templates/chains',
  summary: 'Every chain file: description, node and gate counts, whether it resolves, its problems',
  tags: ['templates'],
  responses: { 200: ChainListAnswer },
});

export const resolvedChain = defineRoute({
  operationId: 'resolvedChain',
  method: 'GET',
  path: '/api/templates/chains/:id/resolved',
  summary:
    'One chain with extends expanded, and which layer set each field (404 unknown; 422 with its problems)',
  tags: ['templates'],
  params: ChainIdParams,
  responses: { 200: ResolvedChainAnswer, 404: ErrorBodySchema, 422: ChainUnresolved },
});

export const getLibrary = defineRoute({
  operationId: 'getLibrary',
  method: 'GET',
  path: '/api/templates/library',
  summary: 'library.yaml: its model and every component, with problems and what uses each',
  tags: ['templates'],
  responses: { 200: LibraryAnswer },
});

export const getLibraryComponent = defineRoute({
  operationId: 'getLibraryComponent',
  method: 'GET',
  path: '/api/templates/library/:ref',
  summary: 'One library component (`tasks.implementer`, `nodes.verification`); 404 unknown',
  tags: ['templates'],
  params: LibraryRefParams,
  responses: { 200: LibraryComponent, 404: ErrorBodySchema },
});

export const steeringPreview = defineRoute({
  operationId: 'steeringPreview',
  method: 'GET',
  path: '/api/templates/steering/preview',
  summary:
    "What an agent task reads at launch: Jig's contract, the repo's steering, then the task's, each with its source",
  tags: ['templates'],
  query: SteeringPreviewQuery,
  responses: { 200: SteeringPreviewAnswer, 404: ErrorBodySchema, 422: ErrorBodySchema },
});

const FileHeaders = z.object({
  'if-match': z
    .string()
    .optional()
    .describe('the ETag the file was read with; a changed file answers 409 `template_changed`'),
});

/** A chain id as a file name: an identifier, so it can only name a file of the chains folder. */
const ChainFileParams = z.object({ id: Identifier.describe('chain id (file stem)') });

const FileSaveErrors = {
  409: ErrorBodySchema,
  422: z.union([ErrorBodySchema.extend({ problems: z.array(ProblemSchema) }), ErrorBodySchema]),
};

export const getLibraryFile = defineRoute({
  operationId: 'getLibraryFile',
  method: 'GET',
  path: '/api/templates/library/file',
  summary: 'library.yaml as text, with its ETag',
  tags: ['templates'],
  responses: { 200: TemplateFileAnswer },
});

export const putLibrary = defineRoute({
  operationId: 'putLibrary',
  method: 'PUT',
  path: '/api/templates/library',
  summary: 'Save library.yaml whole: checked against every chain and repo, written, reloaded',
  description:
    'Refused (422 `template_invalid` with `problems`) when the library does not load or when it would ' +
    'bring a problem to a chain; 409 `template_changed` when `If-Match` names an older text. Comments ' +
    'are the text’s own. Answers what the reload loaded, with the new ETag.',
  tags: ['templates'],
  headers: FileHeaders,
  body: TemplateFileBody,
  responses: { 200: TemplateSaved, ...FileSaveErrors },
});

export const getChainFile = defineRoute({
  operationId: 'getChainFile',
  method: 'GET',
  path: '/api/templates/chains/:id/file',
  summary: 'A chain file as text, with its ETag (404 unknown)',
  tags: ['templates'],
  params: ChainFileParams,
  responses: { 200: TemplateFileAnswer, 404: ErrorBodySchema, 422: ErrorBodySchema },
});

export const putChainFile = defineRoute({
  operationId: 'putChainFile',
  method: 'PUT',
  path: '/api/templates/chains/:id/file',
  summary: 'Save (or create) a chain file whole: checked as a reload would, written, reloaded',
  description:
    'Refused (422 `template_invalid` with `problems`) when the chain does not load or resolve, or ' +
    'when it would bring a problem elsewhere; 409 `template_changed` when `If-Match` names an older text.',
  tags: ['templates'],
  params: ChainFileParams,
  headers: FileHeaders,
  body: TemplateFileBody,
  responses: { 200: TemplateSaved, ...FileSaveErrors },
});
