import { readFileSync } from 'node:fs';
import { CommandStubs, stubFor } from '../../contract/chain-test.js';
import { takeAttempt } from './attempt-counter.js';

/*
 * A stubbed command task of a chain test (issue 51, docs/chain-tests.md): launched by the engine
 * in place of the task's own command (command-stubs.ts), as a command task is, so it is supervised,
 * logged and capped as one. It prints the stub's output and exits with its code.
 *
 * Arguments: the stubs file ({commands, state}); $JIG_TASK_PATH says which task it stands for.
 */

function main(): void {
  const file = process.argv[2];
  const taskPath = process.env.JIG_TASK_PATH;
  if (!file || !taskPath) {
    process.stderr.write('scripted command: a stubs file and JIG_TASK_PATH are needed\n');
    process.exit(2);
  }
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { commands?: unknown; state?: unknown };
  const stubs = CommandStubs.parse(raw.commands);
  if (typeof raw.state !== 'string') throw new Error('the stubs file names no state folder');
  const attempt = takeAttempt(raw.state, taskPath);
  const stub = stubFor(stubs, taskPath, attempt);
  if (stub === null) {
    process.stderr.write(`scripted command: the script has no stub for ${taskPath}\n`);
    process.exit(2);
  }
  process.stdout.write(stub.output);
  process.exitCode = stub.exit_code;
}

main();
