import { z } from 'zod';
import { ErrorBodySchema } from '../../error-body.js';
import { defineRoute } from '../../route.js';
import { AttachmentParams } from './params.js';

export const readAttachment = defineRoute({
  operationId: 'readAttachment',
  method: 'GET',
  path: '/api/work-items/:id/attachments/:kind',
  summary: 'Read the spec or plan attached at intake (text/markdown)',
  tags: ['work items'],
  params: AttachmentParams,
  responses: { 200: z.string(), 404: ErrorBodySchema },
});
