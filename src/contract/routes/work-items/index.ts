import { z } from 'zod';
import { ErrorBodySchema } from '../../error-body.js';
import {
  BulkAnswer,
  BulkBody,
  CreateItemBody,
  DryRunAnswer,
  ItemsPage,
  ListItemsQuery,
  PatchItemBody,
  WorkItem,
} from '../../items.js';
import { defineRoute } from '../../route.js';
import { ItemIdParams, itemErrors } from './params.js';

export const CreateItemQuery = z.object({ dry_run: z.enum(['0', '1', 'true', 'false']).optional() });

export const createItem = defineRoute({
  operationId: 'createItem',
  method: 'POST',
  path: '/api/work-items',
  summary: 'File a work item (paused unless the body starts it); ?dry_run=1 checks and files nothing',
  tags: ['work items'],
  query: CreateItemQuery,
  body: CreateItemBody,
  responses: {
    200: DryRunAnswer,
    201: WorkItem,
    ...itemErrors,
    502: ErrorBodySchema,
    503: ErrorBodySchema,
  },
});

export const listItems = defineRoute({
  operationId: 'listItems',
  method: 'GET',
  path: '/api/work-items',
  summary: 'List work items, newest first',
  tags: ['work items'],
  query: ListItemsQuery,
  responses: { 200: ItemsPage, 422: ErrorBodySchema },
});

export const getItem = defineRoute({
  operationId: 'getItem',
  method: 'GET',
  path: '/api/work-items/:id',
  summary: 'One work item in full',
  tags: ['work items'],
  params: ItemIdParams,
  responses: { 200: WorkItem, ...itemErrors },
});

export const patchItem = defineRoute({
  operationId: 'patchItem',
  method: 'PATCH',
  path: '/api/work-items/:id',
  summary: 'Change title, description, chain, overrides, budget, policy or attachments',
  tags: ['work items'],
  params: ItemIdParams,
  body: PatchItemBody,
  responses: { 200: WorkItem, ...itemErrors },
});

export const duplicateItem = defineRoute({
  operationId: 'duplicateItem',
  method: 'POST',
  path: '/api/work-items/:id/duplicate',
  summary: 'File a fresh paused item from an existing one',
  tags: ['work items'],
  params: ItemIdParams,
  responses: { 201: WorkItem, ...itemErrors, 503: ErrorBodySchema },
});

export const bulkItems = defineRoute({
  operationId: 'bulkItems',
  method: 'POST',
  path: '/api/work-items/bulk',
  summary: 'Pause, cancel, archive or restore several items; one result per item',
  tags: ['work items'],
  body: BulkBody,
  responses: { 200: BulkAnswer },
});
