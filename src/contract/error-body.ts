import { z } from 'zod';
import type { ErrorCode } from './errors.js';

/** The JSON body of every error answer; extra keys depend on the error (see docs/errors.md). */
export const ErrorBodySchema = z
  .object({
    detail: z.string(),
    code: z.string(),
  })
  .loose();

/**
 * An error body as a client receives it. `code` is a catalogue code, or one this client does not
 * know yet (a newer server's): that one stays the string it is, so an older client still shows
 * the error rather than failing on it. `(string & {})` keeps editors completing the known codes,
 * but a comparison with a misspelt code still compiles: the client's `ApiError.is(code)` takes
 * only catalogue codes, so tests of a code go through it.
 */
export interface ReceivedErrorBody {
  detail: string;
  code: ErrorCode | (string & {});
  [extra: string]: unknown;
}
