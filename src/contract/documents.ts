import { z } from 'zod';

/**
 * One of an item's documents: a spec or plan attached when it was filed, or a document a task
 * wrote (`produces:`). `id` names it for `POST /api/documents/{id}/open`.
 */
export const ItemDocument = z.object({
  id: z.string(),
  kind: z.string(),
  source: z.enum(['attachment', 'task']),
  /** The node whose task wrote it; null for an attachment. */
  node: z.string().nullable(),
  /** Worktree-relative path of the document; null for an attachment not copied into the worktree. */
  path: z.string().nullable(),
  /** sha256 of the text as it is now: send it with approve to approve exactly what you read. */
  digest: z.string().nullable(),
  bytes: z.number().int().nullable(),
  /** The pending gate that shows this document, if any. */
  gate: z.string().nullable(),
  /** Why the document cannot be read now (gone, a link, too large); null when it can. */
  problem: z.string().nullable(),
});
export type ItemDocument = z.infer<typeof ItemDocument>;

export const ItemDocuments = z.object({ documents: z.array(ItemDocument) });

/** A document's text, with the digest an approve can pin. */
export const DocumentText = z.object({
  kind: z.string(),
  node: z.string().nullable(),
  /** Absolute path on the server's machine. */
  path: z.string(),
  text: z.string(),
  digest: z.string(),
});
