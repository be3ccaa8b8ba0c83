import { ApiError, UnreachableError } from '../client/http.js';
import { EXIT_FAIL, EXIT_USAGE } from './exit-codes.js';

// The codes live in exit-codes.ts, which the command definitions import without loading the client.
export { EXIT_FAIL, EXIT_OK, EXIT_USAGE } from './exit-codes.js';

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
