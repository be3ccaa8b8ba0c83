import { ApiError, UnreachableError } from '../client/http.js';

/** Exit codes: 0 done, 1 the thing asked about is not well (degraded, refused, not running), 2 usage. */
export const EXIT_OK = 0;
export const EXIT_FAIL = 1;
export const EXIT_USAGE = 2;

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Runs a verb, turning client errors into one line on stderr and an exit code. */
export async function runVerb(fn: () => Promise<number>): Promise<void> {
  try {
    process.exitCode = await fn();
  } catch (err) {
    if (err instanceof UnreachableError) {
      process.stderr.write(`jig: ${err.message}\n`);
      process.exitCode = EXIT_FAIL;
    } else if (err instanceof ApiError) {
      process.stderr.write(
        `jig: ${err.message} (HTTP ${err.status}${err.body.code ? `, ${err.body.code}` : ''})\n`,
      );
      process.exitCode = err.status >= 400 && err.status < 500 ? EXIT_USAGE : EXIT_FAIL;
    } else {
      process.stderr.write(`jig: ${(err as Error).message}\n`);
      process.exitCode = EXIT_FAIL;
    }
  }
}
