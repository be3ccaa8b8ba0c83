import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerAccess } from './commands/access.js';
import { registerAdmin } from './commands/admin.js';
import { registerChain } from './commands/chain.js';
import { registerServe } from './commands/serve.js';
import { registerItem } from './commands/item.js';
import { registerRepo } from './commands/repo.js';
import { registerView } from './commands/view.js';
import { registerCompletion } from './completion.js';
import { ROOT_HELP_AFTER } from './root-help.js';

/**
 * The version package.json gives, read as contract/package-manifest.ts reads it (an object with a
 * name and a version, neither empty) but without its schema: that would load zod (lazy.ts).
 */
function ownVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  try {
    const m: unknown = JSON.parse(text);
    if (m === null || typeof m !== 'object' || Array.isArray(m)) return 'unknown';
    const { name, version } = m as Record<string, unknown>;
    const given = (v: unknown): v is string => typeof v === 'string' && v !== '';
    return given(name) && given(version) ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * The whole command tree, built without parsing anything: `main.ts` runs it, and the reference
 * page (docs/cli.md) and the completion scripts are generated from it, so neither drifts.
 */
export function buildProgram(): Command {
  const program = new Command('jig')
    .description('Jig: run work items through chains of coding agents, commands and human gates')
    .version(ownVersion(), '-V, --version', 'print the version')
    .configureOutput({ outputError: (str, write) => write(str) })
    .exitOverride((err) => {
      // Usage errors exit 2; help and version exit 0.
      process.exit(err.exitCode === 0 ? 0 : 2);
    })
    .addHelpText('after', ROOT_HELP_AFTER);

  registerServe(program);
  registerAdmin(program);
  registerAccess(program);
  registerRepo(program);
  registerItem(program);
  registerChain(program);
  registerView(program);
  registerCompletion(program);
  usageAfterErrors(program, []);
  return program;
}

/**
 * A usage error (a bad flag, a missing argument) prints the error and the one usage line of the
 * command it was given to; the whole help was 40 lines that pushed the error off the screen.
 */
function usageAfterErrors(cmd: Command, parents: string[]): void {
  const name = [...parents, cmd.name()].join(' ');
  cmd.showHelpAfterError(`usage: ${name} ${cmd.usage()}  (${name} --help for more)`);
  for (const sub of cmd.commands) usageAfterErrors(sub, [...parents, cmd.name()]);
}
