import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { packageRoot } from '../package-root.js';

/** The stubbed command (scripted-command-main.ts), as built. */
export const SCRIPTED_COMMAND_PROGRAM = join(
  packageRoot,
  'dist',
  'runtime',
  'chain-test',
  'scripted-command-main.js',
);

/** The variable naming a chain test server's stubs file: only the test's own server has it. */
export const STUBS_VARIABLE = 'JIG_CHAIN_TEST_COMMANDS';

const StubsFile = z.object({ commands: z.record(z.string(), z.unknown()) });

/**
 * The engine's command stubs (ADR 0041): the argv that stands in for a command task the chain
 * test's script stubs, or null to run the task's own. Read once when the server starts; a server
 * without the variable (every real one) runs every command.
 */
export function commandStubsFrom(
  env: NodeJS.ProcessEnv,
): ((taskPath: string) => string[] | null) | undefined {
  const file = env[STUBS_VARIABLE];
  if (file === undefined || file === '') return undefined;
  const stubbed = new Set(Object.keys(StubsFile.parse(JSON.parse(readFileSync(file, 'utf8'))).commands));
  return (taskPath) => (stubbed.has(taskPath) ? [process.execPath, SCRIPTED_COMMAND_PROGRAM, file] : null);
}
