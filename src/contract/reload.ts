import { z } from 'zod';

export const ProblemSchema = z.object({
  path: z.string(),
  field: z.string().nullable(),
  message: z.string(),
  file: z.string(),
  line: z.number().int().nullable(),
  col: z.number().int().nullable(),
});

/** Answer of `POST /api/apply/reload` and `POST /api/templates/reload`. */
export const ReloadAnswer = z.object({
  loaded: z.array(z.string()).describe('files that loaded and are now running'),
  refused: z
    .array(z.object({ file: z.string(), problems: z.array(ProblemSchema) }))
    .describe(
      'files that did not load: the running version of library, chain, policy and intake files is kept; ' +
        'harnesses.yaml and repos.yaml are read when needed, so their problems count from the next read; ' +
        'notify.yaml that does not load sends nothing',
    ),
  warnings: z
    .array(z.object({ file: z.string(), problems: z.array(ProblemSchema) }))
    .optional()
    .describe(
      'problems reported but not refused (a schedule naming an unknown chain or repo is skipped when it fires), and older keys still read',
    ),
});
export type ReloadAnswer = z.infer<typeof ReloadAnswer>;
