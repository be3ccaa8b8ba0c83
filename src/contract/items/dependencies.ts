import { z } from 'zod';
import { itemStatuses } from '../item-status.js';

/** An item another comes after (or that comes after it), as a person reads it. */
export const LinkedItem = z.object({
  id: z.string(),
  title: z.string(),
  status: z.enum(itemStatuses),
});
export type LinkedItem = z.infer<typeof LinkedItem>;

/**
 * The items an item comes after, by id: each once, never the item itself (checked where it is
 * written, with the cycle check), at most 50 (a plan longer than that is several plans).
 */
export const AfterIds = z
  .array(z.string().min(1).max(64))
  .max(50)
  .refine((ids) => new Set(ids).size === ids.length, 'names an item twice')
  .describe(
    'ids of items of this instance it comes after: a start while one of them has not completed leaves it blocked until they have',
  );

/** `POST /api/work-items/{id}/unblock`. */
export const UnblockBody = z
  .object({
    dependency: z
      .string()
      .min(1)
      .optional()
      .describe('the one dependency to drop (default: every one it has)'),
  })
  .strict()
  .nullish();

export const UnblockAnswer = z.object({
  id: z.string(),
  dropped: z.array(z.string()).describe('the dependencies dropped'),
  waiting_on: z.array(LinkedItem).describe('the dependencies still not completed'),
  status: z
    .enum(itemStatuses)
    .describe('the item after the move: a blocked item with nothing left to wait on has started'),
});
export type UnblockAnswer = z.infer<typeof UnblockAnswer>;
