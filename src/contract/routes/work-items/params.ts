import { z } from 'zod';
import { ErrorBodySchema } from '../../error-body.js';
import { AttachmentKind } from '../../items.js';

/** `:id` in every `/api/work-items/:id/...` path. */
export const ItemIdParams = z.object({ id: z.string().min(1).max(64) });
export const GateParams = ItemIdParams.extend({ gate: z.string().min(1).max(64) });
export const AttachmentParams = z.object({ id: z.string().min(1).max(64), kind: AttachmentKind });
export const SessionParams = z.object({ id: z.string().min(1).max(64), session: z.string().min(1).max(64) });

/** A note a person sends with a move (a steer, a rejection, a message to an agent). */
export const Note = z.string().trim().min(1).max(20_000);

/** The refusals most item routes answer: no such item, a move the item's state refuses, a bad request. */
export const itemErrors = { 404: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema } as const;
