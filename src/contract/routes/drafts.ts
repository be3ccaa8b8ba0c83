import { z } from 'zod';
import { ErrorBodySchema } from '../error-body.js';
import { defineRoute } from '../route.js';
import {
  DraftAnswer,
  DraftFileParams,
  DraftListAnswer,
  DraftParams,
  DraftProblem,
  FragmentAnswer,
  FragmentQuery,
  OpsAnswer,
  OpsQuery,
  PublishAnswer,
  PutFileBody,
} from '../drafts/answers.js';
import { OpsBody } from '../drafts/chain-ops.js';

/*
 * The drafts protocol behind the Templates and Settings editors (spec drafts.md). Every route
 * taking {area} and {key} answers 404 for an unknown area and 400 for a key the area does not
 * take.
 */

const refusals = { 400: ErrorBodySchema, 404: ErrorBodySchema } as const;

export const listDrafts = defineRoute({
  operationId: 'listDrafts',
  method: 'GET',
  path: '/api/drafts',
  summary: 'Every open draft, newest write first',
  tags: ['drafts'],
  responses: { 200: DraftListAnswer },
});

export const getDraft = defineRoute({
  operationId: 'getDraft',
  method: 'GET',
  path: '/api/drafts/:area/:key',
  summary: 'A draft with its result object (the published files when none is open; 404 when neither exists)',
  tags: ['drafts'],
  params: DraftParams,
  responses: { 200: DraftAnswer, ...refusals },
});

export const getFragment = defineRoute({
  operationId: 'getFragment',
  method: 'GET',
  path: '/api/drafts/:area/:key/fragment',
  summary: 'YAML of the component at `path`, as `set_fragment` takes it (400 no path; 404 nothing there)',
  tags: ['drafts'],
  params: DraftParams,
  query: FragmentQuery,
  responses: { 200: FragmentAnswer, ...refusals },
});

export const putDraftFile = defineRoute({
  operationId: 'putDraftFile',
  method: 'PUT',
  path: '/api/drafts/:area/:key/files/:file',
  summary:
    "Store a file's text as typed (`{file}` with its folder, the slash encoded: chains%2Fdefault.yaml) (comments kept; text that does not parse is kept with `yaml_error`); 422 for a file not in the draft",
  tags: ['drafts'],
  params: DraftFileParams,
  body: PutFileBody,
  responses: { 200: DraftAnswer, ...refusals, 422: ErrorBodySchema },
});

export const draftOps = defineRoute({
  operationId: 'draftOps',
  method: 'POST',
  path: '/api/drafts/:area/:key/ops',
  summary:
    'Apply ops in order, all or nothing, as one undo step (`?preview=1` saves nothing); 409 while a file does not parse; 422 `{detail, op}`',
  tags: ['drafts'],
  params: DraftParams,
  query: OpsQuery,
  body: OpsBody,
  responses: { 200: OpsAnswer, ...refusals, 409: ErrorBodySchema, 422: ErrorBodySchema },
});

export const undoDraft = defineRoute({
  operationId: 'undoDraft',
  method: 'POST',
  path: '/api/drafts/:area/:key/undo',
  summary: 'Take back the newest undo step (409 when there is none)',
  tags: ['drafts'],
  params: DraftParams,
  responses: { 200: DraftAnswer, ...refusals, 409: ErrorBodySchema },
});

export const rebaseDraft = defineRoute({
  operationId: 'rebaseDraft',
  method: 'POST',
  path: '/api/drafts/:area/:key/rebase',
  summary: "Take the published files as the draft's new base, keeping its text (404 with no draft)",
  tags: ['drafts'],
  params: DraftParams,
  responses: { 200: DraftAnswer, ...refusals },
});

export const publishDraft = defineRoute({
  operationId: 'publishDraft',
  method: 'POST',
  path: '/api/drafts/:area/:key/publish',
  summary:
    'Write the draft’s files atomically and apply them; 409 when a file changed on disk since it joined, 422 with problems, 500 when applying failed (draft kept)',
  tags: ['drafts'],
  params: DraftParams,
  responses: {
    200: PublishAnswer,
    ...refusals,
    409: ErrorBodySchema.extend({
      files: z.record(
        z.string(),
        z.object({ published: z.string().nullable(), draft: z.string().nullable(), diff: z.string() }),
      ),
    }),
    422: z.union([ErrorBodySchema.extend({ problems: z.array(DraftProblem) }), ErrorBodySchema]),
    500: ErrorBodySchema,
  },
});

export const discardDraft = defineRoute({
  operationId: 'discardDraft',
  method: 'DELETE',
  path: '/api/drafts/:area/:key',
  summary: 'Discard a draft for good (404 with no draft)',
  tags: ['drafts'],
  params: DraftParams,
  responses: { 204: z.null().describe('no body'), ...refusals },
});
