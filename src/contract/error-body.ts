import { z } from 'zod';

/** The JSON body of every error answer; extra keys depend on the error (see docs/errors.md). */
export const ErrorBodySchema = z
  .object({
    detail: z.string(),
    code: z.string(),
  })
  .loose();
