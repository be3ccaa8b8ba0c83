import { z } from 'zod';

/** `theme.yaml`: board appearance, written by the Appearance settings. */
export const ThemeFile = z
  .object({
    mode: z.enum(['light', 'dark', 'system']).default('system'),
    surface: z.enum(['neutral', 'warm', 'cool']).default('neutral'),
    accent: z.enum(['indigo', 'rose', 'green', 'amber', 'slate', 'blue', 'teal', 'violet']).default('indigo'),
    colour_amount: z.number().int().min(0).max(100).default(40),
    density: z.enum(['comfortable', 'compact']).default('comfortable'),
    board: z
      .object({
        group_by: z.enum(['status', 'repo', 'chain']).default('status'),
        show_done: z.number().int().min(0).default(5),
        open_in: z.enum(['peek', 'full']).default('peek'),
      })
      .strict()
      .default({ group_by: 'status', show_done: 5, open_in: 'peek' }),
  })
  .strict();
export type ThemeFile = z.infer<typeof ThemeFile>;
