import { z } from 'zod';

/** An editor the server's machine can open a file or folder in. */
export const Editor = z.object({
  /** What `editor` in an open request names: `code`, `cursor`, `zed`, or `env` for $JIG_EDITOR/$VISUAL/$EDITOR. */
  id: z.string(),
  name: z.string(),
  /** The command line run, the path appended. */
  command: z.string(),
});
export type Editor = z.infer<typeof Editor>;

export const EditorsAnswer = z.object({
  editors: z.array(Editor),
  /** The one an open request without `editor` uses; null when none was found. */
  default: z.string().nullable(),
});
export type EditorsAnswer = z.infer<typeof EditorsAnswer>;

export const OpenBody = z
  .object({ editor: z.string().min(1).max(64).optional().describe('an id from GET /api/editors') })
  .strict()
  .nullish();

export const OpenAnswer = z.object({
  editor: z.string(),
  /** The absolute path opened on the server's machine. */
  path: z.string(),
});
