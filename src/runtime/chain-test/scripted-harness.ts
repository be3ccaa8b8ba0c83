import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentScript } from '../../contract/chain-test.js';
import { packageRoot } from '../package-root.js';

/** The scripted agent (scripted-agent-main.ts), as built. */
export const SCRIPTED_AGENT_PROGRAM = join(
  packageRoot,
  'dist',
  'runtime',
  'chain-test',
  'scripted-agent-main.js',
);

const quoted = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

/**
 * Writes a chain test's agents into `dir`: the script as JSON, the folder its session counts go
 * in, and the executable a harness names (a shell script, since a harness's executable is one
 * path): it sets the scripted agent's variables itself, because a task inherits only an allow-list
 * of the server's environment (task-env.ts).
 */
export function writeScriptedAgent(
  dir: string,
  script: Omit<AgentScript, 'strict'> & { strict?: boolean },
  node = process.execPath,
): string {
  mkdirSync(dir, { recursive: true });
  const scriptPath = join(dir, 'agents.json');
  const stateDir = join(dir, 'sessions');
  mkdirSync(stateDir, { recursive: true });
  // The agents' part only: a whole chain test script carries gates and expectations besides.
  const agents: AgentScript = {
    tasks: script.tasks,
    strict: script.strict ?? false,
    ...(script.default ? { default: script.default } : {}),
  };
  writeFileSync(scriptPath, JSON.stringify(agents));
  const executable = join(dir, 'scripted-agent');
  writeFileSync(
    executable,
    [
      '#!/bin/sh',
      `JIG_CHAIN_TEST_SCRIPT=${quoted(scriptPath)} JIG_CHAIN_TEST_STATE=${quoted(stateDir)} \\`,
      `  exec ${quoted(node)} ${quoted(SCRIPTED_AGENT_PROGRAM)} "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(executable, 0o755);
  return executable;
}
