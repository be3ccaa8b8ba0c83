import { z } from 'zod';
import { DocumentText, ItemDocuments } from '../../documents.js';
import { EditorsAnswer, OpenAnswer, OpenBody } from '../../editors.js';
import { ErrorBodySchema } from '../../error-body.js';
import { defineRoute } from '../../route.js';
import { ItemIdParams, itemErrors } from './params.js';

const KindParams = ItemIdParams.extend({ kind: z.string().min(1).max(64) });
const opens = { ...itemErrors, 403: ErrorBodySchema } as const;

export const itemDocuments = defineRoute({
  operationId: 'itemDocuments',
  method: 'GET',
  path: '/api/work-items/:id/documents',
  summary: "The item's documents (attachments and what tasks wrote), with kind, node, path and digest",
  tags: ['review'],
  params: ItemIdParams,
  responses: { 200: ItemDocuments, 404: ErrorBodySchema },
});

export const itemArtifact = defineRoute({
  operationId: 'itemArtifact',
  method: 'GET',
  path: '/api/work-items/:id/artifacts/:kind',
  summary: 'Read a document a task wrote, with its digest',
  tags: ['review'],
  params: KindParams,
  responses: { 200: DocumentText, 404: ErrorBodySchema },
});

export const listEditors = defineRoute({
  operationId: 'listEditors',
  method: 'GET',
  path: '/api/editors',
  summary: "Editors the server's machine can open (VS Code, Cursor, Zed, and $JIG_EDITOR/$VISUAL/$EDITOR)",
  tags: ['review'],
  responses: { 200: EditorsAnswer },
});

export const openDocument = defineRoute({
  operationId: 'openDocument',
  method: 'POST',
  path: '/api/documents/:id/open',
  summary: 'Open a document (id from the documents list) in an editor; loopback callers only',
  tags: ['review'],
  params: z.object({ id: z.string().min(1).max(140) }),
  body: OpenBody,
  responses: { 200: OpenAnswer, ...opens },
});

export const openPendingArtifact = defineRoute({
  operationId: 'openPendingArtifact',
  method: 'POST',
  path: '/api/work-items/:id/artifact/open',
  summary: "Open the pending gate's document in an editor; loopback callers only",
  tags: ['review'],
  params: ItemIdParams,
  body: OpenBody,
  responses: { 200: OpenAnswer, ...opens },
});

export const openTaskArtifact = defineRoute({
  operationId: 'openTaskArtifact',
  method: 'POST',
  path: '/api/work-items/:id/artifacts/:kind/open',
  summary: "Open a task's document in an editor; loopback callers only",
  tags: ['review'],
  params: KindParams,
  body: OpenBody,
  responses: { 200: OpenAnswer, ...opens },
});

export const openWorktree = defineRoute({
  operationId: 'openWorktree',
  method: 'POST',
  path: '/api/work-items/:id/open-worktree',
  summary: "Open the item's worktree in an editor; loopback callers only",
  tags: ['review'],
  params: ItemIdParams,
  body: OpenBody,
  responses: { 200: OpenAnswer, ...opens },
});
